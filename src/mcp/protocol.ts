// The Model Context Protocol's server side, as the pipeline's endpoint for POST /mcp: one JSON-RPC
// message per request, answered in JSON (streamable HTTP, stateless: no session, no stream). It
// serves initialize (version negotiation), ping, tools/list (the tools the bearer's scopes allow)
// and tools/call (a request of its own through the pipeline: authentication, rate limits, scopes,
// validation, idempotency and audit are the pipeline's), and takes notifications with 202.
// Written by hand rather than with the SDK's server classes: these five methods are all it needs,
// and it stays small in production (the SDK is a dev dependency, for the tests' clients).
//
// Errors: a message that cannot be read is answered 400 with a JSON-RPC error (-32700 not JSON,
// -32600 not a request, batches included: 2025-06-18 removed them); an unknown method -32601,
// malformed params or an unknown tool -32602; a tool call the API refuses is a result with
// `isError` and the API's error object, so that a model can read it and correct its call.
//
// The audit log: a tool call is the row of the request it made, with the tool's name; a message
// refused (400 and the pipeline's own refusals: 401, 413, 415, 429, 503) a row of POST /mcp; the
// protocol's other messages (initialize, ping, tools/list, notifications) made no request of the
// API and are not recorded.
import { operationMeta } from "../../generated/handlers.ts";
import { mcpTools, contractVersion } from "../../generated/mcp-tools.ts";
import { readBodyText, requireMediaType } from "../http/body.ts";
import { HttpError } from "../http/errors.ts";
import {
  missingScopes,
  type Endpoint,
  type EndpointResult,
  type Pipeline,
  type PipelineRequest,
} from "../http/pipeline.ts";
import { refusedCall, toolRequest, toolResult, type ToolDefinition, type ToolResult } from "./tool-calls.ts";
import { toolLists } from "./tool-lists.ts";

/** Protocol versions this server speaks, newest first: those of @modelcontextprotocol/sdk 1.x's clients. */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** The largest message: room for MCP_FILE_LIMIT of a file's content in base64 (an upload); a call's JSON body keeps its own limit of 1 MiB. */
export const MCP_MESSAGE_LIMIT = 2 * 1024 * 1024;

/** Said once at `initialize` rather than in every tool: how the tools read, and where the rest of the reference is. */
const instructions = (origin: string) =>
  `The Project Builder API as tools: one per operation, named by its operationId. Path and query parameters are arguments of their own; a request body is the \`body\` argument, as the API takes it. A create returns at once: follow the run with getAgentRun (or getProject's status) until it ends, then createDeployment, and getDeployment until it is ready. An answer is the operation's JSON; a refusal comes back with isError and the API's error object (code, message, param). The full reference, with every field, answer and example, is ${origin}/docs (each tool is the operation of its name).`;

type JsonRpcId = string | number;

export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Implementation-defined: refusals of the HTTP request that carried the message (401, 429, 503). */
  serverError: -32000,
} as const;

export function rpcError(id: JsonRpcId | null, code: number, message: string, data?: unknown) {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

const rpcResult = (id: JsonRpcId, result: unknown) => ({ jsonrpc: "2.0", id, result });

const byName = new Map<string, ToolDefinition>(
  mcpTools.map(({ tool, call }) => [tool.name, { name: tool.name, call }]),
);

export interface McpEndpointDeps {
  readonly pipeline: Pipeline;
  /** Where clients reach this server (PUBLIC_URL's origin): a file's resource URI, and the reference's address. */
  readonly origin: string;
}

export function mcpEndpoint(deps: McpEndpointDeps): Endpoint {
  const said = instructions(deps.origin);
  const toolList = toolLists((scopes) =>
    mcpTools
      .filter(({ tool }) => missingScopes(operationMeta[tool.name].scopes, scopes).length === 0)
      .map(({ tool }) => tool),
  );

  async function callTool(
    id: JsonRpcId,
    params: Record<string, unknown>,
    request: PipelineRequest,
    requestId: string,
  ): Promise<EndpointResult> {
    const { name, arguments: args = {} } = params;
    if (typeof name !== "string")
      return answer(rpcError(id, JSON_RPC.invalidParams, "tools/call needs the tool's `name`, a string."));
    const tool = byName.get(name);
    if (!tool)
      return answer(
        rpcError(
          id,
          JSON_RPC.invalidParams,
          `Unknown tool: ${JSON.stringify(name.slice(0, 100))}. tools/list names the tools.`,
        ),
      );
    if (!isObject(args))
      return answer(rpcError(id, JSON_RPC.invalidParams, "tools/call's `arguments` must be an object."));
    let call: PipelineRequest;
    try {
      call = toolRequest(tool, args, request);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return answer(rpcResult(id, refusedCall(error, requestId)));
    }
    // The pipeline hands every request's answer to its transport, its refusals and failures included.
    let result: ToolResult | undefined;
    const path = call.url.split("?")[0]!;
    await deps.pipeline.handle(call, async (answered) => {
      result = await toolResult(tool, answered, deps.origin, path);
      return answered.status;
    });
    // The call was recorded as the request it made, under the tool's name.
    return { ...answer(rpcResult(id, result)), recorded: false };
  }

  return {
    route: "/mcp",
    async serve({ request, principal, requestId }) {
      const version = request.headers["mcp-protocol-version"];
      if (typeof version === "string" && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
        return answer(
          rpcError(
            null,
            JSON_RPC.invalidRequest,
            `Unsupported MCP-Protocol-Version ${version.slice(0, 40)}; this server speaks ${PROTOCOL_VERSIONS.join(", ")}.`,
          ),
          400,
        );
      }
      requireMediaType(request, ["application/json"], true);
      const text = await readBodyText(request, request.body, MCP_MESSAGE_LIMIT);
      let message: unknown;
      try {
        message = JSON.parse(text ?? "");
      } catch (error) {
        return answer(rpcError(null, JSON_RPC.parseError, `The message is not JSON: ${(error as Error).message}`), 400);
      }
      if (Array.isArray(message))
        return answer(
          rpcError(null, JSON_RPC.invalidRequest, "Batches are not supported: send one JSON-RPC message per request."),
          400,
        );
      if (!isObject(message) || message.jsonrpc !== "2.0")
        return answer(
          rpcError(null, JSON_RPC.invalidRequest, 'The message must be a JSON-RPC 2.0 object ("jsonrpc": "2.0").'),
          400,
        );
      const { id, method, params = {} } = message;
      if (typeof method !== "string") {
        const what =
          "id" in message && ("result" in message || "error" in message)
            ? "This server sends no requests, so it takes no responses."
            : "The message needs a `method`, a string.";
        return answer(rpcError(null, JSON_RPC.invalidRequest, what), 400);
      }
      // A notification (no id) is taken and needs no answer.
      if (!("id" in message)) return { status: 202, recorded: false };
      if (typeof id !== "string" && !(typeof id === "number" && Number.isFinite(id))) {
        return answer(rpcError(null, JSON_RPC.invalidRequest, "A request's `id` must be a string or a number."), 400);
      }
      if (!isObject(params)) return answer(rpcError(id, JSON_RPC.invalidParams, "`params` must be an object."));
      switch (method) {
        case "initialize": {
          const asked = params.protocolVersion;
          if (typeof asked !== "string")
            return answer(rpcError(id, JSON_RPC.invalidParams, "initialize needs `protocolVersion`, a string."));
          const protocolVersion = (PROTOCOL_VERSIONS as readonly string[]).includes(asked)
            ? asked
            : PROTOCOL_VERSIONS[0];
          return answer(
            rpcResult(id, {
              protocolVersion,
              capabilities: { tools: { listChanged: false } },
              serverInfo: { name: "project-builder-api", title: "Project Builder API", version: contractVersion },
              instructions: said,
            }),
          );
        }
        case "ping":
          return answer(rpcResult(id, {}));
        case "tools/list":
          return {
            status: 200,
            ...toolList(principal.key.scopes, id, request.headers["accept-encoding"]),
            recorded: false,
          };
        case "tools/call":
          return callTool(id, params, request, requestId);
        default:
          return answer(
            rpcError(
              id,
              JSON_RPC.methodNotFound,
              `Unknown method ${JSON.stringify(method.slice(0, 100))}; this server answers initialize, ping, tools/list and tools/call.`,
            ),
          );
      }
    },
  };
}

/**
 * An answer of the protocol's own. Only a refused message is a row of the audit log (POST /mcp):
 * the others made no request of the API (a tool call is recorded as the request it made).
 */
const answer = (body: object, status = 200): EndpointResult => ({ status, body, recorded: status >= 400 });

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
