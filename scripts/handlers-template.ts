// Renders generated/handlers.ts: the typed server stubs of the `/v1` pipeline. One entry per
// operationId it serves (see `servedByPipeline`), whose input is the operation's path, query,
// header and body parameters and whose result is the union of the statuses the contract declares,
// each with its body and the headers the handler must supply (a file's name is its body's data,
// which the transport writes as Content-Disposition). A server that implements `Handlers` gets a
// compile error for every operation it lacks and for every answer the contract does not allow.
// Types are indexed from schema.d.ts, never restated; the bodies that are not JSON (multipart, file,
// event stream) are imported from src/stream-bodies.ts.
import { parse } from "yaml";

/** Headers the HTTP pipeline adds to every response, so handlers never set them. */
const pipelineHeaders = new Set([
  "x-request-id",
  "ratelimit",
  "ratelimit-policy",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-used",
  "x-ratelimit-reset",
  "retry-after",
  "deprecation",
  "sunset",
  "idempotent-replayed",
]);

/** Headers a file answer carries as data (FileBody's name), written by the transport, not the handler. */
const fileBodyHeaders = new Set(["content-disposition"]);

const methods = ["get", "put", "post", "patch", "delete", "head", "options"] as const;

/**
 * Who serves an operation is said by its `x-served-by` extension; absent, it is the `/v1` pipeline
 * (src/http/), which these stubs are for. `oauth` marks the OAuth 2.0 authorization server's
 * operations (spec/oauth.tsp): served by src/oauth/ before the pipeline, without API keys, rate
 * limits or the API's error shape, so they get no handler and no `operationMeta` entry here. Any other
 * value fails the build rather than silently dropping an operation from the stubs.
 */
const servedElsewhere = new Set(["oauth"]);

export function servedByPipeline(op: { operationId: string; "x-served-by"?: unknown }): boolean {
  const servedBy = op["x-served-by"];
  if (servedBy === undefined) return true;
  if (typeof servedBy === "string" && servedElsewhere.has(servedBy)) return false;
  throw new Error(
    `${op.operationId}: unknown x-served-by ${JSON.stringify(servedBy)} (known: ${[...servedElsewhere].join(", ")})`,
  );
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
}
interface MediaTypes {
  [mediaType: string]: unknown;
}
interface Response {
  headers?: Record<string, { required?: boolean }>;
  content?: MediaTypes;
}
interface Operation {
  operationId: string;
  summary?: string;
  parameters: Parameter[];
  requestBody?: { required?: boolean; content: MediaTypes };
  responses: Record<string, Response>;
  "x-required-scopes"?: string[];
  "x-served-by"?: string;
}

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);
const quote = (s: string) => JSON.stringify(s);

function bodyType(op: string, access: string, content: MediaTypes | undefined): string | undefined {
  if (!content) return undefined;
  const [mediaType] = Object.keys(content);
  if (mediaType === "application/json") return `${access}["content"]["application/json"]`;
  if (mediaType === "multipart/form-data") return "MultipartBody";
  if (mediaType === "application/octet-stream") return "FileBody";
  if (mediaType === "text/event-stream") return "EventStreamBody";
  throw new Error(`${op}: no handler type for ${mediaType}`);
}

function renderInput(op: Operation): string {
  const id = op.operationId;
  const lines: string[] = [];
  for (const location of ["path", "query", "header"] as const) {
    const params = op.parameters.filter((p) => p.in === location);
    if (params.length === 0) continue;
    const optional = params.every((p) => !p.required) ? "?" : "";
    lines.push(`  ${location}${optional}: NonNullable<operations[${quote(id)}]["parameters"][${quote(location)}]>;`);
  }
  if (op.requestBody) {
    const access = `NonNullable<operations[${quote(id)}]["requestBody"]>`;
    const type = bodyType(id, access, op.requestBody.content);
    lines.push(`  body${op.requestBody.required ? "" : "?"}: ${type};`);
  }
  return lines.length === 0
    ? `export type ${pascal(id)}Input = Record<string, never>;`
    : `export interface ${pascal(id)}Input {\n${lines.join("\n")}\n}`;
}

function renderResult(op: Operation): string {
  const id = op.operationId;
  const variants = Object.entries(op.responses).map(([status, response]) => {
    const access = `operations[${quote(id)}]["responses"][${status}]`;
    const fields = [`status: ${status}`];
    const body = bodyType(id, access, response.content);
    const headers = Object.entries(response.headers ?? {}).filter(
      ([name]) =>
        !pipelineHeaders.has(name.toLowerCase()) && !(body === "FileBody" && fileBodyHeaders.has(name.toLowerCase())),
    );
    if (headers.length > 0) {
      const entries = headers.map(
        ([name, header]) => `${quote(name)}${header.required ? "" : "?"}: ${access}["headers"][${quote(name)}]`,
      );
      fields.push(`headers: { ${entries.join("; ")} }`);
    }
    if (body) fields.push(`body: ${body}`);
    return `  | { ${fields.join("; ")} }`;
  });
  return `export type ${pascal(id)}Result =\n${variants.join("\n")};`;
}

interface Document {
  paths: Record<
    string,
    Partial<Record<(typeof methods)[number], Omit<Operation, "parameters"> & { parameters?: unknown[] }>>
  >;
  components?: { parameters?: Record<string, Parameter> };
}

/** Resolves `#/components/parameters/…` references, which TypeSpec emits for shared query models. */
function resolveParameter(document: Document, parameter: unknown): Parameter {
  const ref = (parameter as { $ref?: string }).$ref;
  if (!ref) return parameter as Parameter;
  const name = decodeURIComponent(ref.replace("#/components/parameters/", ""));
  const resolved = document.components?.parameters?.[name];
  if (!resolved) throw new Error(`unresolved parameter ${ref}`);
  return resolved;
}

export function renderHandlers(openapiYaml: string): string {
  const document = parse(openapiYaml) as Document;
  const operations: { method: string; path: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const op = item[method];
      if (op && servedByPipeline(op))
        operations.push({
          method,
          path,
          op: { ...op, parameters: (op.parameters ?? []).map((p) => resolveParameter(document, p)) },
        });
    }
  }

  const types = operations.map(({ op }) => `${renderInput(op)}\n\n${renderResult(op)}`);
  const entries = operations.map(({ method, path, op }) => {
    const scopes = op["x-required-scopes"] ?? [];
    const doc = `${method.toUpperCase()} ${path}: ${op.summary ?? op.operationId}. Scope: ${scopes.join(", ") || "any valid key"}.`;
    return `  /** ${doc} */\n  ${op.operationId}(input: ${pascal(op.operationId)}Input, context: Context): Promise<${pascal(op.operationId)}Result>;`;
  });
  const meta = operations.map(({ method, path, op }) => {
    const idempotent = op.parameters.some((p) => p.in === "header" && p.name === "Idempotency-Key");
    return `  ${op.operationId}: { method: ${quote(method)}, path: ${quote(path)}, scopes: ${JSON.stringify(op["x-required-scopes"] ?? [])}, idempotent: ${idempotent} },`;
  });

  return `// Generated from openapi.yaml by scripts/generate.ts. Do not edit: change spec/ and run \`npm run build\`.
import type { operations } from "./schema.d.ts";
import type { EventStreamBody, FileBody, MultipartBody } from "../src/stream-bodies.ts";

${types.join("\n\n")}

/** The server stubs: one handler per operation of the \`/v1\` pipeline (not the OAuth endpoints). */
export interface Handlers<Context> {
${entries.join("\n")}
}

export type OperationId = keyof Handlers<unknown>;

/** What the HTTP pipeline needs to know of each operation. */
export const operationMeta = {
${meta.join("\n")}
} as const satisfies Record<OperationId, { method: string; path: string; scopes: readonly string[]; idempotent: boolean }>;
`;
}
