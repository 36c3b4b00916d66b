// The OAuth 2.0 authorization server: third-party applications act in a workspace on behalf of a
// member who consented. Served on the API's origin beside the console, outside the /v1 pipeline.
//
//   GET  /.well-known/oauth-authorization-server  metadata (RFC 8414)                  here
//   GET  /oauth/authorize                         sign-in, workspace, consent pages      authorize.ts
//   POST /oauth/authorize                         the consent form's answer              authorize.ts
//   POST /oauth/token                             codes and refresh tokens → tokens      token.ts (library)
//   POST /oauth/revoke                            token revocation (RFC 7009)            token.ts
//
// What the library does and what is written by hand
// --------------------------------------------------
// The token endpoint runs on @node-oauth/oauth2-server (5.x): client authentication (HTTP Basic or
// the body; a public client by client_id with PKCE), the authorization_code and refresh_token
// grants, S256 PKCE verification (after the code is burnt, in constant time), expiry checks,
// refresh-token rotation, scope narrowing on refresh, and RFC 6749 §5.2 errors. Its model
// (model.ts) is a thin adapter over src/domain/oauth.ts, which stores only SHA-256 hashes, makes
// codes and refresh tokens single use with a conditional UPDATE, and revokes the whole grant when
// either is replayed (the library has no notion of token families). Written by hand, and why:
// - the authorization endpoint and consent page: the library's authorize handler issues the code in
//   the same call that validates the request, so it cannot show a consent page (or a workspace
//   choice) for a request checked but not yet approved; it also does not require PKCE of public
//   clients, rebuilds error redirects with the legacy url.parse (dropping a registered URI's own
//   query), and requires `state`, which RFC 6749 only recommends;
// - JSON token requests (the service description shows them; the library reads only forms) are
//   parsed here and handed over as the same fields, and Basic credentials are form-urldecoded
//   (RFC 6749 §2.3.1) first;
// - revocation (RFC 7009) and metadata (RFC 8414): the library has neither.
//
// Browser applications (public clients with PKCE, which the metadata invites with
// `token_endpoint_auth_methods_supported: none`) call the token, revocation and metadata endpoints
// from their own origin: those answer CORS preflights and let any origin read every answer, errors
// included (`Access-Control-Allow-Origin: *`: no cookie is involved there — a request carries its
// client's credentials and tokens itself — so no credentialed CORS). The authorization endpoint and
// the console are pages of this origin, signed in by cookie: they answer no CORS at all.
// Small changes to the library's behaviour (model.ts, token.ts): a refresh asking for wider scopes
// is refused before the refresh token is used up (the library burns it first, so the client's retry
// would look like a replay and revoke the grant); the used refresh token is used up in the
// transaction that stores its successors (the library revokes it, then saves them: a failure between
// left the grant without a working refresh token); a redirect_uri that differs at the token endpoint
// is `invalid_grant` (RFC 6749 §5.2) rather than `invalid_request`; `invalid_client` is always 401
// with a WWW-Authenticate challenge; `password` and `client_credentials`, which the library knows,
// are `unsupported_grant_type`; `expires_in` is the token's lifetime (3600), not 3600 less the
// request's duration.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { scopes } from "../domain/keys.ts";
import { newId } from "../storage/ids.ts";
import type { Database } from "../storage/index.ts";
import type { PageDeps } from "../pages/deps.ts";
import { createAuthorizationEndpoint } from "./authorize.ts";
import { createRevocationEndpoint, createTokenEndpoint } from "./token.ts";

export interface OAuthServerDeps {
  readonly pages: PageDeps;
  readonly db: Database;
  readonly logger: Logger;
  /** The issuer (RFC 8414): this server's public origin. */
  readonly issuer: string;
}

/** The authorization server's metadata (RFC 8414 §2). */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: [...scopes],
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    code_challenge_methods_supported: ["S256"],
    // RFC 9207: the authorization response carries `iss`, so a client talking to several
    // authorization servers can tell which one answered (mix-up attacks).
    authorization_response_iss_parameter_supported: true,
  };
}

/** The endpoints browser applications call from another origin, and the methods each answers (others: 405). */
const CROSS_ORIGIN_METHODS: ReadonlyMap<string, string> = new Map([
  ["/.well-known/oauth-authorization-server", "GET, HEAD"],
  ["/oauth/token", "POST"],
  ["/oauth/revoke", "POST"],
]);
/** What a browser may cache a preflight's answer for (Chromium keeps it at most 2 hours). */
const PREFLIGHT_MAX_AGE_S = 7200;

export function createOAuthServer(
  deps: OAuthServerDeps,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const issuer = deps.issuer.replace(/\/+$/, "");
  const logger = deps.logger.child({ component: "oauth" });
  const authorize = createAuthorizationEndpoint({ ...deps, issuer, logger });
  const token = createTokenEndpoint({ db: deps.db, logger, clientAddress: deps.pages.clientAddress });
  const revoke = createRevocationEndpoint({ db: deps.db, logger, clientAddress: deps.pages.clientAddress });
  const metadata = JSON.stringify(authorizationServerMetadata(issuer));

  return async function handle(request, response) {
    // Every answer carries a request id, as the API's do; the logs and the consent's audit row name it.
    const requestId = newId("req");
    response.setHeader("X-Request-Id", requestId);
    const target = request.url?.startsWith("/") ? request.url : "/";
    // Parsed against this origin: a target such as `//evil.example/x` stays a path.
    const url = new URL(issuer + target);
    const method = request.method ?? "GET";
    const allowed = CROSS_ORIGIN_METHODS.get(url.pathname);
    if (allowed) {
      // Set before anything is answered, so that every answer carries them (app.ts's 500 too).
      response.setHeader("Access-Control-Allow-Origin", "*");
      response.setHeader("Access-Control-Expose-Headers", "WWW-Authenticate, X-Request-Id");
      if (method === "OPTIONS") {
        response.writeHead(204, {
          Allow: `${allowed}, OPTIONS`,
          "Access-Control-Allow-Methods": allowed,
          "Access-Control-Allow-Headers": "Content-Type, Authorization",
          "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_S),
        });
        return void response.end();
      }
      if (!allowed.split(", ").includes(method)) {
        return void response
          .writeHead(405, { Allow: allowed, "Content-Type": "text/plain; charset=utf-8" })
          .end("Method not allowed.");
      }
    }
    switch (url.pathname) {
      case "/.well-known/oauth-authorization-server":
        response.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "public, max-age=3600" });
        return void response.end(method === "HEAD" ? undefined : metadata);
      case "/oauth/authorize":
        return authorize(request, response, url, requestId);
      case "/oauth/token":
        return token(request, response, requestId);
      case "/oauth/revoke":
        return revoke(request, response, requestId);
      default:
        response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found.");
    }
  };
}
