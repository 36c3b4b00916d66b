// A tool call as a request of the pipeline, and the pipeline's answer as the call's result. The
// arguments become the operation's request as a client would send it over HTTP (path and query
// parameters, a JSON body, an Idempotency-Key), so that every rule — the contract's validation
// included — is the pipeline's; here only what no request could say is refused (an argument the
// tool does not have, a path parameter that would leave its segment). A multipart body's parts go
// to the pipeline as they are, not framed as multipart bytes, and take the same path from there as
// an HTTP upload's; a file comes back with its name and media type as the handler gave them.
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { operationMeta } from "../../generated/handlers.ts";
import type { McpToolCall } from "./tool-types.ts";
import { HttpError, errorBody } from "../http/errors.ts";
import { isFileBody, isReadable } from "../http/file-body.ts";
import type { Answer, PipelineRequest } from "../http/pipeline.ts";
import type { FileBody, FormPart } from "../stream-bodies.ts";

/** The most of a file a tool result carries (a download), and a call's content (an upload, within the message's own limit). */
export const MCP_FILE_LIMIT = 1024 * 1024;

/** What `tools/call` answers (the protocol's CallToolResult). */
export interface ToolResult {
  readonly content: readonly ToolContent[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly _meta?: Record<string, unknown>;
}

type ToolContent =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "resource";
      readonly resource: { readonly uri: string; readonly mimeType: string } & (
        { readonly text: string } | { readonly blob: string }
      );
    };

export interface ToolDefinition {
  readonly name: keyof typeof operationMeta;
  readonly call: McpToolCall;
}

/**
 * The pipeline request a call makes, from the /mcp request that carried it (its credential, user
 * agent and address); HttpError 400 for arguments no HTTP request could carry.
 */
export function toolRequest(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  carrier: PipelineRequest,
): PipelineRequest {
  const { call } = tool;
  const meta = operationMeta[tool.name];
  const known = new Set([
    ...call.path,
    ...call.query,
    ...(call.body ? ["body"] : []),
    ...(meta.idempotent ? ["idempotency_key"] : []),
  ]);
  for (const name of Object.keys(args)) {
    if (!known.has(name))
      throw invalid(`Unknown argument \`${name}\`; the tool's input schema does not name it.`, name);
  }

  let path: string = meta.path;
  for (const name of call.path) {
    const value = args[name];
    if (value === undefined || value === null || value === "") throw invalid(`The call is missing \`${name}\`.`, name);
    const text = scalar(value, name);
    // `.` and `..` are dot segments: the URL would address another route.
    if (text === "." || text === "..") throw invalid(`\`${name}\` cannot be "${text}".`, name);
    path = path.replace(`{${name}}`, encodeURIComponent(text));
  }
  const query = new URLSearchParams();
  for (const name of call.query) {
    const value = args[name];
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, scalar(item, name));
  }

  const headers: Record<string, string> = {};
  if (carrier.headers.authorization !== undefined) headers.authorization = carrier.headers.authorization;
  if (carrier.headers["user-agent"] !== undefined) headers["user-agent"] = carrier.headers["user-agent"];
  if (meta.idempotent) {
    const key = args.idempotency_key;
    // Each call is one request: without a key of the caller's, it gets one of its own.
    headers["idempotency-key"] = key === undefined ? `mcp_${randomUUID()}` : scalar(key, "idempotency_key");
  }
  // Without a `body` argument the request has an empty one, for the operation to judge.
  let body = Buffer.alloc(0);
  let parts: FormPart[] | undefined;
  if (call.body === "json") {
    if (args.body !== undefined) body = Buffer.from(jsonText(args.body, "body"));
    headers["content-type"] = "application/json";
    headers["content-length"] = String(body.length);
  } else if (call.body === "multipart") {
    parts = formParts(args.body ?? {}, call.files ?? []);
    headers["content-type"] = "multipart/form-data";
  }
  const search = query.size ? `?${query.toString()}` : "";
  return {
    method: meta.method.toUpperCase(),
    url: path + search,
    headers,
    body: Readable.from([body]),
    parts: parts && Readable.from(parts),
    clientAddress: carrier.clientAddress,
    tool: tool.name,
  };
}

/**
 * The call's result: the JSON answer as structured content (and as text, for clients that read
 * only text), a file as an embedded resource, and a refusal as `isError` with the API's error
 * object. A file over MCP_FILE_LIMIT is refused here (HttpError 413), its stream left unread.
 */
export async function toolResult(
  tool: ToolDefinition,
  answer: Answer,
  origin: string,
  path: string,
): Promise<ToolResult> {
  const _meta = { "project-builder/status": answer.status, "project-builder/request_id": answer.requestId };
  if (answer.failed || answer.status >= 400) {
    return {
      content: [{ type: "text", text: JSON.stringify(answer.body) }],
      structuredContent: answer.body,
      isError: true,
      _meta,
    };
  }
  if (answer.body === undefined)
    return { content: [{ type: "text", text: `Done: the API answered ${answer.status} with no body.` }], _meta };
  if (tool.call.answer !== "binary")
    return { content: [{ type: "text", text: JSON.stringify(answer.body) }], structuredContent: answer.body, _meta };

  if (!isFileBody(answer.body)) throw new Error(`${tool.name} answered a binary result that is no file`);
  const file = answer.body;
  const bytes = await fileBytes(file, Number(answer.headers["Content-Length"] ?? 0));
  const text = utf8Text(bytes);
  const resource = { uri: origin + path, mimeType: file.mediaType, _meta: { [FILENAME]: file.filename } };
  return {
    content: [
      {
        type: "resource",
        resource: text === undefined ? { ...resource, blob: bytes.toString("base64") } : { ...resource, text },
      },
    ],
    _meta,
  };
}

/** Where a file resource's `_meta` names the file (an embedded resource has no name of its own). */
export const FILENAME = "project-builder/filename";

/** The error result of a call refused before it became a request: its request id is the message's. */
export function refusedCall(failure: HttpError, requestId: string): ToolResult {
  const body = errorBody(failure.code, failure.message, failure.param, requestId);
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

async function fileBytes(file: FileBody, declared: number): Promise<Buffer> {
  const tooLarge = (size: number | string) =>
    new HttpError(
      413,
      "payload_too_large",
      `The file is ${size} bytes; a tool result carries at most ${MCP_FILE_LIMIT} bytes of a file. Download it over HTTP (downloadFile's GET, which also takes Range).`,
    );
  const body = file.content;
  if (body instanceof Uint8Array) {
    if (body.length > MCP_FILE_LIMIT) throw tooLarge(body.length);
    return Buffer.from(body);
  }
  if (!isReadable(body)) throw new Error("a file whose content is neither bytes nor a stream");
  if (declared > MCP_FILE_LIMIT) {
    body.destroy();
    throw tooLarge(declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MCP_FILE_LIMIT) {
      body.destroy();
      throw tooLarge(`more than ${MCP_FILE_LIMIT}`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The bytes as text when they are UTF-8 with no control characters but tabs and line breaks; else undefined. */
function utf8Text(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

/**
 * The parts of a multipart `body` argument: its file parts (`{text | content_base64, filename?,
 * content_type?}`) as files, its other members as fields, in the order given. What the parts say
 * (a path, a name the operation does not take) is the operation's to judge.
 */
function formParts(value: unknown, files: readonly string[]): FormPart[] {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw invalid("`body` must be an object of the request's parts.", "body");
  const parts: FormPart[] = [];
  let size = 0;
  for (const [name, part] of Object.entries(value)) {
    const where = `body.${name}`;
    storable(name, where);
    if (!files.includes(name)) {
      parts.push({ kind: "field", name, value: scalar(part, where), truncated: false });
      continue;
    }
    const file = fileArgument(part, where, (value as { path?: unknown }).path);
    size += file.content.length;
    if (size > MCP_FILE_LIMIT) {
      throw new HttpError(
        413,
        "payload_too_large",
        `A tool call carries at most ${MCP_FILE_LIMIT} bytes of files; upload larger ones over HTTP (uploadFile's multipart POST).`,
        where,
      );
    }
    parts.push({
      kind: "file",
      name,
      filename: file.filename,
      mimeType: file.contentType,
      content: Readable.from([file.content]),
    });
  }
  return parts;
}

function fileArgument(
  value: unknown,
  where: string,
  path: unknown,
): { content: Buffer; filename: string; contentType: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid(`\`${where}\` must be an object with the content as \`text\` or \`content_base64\`.`, where);
  }
  const {
    text,
    content_base64: base64,
    filename,
    content_type: contentType,
    ...rest
  } = value as Record<string, unknown>;
  const [unknown] = Object.keys(rest);
  if (unknown !== undefined)
    throw invalid(
      `Unknown member \`${unknown}\` of \`${where}\`; a file has text or content_base64, filename and content_type.`,
      `${where}.${unknown}`,
    );
  if ((text === undefined) === (base64 === undefined))
    throw invalid(`\`${where}\` needs its content as \`text\` or as \`content_base64\`, one of the two.`, where);
  let content: Buffer;
  if (text !== undefined) {
    if (typeof text !== "string") throw invalid(`\`${where}.text\` must be a string.`, `${where}.text`);
    content = Buffer.from(text);
  } else {
    if (
      typeof base64 !== "string" ||
      !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(base64)
    ) {
      throw invalid(
        `\`${where}.content_base64\` must be base64 (RFC 4648, with its padding).`,
        `${where}.content_base64`,
      );
    }
    content = Buffer.from(base64, "base64");
  }
  const name =
    filename === undefined
      ? (typeof path === "string" && path.split("/").at(-1)) || "file"
      : scalar(filename, `${where}.filename`);
  return {
    content,
    filename: storable(name, `${where}.filename`),
    contentType:
      contentType === undefined
        ? "application/octet-stream"
        : storable(scalar(contentType, `${where}.content_type`), `${where}.content_type`),
  };
}

/** A value for a URL or a part: strings as they are, numbers and booleans as JSON writes them; anything else as JSON, for the contract to refuse. */
function scalar(value: unknown, name: string): string {
  const text = typeof value === "string" ? value : jsonText(value, name);
  if (!text.isWellFormed())
    throw invalid(`\`${name}\` holds a lone UTF-16 surrogate, which no request can carry.`, name);
  return text;
}

/** The value as JSON text; an argument nested deeper than the call stack lets JSON.stringify go is refused. */
function jsonText(value: unknown, name: string): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof RangeError) throw invalid(`\`${name}\` is nested too deeply to be sent.`, name);
    throw error;
  }
}

/** A name the answer may repeat and the database keep: no NUL, which PostgreSQL's text cannot hold. */
function storable(text: string, name: string): string {
  if (text.includes("\0")) throw invalid(`\`${name}\` cannot hold a NUL.`, name);
  return text;
}

const invalid = (message: string, param: string) => new HttpError(400, "invalid_request", message, param);
