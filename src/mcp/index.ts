// The MCP server on the API's origin: POST /mcp (streamable HTTP, JSON answers, no sessions: GET
// and DELETE answer 405, as the transport allows a server that opens no streams), and the OAuth
// protected-resource metadata (RFC 9728) that a 401's WWW-Authenticate points clients to, naming
// this server's OAuth issuer. Every message goes through the API's pipeline (protocol.ts); what
// is here is HTTP: a refusal of the request that carried a message (401, 413, 429, 503…) is
// answered in JSON-RPC's error shape with the API's error object as its `data`.
import type { IncomingMessage, ServerResponse } from "node:http";
import { scopes } from "../domain/keys.ts";
import type { ErrorBody } from "../http/errors.ts";
import { httpRequest, writeAnswer, type Answer, type Pipeline } from "../http/pipeline.ts";
import { JSON_RPC, mcpEndpoint, rpcError } from "./protocol.ts";

export const MCP_PATH = "/mcp";
export const MCP_METADATA_PATH = "/.well-known/oauth-protected-resource/mcp";

export interface McpServerDeps {
  readonly pipeline: Pipeline;
  /** Where clients reach this server (PUBLIC_URL's origin), which is also the OAuth issuer. */
  readonly origin: string;
  readonly clientAddress: (request: IncomingMessage) => string | null;
}

/** The protected resource's metadata (RFC 9728 §2). */
export function protectedResourceMetadata(origin: string) {
  return {
    resource: `${origin}${MCP_PATH}`,
    authorization_servers: [origin],
    scopes_supported: [...scopes],
    bearer_methods_supported: ["header"],
    resource_name: "Project Builder API (MCP)",
  };
}

export function createMcpServer(
  deps: McpServerDeps,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const endpoint = mcpEndpoint({ pipeline: deps.pipeline, origin: deps.origin });
  const metadataUrl = `${deps.origin}${MCP_METADATA_PATH}`;
  const metadata = JSON.stringify(protectedResourceMetadata(deps.origin));

  /** A refusal of the HTTP request, in JSON-RPC's shape; a 401 says where to find how to authorize. */
  const refusal = (answer: Answer): Answer => {
    const error = answer.body as ErrorBody;
    const challenge: Record<string, string> =
      answer.status === 401 && error.error.code !== "insufficient_scope"
        ? {
            "WWW-Authenticate": `Bearer ${error.error.code === "missing_api_key" ? "" : 'error="invalid_token", '}resource_metadata="${metadataUrl}"`,
          }
        : {};
    const code =
      answer.status >= 500 && answer.status !== 503
        ? JSON_RPC.internalError
        : [400, 413, 415].includes(answer.status)
          ? JSON_RPC.invalidRequest
          : JSON_RPC.serverError;
    return {
      ...answer,
      headers: { ...answer.headers, ...challenge },
      body: rpcError(null, code, error.error.message, error),
    };
  };

  return async function serve(request, response) {
    const path = request.url?.split("?")[0];
    if (path === MCP_METADATA_PATH) return serveMetadata(request, response, metadata);
    if (request.method !== "POST") {
      // No stream to open (GET) and no session to end (DELETE): nothing to do, nothing to record.
      response.writeHead(405, { Allow: "POST", "Content-Type": "application/json" });
      return void response.end(
        JSON.stringify(
          rpcError(
            null,
            JSON_RPC.invalidRequest,
            `${request.method} is not allowed on ${MCP_PATH}: POST one JSON-RPC message per request; this server opens no streams and keeps no sessions.`,
          ),
        ),
      );
    }
    await deps.pipeline.handle(
      httpRequest(request, deps.clientAddress),
      (answer) => writeAnswer(response, answer.failed ? refusal(answer) : answer),
      endpoint,
    );
  };
}

/** Read by clients in browsers too: open to every origin, as the authorization server's metadata is. */
function serveMetadata(request: IncomingMessage, response: ServerResponse, metadata: string): void {
  response.setHeader("Access-Control-Allow-Origin", "*");
  if (request.method === "OPTIONS") {
    response.writeHead(204, {
      Allow: "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Methods": "GET, HEAD",
      "Access-Control-Allow-Headers": "MCP-Protocol-Version",
      "Access-Control-Max-Age": "7200",
    });
    return void response.end();
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    return void response
      .writeHead(405, { Allow: "GET, HEAD, OPTIONS", "Content-Type": "text/plain; charset=utf-8" })
      .end("Method not allowed.");
  }
  response.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "public, max-age=3600" });
  response.end(request.method === "HEAD" ? undefined : metadata);
}
