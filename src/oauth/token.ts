// The token endpoint (RFC 6749 §4.1.3, §6) and the revocation endpoint (RFC 7009).
//
// Token requests go to @node-oauth/oauth2-server. It reads only form bodies, so a JSON body (which the
// service description shows) is parsed here and handed over as the same fields; HTTP Basic
// credentials are form-urldecoded here first (RFC 6749 §2.3.1), which the library does not do.
// Revocation is not in the library: it is written here, with the same client authentication rules.
import type { IncomingMessage, ServerResponse } from "node:http";
import OAuth2Server from "@node-oauth/oauth2-server";
import type { Logger } from "pino";
import { recordAdminAction } from "../domain/audit-log.ts";
import {
  ACCESS_TOKEN_LIFETIME_S,
  authenticateOAuthClient,
  REFRESH_TOKEN_LIFETIME_S,
  revokeToken,
} from "../domain/oauth.ts";
import type { Database } from "../storage/index.ts";
import { domainFailure } from "../http/errors.ts";
import { FormError, readForm } from "../pages/forms.ts";
import { mediaTypeOf } from "../request-body.ts";
import { AuthorizationCodeGrant, createModel, GRANT_TYPES, RefreshTokenGrant } from "./model.ts";

const BODY_LIMIT = 16 * 1024;
/** The realm of the WWW-Authenticate challenge of an `invalid_client` answer. */
const CHALLENGE = 'Basic realm="oauth"';

/** An RFC 6749 §5.2 error answer. */
export class OAuthProtocolError extends Error {
  readonly code: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(
    code: string,
    description: string,
    status = code === "invalid_client" ? 401 : 400,
    headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthProtocolError";
    this.code = code;
    this.status = status;
    this.headers = headers;
  }
}

export interface TokenDeps {
  readonly db: Database;
  readonly logger: Logger;
  /** The client's address, for the audit log (TRUST_PROXY). */
  readonly clientAddress: (request: IncomingMessage) => string | null;
}

/** The client credentials of HTTP Basic, form-urldecoded; undefined without a Basic header. */
function basicCredentials(authorization: string | undefined): { id: string; secret: string } | undefined {
  if (!authorization) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(authorization);
  if (!match)
    throw new OAuthProtocolError(
      "invalid_client",
      "Client authentication failed: the Authorization header must be HTTP Basic.",
    );
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0)
    throw new OAuthProtocolError("invalid_client", "Client authentication failed: malformed Basic credentials.");
  try {
    const formDecode = (value: string) => decodeURIComponent(value.replaceAll("+", " "));
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthProtocolError("invalid_client", "Client authentication failed: malformed Basic credentials.");
  }
}

/**
 * The request's parameters, from a form or a JSON object. A parameter given twice, or a known one
 * that is not a string, is `invalid_request` (RFC 6749 §3.2); unknown parameters are ignored.
 */
async function readParameters(request: IncomingMessage, known: readonly string[]): Promise<Map<string, string>> {
  const mediaType = mediaTypeOf(request);
  const parameters = new Map<string, string>();
  if (mediaType === "application/x-www-form-urlencoded") {
    let form: URLSearchParams;
    try {
      form = await readForm(request, BODY_LIMIT);
    } catch (error) {
      if (error instanceof FormError) throw new OAuthProtocolError("invalid_request", error.message);
      throw error;
    }
    for (const [name, value] of form) {
      if (!known.includes(name)) continue;
      if (parameters.has(name))
        throw new OAuthProtocolError("invalid_request", `The parameter ${name} was given more than once.`);
      parameters.set(name, value);
    }
    return parameters;
  }
  if (mediaType === "application/json") {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > BODY_LIMIT)
        throw new OAuthProtocolError("invalid_request", `The body is larger than ${BODY_LIMIT / 1024} KiB.`);
      chunks.push(chunk);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      throw new OAuthProtocolError("invalid_request", "The body is not valid JSON.");
    }
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new OAuthProtocolError("invalid_request", "The body must be a JSON object.");
    for (const [name, value] of Object.entries(body)) {
      if (!known.includes(name) || value === null) continue;
      if (typeof value !== "string")
        throw new OAuthProtocolError("invalid_request", `The parameter ${name} must be a string.`);
      if (value.includes("\u0000"))
        throw new OAuthProtocolError("invalid_request", `The parameter ${name} contains a NUL character.`);
      parameters.set(name, value);
    }
    return parameters;
  }
  // Nothing read: the connection is closed after the answer rather than drained.
  throw new OAuthProtocolError(
    "invalid_request",
    "Send the parameters as application/x-www-form-urlencoded or application/json.",
  );
}

/**
 * Which credentials the request carries: HTTP Basic, or `client_id` (and `client_secret`) in the
 * body — one method only (RFC 6749 §2.3). A Basic client id repeated in the body must be the same.
 */
function clientCredentials(
  request: IncomingMessage,
  parameters: Map<string, string>,
): { id: string; secret: string | undefined; basic: boolean } {
  const basic = basicCredentials(request.headers.authorization);
  if (basic) {
    if (parameters.has("client_secret"))
      throw new OAuthProtocolError(
        "invalid_request",
        "Authenticate the client with HTTP Basic or in the body, not both.",
      );
    const bodyId = parameters.get("client_id");
    if (bodyId !== undefined && bodyId !== basic.id)
      throw new OAuthProtocolError("invalid_request", "The client_id of the body is not the one of HTTP Basic.");
    return { id: basic.id, secret: basic.secret, basic: true };
  }
  const id = parameters.get("client_id");
  if (!id)
    throw new OAuthProtocolError(
      "invalid_client",
      "Client authentication failed: send client_id (and client_secret), or HTTP Basic.",
    );
  return { id, secret: parameters.get("client_secret") || undefined, basic: false };
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.statusCode = status;
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  response.setHeader("Content-Type", "application/json");
  response.setHeader("Cache-Control", "no-store");
  response.setHeader("Pragma", "no-cache");
  response.end(JSON.stringify(body));
}

export function sendProtocolError(response: ServerResponse, error: OAuthProtocolError, request: IncomingMessage): void {
  // A body left unread (refused before reading, or read only up to the limit, which destroys the
  // request stream) would be parsed as the next request on a kept-alive connection: close it.
  if (!request.readableEnded) response.setHeader("Connection", "close");
  sendJson(
    response,
    error.status,
    // error_description may hold only these characters (RFC 6749 §5.2); it may echo input, so it is bounded.
    {
      error: error.code,
      error_description: error.message.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "?").slice(0, 1000),
    },
    error.code === "invalid_client" ? { ...error.headers, "WWW-Authenticate": CHALLENGE } : error.headers,
  );
}

const TOKEN_PARAMETERS = [
  "grant_type",
  "code",
  "redirect_uri",
  "code_verifier",
  "refresh_token",
  "client_id",
  "client_secret",
  "scope",
] as const;

export function createTokenEndpoint(deps: TokenDeps) {
  const server = new OAuth2Server({
    model: createModel(deps.db, deps.logger),
    accessTokenLifetime: ACCESS_TOKEN_LIFETIME_S,
    refreshTokenLifetime: REFRESH_TOKEN_LIFETIME_S,
    // A public client refreshes with its client_id alone; the model still holds a confidential
    // client to its secret (the library's default would ask every client for one).
    requireClientAuthentication: { refresh_token: false },
    alwaysIssueNewRefreshToken: true,
    extendedGrantTypes: {
      authorization_code: AuthorizationCodeGrant as unknown as typeof OAuth2Server.AbstractGrantType,
      refresh_token: RefreshTokenGrant as unknown as typeof OAuth2Server.AbstractGrantType,
    },
  });

  return async function token(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    let clientId: string | undefined;
    try {
      const parameters = await readParameters(request, TOKEN_PARAMETERS);
      const credentials = clientCredentials(request, parameters);
      clientId = credentials.id;
      const grantType = parameters.get("grant_type");
      // The library also knows `password` and `client_credentials`; this server does not.
      if (grantType && !(GRANT_TYPES as readonly string[]).includes(grantType)) {
        throw new OAuthProtocolError(
          "unsupported_grant_type",
          `The grant_type ${grantType.slice(0, 100)} is not supported; use authorization_code or refresh_token.`,
        );
      }
      // Scopes may be joined by `+` (as the authorization request's) as well as by spaces.
      const scope = parameters.get("scope");
      if (scope !== undefined) parameters.set("scope", scope.replaceAll("+", " "));
      // What the library reads: the fields as a form, the (decoded) client credentials as Basic.
      const body = Object.fromEntries(parameters);
      const headers: Record<string, string> = {
        "content-type": "application/x-www-form-urlencoded",
        "content-length": "1",
      };
      if (credentials.basic) {
        delete body.client_id;
        headers.authorization = `Basic ${Buffer.from(`${credentials.id}:${credentials.secret}`).toString("base64")}`;
      }
      const oauthResponse = new OAuth2Server.Response();
      await server.token(new OAuth2Server.Request({ method: "POST", query: {}, headers, body }), oauthResponse);
      const issued = oauthResponse.body as Record<string, unknown>;
      // The library computes expires_in from the expiry less the time the request took (3599);
      // the token's lifetime is what RFC 6749 §5.1 asks for.
      sendJson(response, 200, { ...issued, expires_in: ACCESS_TOKEN_LIFETIME_S, scope: issued.scope ?? "" });
      deps.logger.info({ client_id: clientId, grant_type: grantType, request_id: requestId }, "oauth tokens issued");
    } catch (error) {
      const failure = asProtocolError(error);
      // A server error of the library wraps the model's exception: that is what went wrong.
      if (!failure)
        throw error instanceof OAuth2Server.ServerError ? ((error as { inner?: unknown }).inner ?? error) : error;
      deps.logger.info(
        { client_id: clientId, error: failure.code, request_id: requestId },
        "oauth token request refused",
      );
      sendProtocolError(response, failure, request);
    }
  };
}

/**
 * The library's 4xx errors and the domain's errors (the model's, which the library wraps in a server
 * error) as protocol errors; anything else propagates (500).
 */
function asProtocolError(error: unknown): OAuthProtocolError | undefined {
  if (error instanceof OAuthProtocolError) return error;
  if (error instanceof OAuth2Server.OAuthError && error.code < 500)
    return new OAuthProtocolError(error.name, error.message);
  return domainProtocolError(
    error instanceof OAuth2Server.ServerError ? ((error as { inner?: unknown }).inner ?? error) : error,
  );
}

/**
 * A domain error, with the status and code of the one error table (src/http/errors.ts), as RFC 6749
 * §5.2 can say it: its codes are fewer than the API's, and every refusal is 400 but for an outage.
 */
function domainProtocolError(error: unknown): OAuthProtocolError | undefined {
  const failure = domainFailure(error);
  if (!failure) return undefined;
  if (failure.status === 503)
    return new OAuthProtocolError("temporarily_unavailable", failure.message, 503, failure.headers);
  if (failure.status >= 500) return undefined;
  const code =
    failure.code === "insufficient_scope"
      ? "invalid_scope"
      : failure.code === "forbidden"
        ? "unauthorized_client"
        : "invalid_request";
  return new OAuthProtocolError(code, failure.message);
}

const REVOKE_PARAMETERS = ["token", "token_type_hint", "client_id", "client_secret"] as const;

export function createRevocationEndpoint(deps: TokenDeps) {
  return async function revoke(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
    try {
      const parameters = await readParameters(request, REVOKE_PARAMETERS);
      const credentials = clientCredentials(request, parameters);
      const client = await authenticateOAuthClient(deps.db, credentials.id, credentials.secret);
      if (!client)
        throw new OAuthProtocolError(
          "invalid_client",
          "Client authentication failed: unknown client, wrong secret, or a confidential client without its secret.",
        );
      const token = parameters.get("token");
      if (!token) throw new OAuthProtocolError("invalid_request", "Missing parameter: token.");
      // token_type_hint is only a hint (RFC 7009 §2.1): the token is looked up whatever its kind.
      const revoked = await deps.db.transaction(async (tx) => {
        const grant = await revokeToken(tx, client.id, token);
        if (grant) {
          // The application gave up its own access: the workspace's log says so, with the client as actor.
          await recordAdminAction(tx, {
            workspaceId: grant.workspaceId,
            action: "oauth_app.revoked",
            actor: client.id,
            target: client.id,
            request: {
              requestId,
              method: "POST",
              path: "/oauth/revoke",
              status: 200,
              ip: deps.clientAddress(request),
              userAgent: request.headers["user-agent"] ?? null,
            },
          });
        }
        return grant;
      });
      if (revoked)
        deps.logger.info(
          { client_id: client.id, grant_id: revoked.grantId, request_id: requestId },
          "oauth grant revoked by its client",
        );
      response.statusCode = 200;
      response.setHeader("Cache-Control", "no-store");
      response.end();
    } catch (error) {
      const failure = asProtocolError(error);
      if (!failure) throw error;
      sendProtocolError(response, failure, request);
    }
  };
}
