// The model @node-oauth/oauth2-server calls at the token endpoint: a thin adapter over
// src/domain/oauth.ts, which holds the rules (single use, replay revokes the grant, membership).
//
// The library's objects: a `client` is `{ id, grants, redirectUris }`; a `user` is what the grant
// needs to issue tokens — `{ id: <user id>, grantId, workspaceId }`, and on a refresh the refresh
// token it replaces — opaque to the library.
import { createRequire } from "node:module";
import OAuth2Server from "@node-oauth/oauth2-server";
import type { Logger } from "pino";
import type { Database } from "../storage/index.ts";
import type { OAuthClient } from "../storage/schema.ts";
import { authenticateAccessToken } from "../domain/oauth-access.ts";
import {
  authenticateOAuthClient,
  consumeAuthorizationCode,
  findAuthorizationCode,
  findRefreshToken,
  newAccessToken,
  newRefreshToken,
  rotateRefreshToken,
  saveTokens,
  type GrantFacts,
  type GrantRefusal,
} from "../domain/oauth.ts";

/** The grants every client may use; the library refuses others with `unauthorized_client`. */
export const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

type Model = OAuth2Server.RefreshTokenModel &
  Pick<
    OAuth2Server.AuthorizationCodeModel,
    "getAuthorizationCode" | "revokeAuthorizationCode" | "generateRefreshToken"
  >;

interface GrantUser extends OAuth2Server.User {
  readonly id: string;
  readonly grantId: string;
  readonly workspaceId: string;
  /** On a refresh: the refresh token the new tokens replace, used up as they are stored (RefreshTokenGrant). */
  readonly replaces?: string;
}

function libraryClient(client: Pick<OAuthClient, "id" | "redirectUris">): OAuth2Server.Client {
  return { id: client.id, grants: [...GRANT_TYPES], redirectUris: client.redirectUris };
}

function grantUser(grant: GrantFacts): GrantUser {
  return { id: grant.userId, grantId: grant.grantId, workspaceId: grant.workspaceId };
}

/** What a code and a refresh token tell the library of their grant. */
function libraryGrant(grant: GrantFacts): Pick<OAuth2Server.RefreshToken, "scope" | "client" | "user"> {
  return { scope: grant.scopes, client: { id: grant.clientId, grants: [...GRANT_TYPES] }, user: grantUser(grant) };
}

export function createModel(db: Database, logger: Logger): Model {
  /** The facts of a code or refresh token the domain accepted, else undefined (→ invalid_grant). A
   *  replay has revoked the grant behind it, which is worth a warning. */
  function accepted<Facts extends GrantFacts>(
    found: Facts | { refused: GrantRefusal },
    replayed: string,
  ): Facts | undefined {
    if (!("refused" in found)) return found;
    if (found.refused === "reused") logger.warn(replayed);
    return undefined;
  }

  return {
    /**
     * Client authentication. The library passes the secret from HTTP Basic or the body, or none (a
     * PKCE exchange or a refresh without one): the domain accepts a confidential client only with its
     * secret and a public client only without one.
     */
    async getClient(clientId, clientSecret) {
      const client = await authenticateOAuthClient(db, clientId, clientSecret);
      return client ? libraryClient(client) : false;
    },

    async getAuthorizationCode(code) {
      const found = accepted(
        await findAuthorizationCode(db, code),
        "an authorization code was used twice: its grant is revoked",
      );
      if (!found) return false;
      return {
        authorizationCode: code,
        expiresAt: found.expiresAt,
        redirectUri: found.redirectUri,
        ...libraryGrant(found),
        ...(found.codeChallenge
          ? { codeChallenge: found.codeChallenge, codeChallengeMethod: found.codeChallengeMethod ?? "S256" }
          : {}),
      };
    },

    /** Single use: false (→ invalid_grant) when a concurrent exchange used the code first; that revoked the grant. */
    async revokeAuthorizationCode(code) {
      const consumed = await consumeAuthorizationCode(db, code.authorizationCode);
      if (!consumed) logger.warn("an authorization code was exchanged twice at once: its grant is revoked");
      return consumed;
    },

    async getRefreshToken(refreshToken) {
      const found = accepted(
        await findRefreshToken(db, refreshToken),
        "a refresh token was used twice: its grant (the token family) is revoked",
      );
      if (!found) return false;
      return { refreshToken, refreshTokenExpiresAt: found.expiresAt, ...libraryGrant(found) };
    },

    /**
     * Never called: RefreshTokenGrant uses the refresh token up in saveToken, in the transaction that
     * stores its successors. (The library requires the method; were the library's own flow to call
     * it, the old token would stay usable: refuse instead.)
     */
    async revokeToken() {
      throw new Error("refresh tokens are used up in saveToken (RefreshTokenGrant), not in revokeToken");
    },

    generateAccessToken: async () => newAccessToken(),
    generateRefreshToken: async () => newRefreshToken(),

    async saveToken(token, client, user) {
      const grant = user as GrantUser;
      if (!token.refreshToken || !token.accessTokenExpiresAt || !token.refreshTokenExpiresAt) {
        throw new Error("the token endpoint always issues a refresh token with expiries");
      }
      const tokens = {
        grantId: grant.grantId,
        accessToken: token.accessToken,
        accessTokenExpiresAt: token.accessTokenExpiresAt,
        scopes: token.scope ?? [],
        refreshToken: token.refreshToken,
        refreshTokenExpiresAt: token.refreshTokenExpiresAt,
      };
      if (grant.replaces) {
        if (!(await rotateRefreshToken(db, grant.replaces, tokens))) {
          logger.warn("a refresh token was used twice at once, or its grant revoked meanwhile: nothing issued");
          throw new OAuth2Server.InvalidGrantError("Invalid grant: refresh token is invalid or could not be revoked");
        }
      } else if (!(await saveTokens(db, tokens))) {
        // Revoked while the request ran (a replay on another replica, the app revoked in the console).
        throw new OAuth2Server.InvalidGrantError("Invalid grant: the authorization was revoked");
      }
      return { ...token, client, user };
    },

    /** Not used by this server (the API pipeline authenticates tokens itself); answers as it would. */
    async getAccessToken(accessToken) {
      const principal = await authenticateAccessToken(db, accessToken);
      if ("refused" in principal) return false;
      return {
        accessToken,
        accessTokenExpiresAt: principal.key.expiresAt ?? undefined,
        scope: [...principal.key.scopes],
        client: { id: principal.client!.id, grants: [...GRANT_TYPES] },
        user: { id: principal.key.createdBy, grantId: principal.key.id, workspaceId: principal.workspace.id },
      };
    },
  };
}

// The library's grant types, each with one change. (Deep imports: the package exports only
// AbstractGrantType; package.json pins the 5.x line these paths belong to.)
//
// The authorization-code grant: a `redirect_uri` that differs from the
// authorization request's is `invalid_grant` (RFC 6749 §5.2), where the library says
// `invalid_request`. Everything else — expiry, single use before PKCE is checked (a wrong verifier
// burns the code), S256 verification in constant time — is the library's.
interface GrantTypeInstance {
  handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token>;
  validateRedirectUri(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void;
}
const require = createRequire(import.meta.url);
const AuthorizationCodeGrantType =
  require("@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js") as new (
    options: object,
  ) => GrantTypeInstance;

interface RefreshGrantTypeInstance {
  handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token>;
  getRefreshToken(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.RefreshToken>;
  getScope(request: OAuth2Server.Request, token: OAuth2Server.RefreshToken): string[] | undefined;
  saveToken(
    user: OAuth2Server.User,
    client: OAuth2Server.Client,
    scope: string[] | undefined,
  ): Promise<OAuth2Server.Token>;
}
const RefreshTokenGrantType = require("@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js") as new (
  options: object,
) => RefreshGrantTypeInstance;

/**
 * The refresh-token grant, with two changes, each so that a failed refresh leaves the refresh token
 * usable rather than burnt (the client's retry would look like a replay and revoke the grant):
 * - the requested scope is checked before the token is used up (the library checks it after);
 * - the token is used up by the model's saveToken, in the transaction that stores its successors
 *   (the library calls revokeToken first, then saveToken: a failure between them lost both).
 */
export class RefreshTokenGrant extends RefreshTokenGrantType {
  override async handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token> {
    const token = await this.getRefreshToken(request, client);
    const scope = this.getScope(request, token);
    const user: GrantUser = { ...(token.user as GrantUser), replaces: token.refreshToken };
    return this.saveToken(user, client, scope);
  }
}

export class AuthorizationCodeGrant extends AuthorizationCodeGrantType {
  override validateRedirectUri(request: OAuth2Server.Request, code: OAuth2Server.AuthorizationCode): void {
    const given = (request.body as Record<string, unknown> | undefined)?.redirect_uri;
    if (typeof given !== "string" || given !== code.redirectUri) {
      throw new OAuth2Server.InvalidGrantError(
        "Invalid grant: `redirect_uri` must be the one of the authorization request",
      );
    }
  }
}
