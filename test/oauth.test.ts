// The OAuth 2.0 authorization server end to end, with a client written by others (oauth4webapi):
// discovery, the authorization-code flow with PKCE through the real sign-in and consent pages
// (driven with fetch and a cookie jar), the token endpoint (form and JSON, Basic and body client
// authentication), refresh rotation, replay detection, RFC 7009 revocation, and the access token
// used exactly like an API key: its scopes, its workspace, live data only, the audit log.
import { and, eq, sql } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/domain/keys.ts";
import { addMember, findUserByEmail } from "../src/domain/members.ts";
import { createOAuthClient } from "../src/domain/oauth-clients.ts";
import { listConnectedApps, revokeConnectedApp } from "../src/domain/connected-apps.ts";
import { ACCESS_TOKEN_PREFIX, hashOAuthSecret, purgeExpiredOAuth } from "../src/domain/oauth.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { auditLog, memberships, oauthCodes, oauthGrants, oauthTokens, type Workspace } from "../src/storage/schema.ts";
import { expectStatus } from "./support/api-client.ts";
import { responseErrors } from "./support/contract.ts";
import { pgliteDriver } from "./support/database.ts";
import { CookieBrowser, formFields } from "./support/cookie-browser.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const PASSWORD = "correct horse battery staple";
const insecure = { [oauth.allowInsecureRequests]: true } as const;

function location(response: Response): URL {
  const value = response.headers.get("location");
  if (!value) throw new Error(`no Location (status ${response.status})`);
  return new URL(value, "http://relative.invalid");
}

describe("OAuth 2.0 authorization server", () => {
  let server: TestServer;
  let as: oauth.AuthorizationServer;
  let acme: Workspace;
  let globex: Workspace;
  let confidential: { id: string; secret: string; redirectUri: string };
  let publicClient: { id: string; redirectUri: string };
  const browsers = new Map<string, CookieBrowser>();

  beforeAll(async () => {
    server = await startTestServer(pgliteDriver);
    const db = server.storage.db;
    acme = (await ensureWorkspace(db, { slug: "acme", name: "Acme", plan: "pro" })).workspace;
    globex = (await ensureWorkspace(db, { slug: "globex", name: "Globex", plan: "pro" })).workspace;
    await addMember(db, { workspaceId: acme.id, email: "olivia@acme.example", role: "owner", password: PASSWORD });
    await addMember(db, { workspaceId: acme.id, email: "mo@acme.example", role: "member", password: PASSWORD });
    await addMember(db, { workspaceId: acme.id, email: "ada@acme.example", role: "admin", password: PASSWORD });
    await addMember(db, { workspaceId: globex.id, email: "ada@acme.example", role: "owner" });
    await addMember(db, { workspaceId: acme.id, email: "leaving@acme.example", role: "owner", password: PASSWORD });
    await addMember(db, { workspaceId: acme.id, email: "nobody@acme.example", role: "member", password: PASSWORD });
    const redirectUri = `${server.url}/integration/callback`;
    const created = await createOAuthClient(db, {
      name: "Acme Integrations",
      redirectUris: [redirectUri, "https://integrations.example/cb?tenant=7"],
    });
    confidential = { id: created.client.id, secret: created.secret!, redirectUri };
    const cli = await createOAuthClient(db, {
      name: "Builder CLI",
      redirectUris: ["http://127.0.0.1:53682/callback", "com.example.builder:/oauth"],
      public: true,
    });
    publicClient = { id: cli.client.id, redirectUri: "http://127.0.0.1:53682/callback" };
    const issuer = new URL(server.url);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
    );
  });
  afterAll(() => server?.stop());

  /** A browser signed in as `email` through the console's sign-in form (one per person, reused). */
  async function signedIn(email: string): Promise<CookieBrowser> {
    const known = browsers.get(email);
    if (known) return known;
    const browser = new CookieBrowser(server.url);
    const form = await browser.fetch("/settings/sign-in?next=%2Fsettings");
    expect(form.status).toBe(200);
    const fields = Object.fromEntries(formFields(await form.text()));
    const signIn = await browser.post("/settings/sign-in", { ...fields, email, password: PASSWORD });
    expect(signIn.status).toBe(303);
    expect(browser.cookies.has("pb_session")).toBe(true);
    browsers.set(email, browser);
    return browser;
  }

  interface Started {
    readonly url: URL;
    readonly state: string;
    readonly verifier: string;
  }

  async function authorizationRequest(
    options: { clientId?: string; redirectUri?: string; scope?: string; pkce?: boolean } = {},
  ): Promise<Started> {
    const state = oauth.generateRandomState();
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set("client_id", options.clientId ?? confidential.id);
    url.searchParams.set("redirect_uri", options.redirectUri ?? confidential.redirectUri);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", options.scope ?? "projects:read projects:write");
    url.searchParams.set("state", state);
    if (options.pkce !== false) {
      url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
      url.searchParams.set("code_challenge_method", "S256");
    }
    return { url, state, verifier };
  }

  /** Opens the request in a signed-in browser and answers the consent page; returns where the browser was sent. */
  async function consent(
    started: Started,
    options: { email?: string; decision?: "allow" | "deny"; workspace?: string } = {},
  ): Promise<URL> {
    const browser = await signedIn(options.email ?? "olivia@acme.example");
    let page = await browser.fetch(started.url.pathname + started.url.search);
    expect(page.status).toBe(200);
    let text = await page.text();
    if (text.includes('type="radio" id="workspace-')) {
      // The chooser: a GET form carrying the request, with one radio per workspace.
      const carried = new URLSearchParams(formFields(text, "get"));
      carried.set("workspace", options.workspace ?? "acme");
      page = await browser.fetch(`/oauth/authorize?${carried.toString()}`);
      expect(page.status).toBe(200);
      text = await page.text();
    }
    const answer = await browser.post("/oauth/authorize", [
      ...formFields(text, options.decision ?? "allow"),
      ["decision", options.decision ?? "allow"],
    ]);
    expect(answer.status).toBe(303);
    return location(answer);
  }

  async function exchange(
    started: Started,
    callback: URL,
    options: { clientAuth?: oauth.ClientAuth; clientId?: string; redirectUri?: string; verifier?: string } = {},
  ) {
    const client: oauth.Client = { client_id: options.clientId ?? confidential.id };
    const params = oauth.validateAuthResponse(as, client, callback, started.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      options.clientAuth ?? oauth.ClientSecretPost(confidential.secret),
      params,
      options.redirectUri ?? confidential.redirectUri,
      options.verifier ?? started.verifier,
      insecure,
    );
    return oauth.processAuthorizationCodeResponse(as, client, response);
  }

  /** The whole flow for the confidential client; returns the token response. */
  async function tokensFor(options: { scope?: string; email?: string; workspace?: string } = {}) {
    const started = await authorizationRequest({ ...(options.scope ? { scope: options.scope } : {}) });
    const callback = await consent(started, options);
    return exchange(started, callback);
  }

  async function refresh(
    refreshToken: string,
    clientAuth: oauth.ClientAuth = oauth.ClientSecretPost(confidential.secret),
    clientId = confidential.id,
  ) {
    const client: oauth.Client = { client_id: clientId };
    return oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, insecure),
    );
  }

  async function oauthError(promise: Promise<unknown>): Promise<{ error: string; status: number }> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) return { error: error.error, status: error.status };
      if (error instanceof oauth.WWWAuthenticateChallengeError) {
        // A 401 with a challenge (invalid_client); the body still says which error.
        return { error: ((await error.response.json()) as { error: string }).error, status: error.status };
      }
      throw error;
    }
    throw new Error("expected an OAuth error response");
  }

  /** A raw API request with a bearer token (for answers the contract-checking client should not judge). */
  function api(path: string, token: string, init: RequestInit = {}): Promise<Response> {
    return fetch(server.url + path, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  }

  describe("metadata (RFC 8414)", () => {
    it("describes the endpoints with the issuer the client expects", async () => {
      expect(as).toMatchObject({
        issuer: server.url,
        authorization_endpoint: `${server.url}/oauth/authorize`,
        token_endpoint: `${server.url}/oauth/token`,
        revocation_endpoint: `${server.url}/oauth/revoke`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
        revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
        code_challenge_methods_supported: ["S256"],
      });
      expect(as.scopes_supported).toContain("projects:read");
      expect(as.scopes_supported).toContain("*");
      const response = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
      expect(response.headers.get("x-request-id")).toMatch(/^req_/);
      expect(await responseErrors("getAuthorizationServerMetadata", 200, await response.json())).toEqual([]);
    });
  });

  describe("browser applications on another origin (CORS)", () => {
    const origin = "https://app.example";
    const preflight = (path: string, method = "POST") =>
      fetch(server.url + path, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": method,
          "Access-Control-Request-Headers": "content-type,authorization",
        },
      });
    const post = (path: string, body: Record<string, string>) =>
      fetch(server.url + path, {
        method: "POST",
        headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      });
    const listed = (value: string | null) => (value ?? "").toLowerCase().split(/\s*,\s*/);

    it("answers preflights of the token, revocation and metadata endpoints", async () => {
      for (const [path, method] of [
        ["/oauth/token", "POST"],
        ["/oauth/revoke", "POST"],
        ["/.well-known/oauth-authorization-server", "GET"],
      ] as const) {
        const response = await preflight(path, method);
        expect(response.status, path).toBe(204);
        expect(response.headers.get("access-control-allow-origin"), path).toBe("*");
        expect(listed(response.headers.get("access-control-allow-methods")), path).toContain(method.toLowerCase());
        expect(listed(response.headers.get("access-control-allow-headers")), path).toEqual(
          expect.arrayContaining(["content-type", "authorization"]),
        );
        expect(Number(response.headers.get("access-control-max-age")), path).toBeGreaterThan(0);
        expect(response.headers.get("access-control-allow-credentials"), path).toBeNull();
      }
    });

    it("lets the page read every answer of those endpoints, errors included", async () => {
      const tokens = await tokensFor();
      const answers = {
        metadata: await fetch(`${server.url}/.well-known/oauth-authorization-server`, { headers: { Origin: origin } }),
        refreshed: await post("/oauth/token", {
          grant_type: "refresh_token",
          refresh_token: tokens.refresh_token!,
          client_id: confidential.id,
          client_secret: confidential.secret,
        }),
        badGrant: await post("/oauth/token", {
          grant_type: "authorization_code",
          code: "pbo_ac_unknown",
          redirect_uri: confidential.redirectUri,
          client_id: confidential.id,
          client_secret: confidential.secret,
        }),
        badClient: await post("/oauth/token", {
          grant_type: "refresh_token",
          refresh_token: "pbo_rt_x",
          client_id: confidential.id,
          client_secret: "pbs_cs_wrong",
        }),
        wrongMethod: await fetch(`${server.url}/oauth/token`, { headers: { Origin: origin } }),
        revoked: await post("/oauth/revoke", {
          token: tokens.access_token,
          client_id: confidential.id,
          client_secret: confidential.secret,
        }),
        revokeRefused: await post("/oauth/revoke", { token: tokens.access_token }),
      };
      expect(Object.fromEntries(Object.entries(answers).map(([name, response]) => [name, response.status]))).toEqual({
        metadata: 200,
        refreshed: 200,
        badGrant: 400,
        badClient: 401,
        wrongMethod: 405,
        revoked: 200,
        revokeRefused: 401,
      });
      for (const [name, response] of Object.entries(answers)) {
        expect(response.headers.get("access-control-allow-origin"), name).toBe("*");
        expect(response.headers.get("access-control-allow-credentials"), name).toBeNull();
      }
      // What a client reads beyond the safelisted headers: the challenge of invalid_client.
      expect(listed(answers.badClient.headers.get("access-control-expose-headers"))).toContain("www-authenticate");
    });

    it("leaves the authorization endpoint and the console to their own origin", async () => {
      const started = await authorizationRequest();
      for (const path of ["/oauth/authorize", "/settings", "/settings/sign-in"]) {
        const response = await preflight(path);
        expect(response.status, path).not.toBe(204);
        expect(response.headers.get("access-control-allow-origin"), path).toBeNull();
        expect(response.headers.get("access-control-allow-methods"), path).toBeNull();
      }
      const page = await fetch(started.url, { headers: { Origin: origin }, redirect: "manual" });
      expect(page.headers.get("access-control-allow-origin")).toBeNull();
    });
  });

  describe("authorization code flow with PKCE", () => {
    it("signs in, consents, exchanges the code and calls the API within the token's scopes", async () => {
      const started = await authorizationRequest({ scope: "projects:read+projects:write" });
      // Not signed in: to the console's sign-in page, which comes back here.
      const anonymous = new CookieBrowser(server.url);
      const first = await anonymous.fetch(started.url.pathname + started.url.search);
      expect(first.status).toBe(302);
      const signInUrl = location(first);
      expect(signInUrl.pathname).toBe("/settings/sign-in");
      expect(signInUrl.searchParams.get("next")).toBe(started.url.pathname + started.url.search);
      const form = await anonymous.fetch(signInUrl.pathname + signInUrl.search);
      const signIn = await anonymous.post("/settings/sign-in", {
        ...Object.fromEntries(formFields(await form.text())),
        email: "olivia@acme.example",
        password: PASSWORD,
      });
      expect(signIn.status).toBe(303);
      const back = location(signIn);
      expect(back.pathname + back.search).toBe(started.url.pathname + started.url.search);

      // The consent page: the application, the workspace, the scopes in words; its CSP lets the form end at the client.
      const page = await anonymous.fetch(back.pathname + back.search);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.headers.get("content-security-policy")).toContain(`form-action 'self' ${server.url}`);
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      const html = await page.text();
      expect(html).toContain(`<h1>Allow Acme Integrations to access ${acme.name}?</h1>`);
      expect(html).toContain("See your projects and their agent runs");
      expect(html).toContain("Create, change and delete projects");
      expect(html).not.toContain("Deploy projects");

      const answer = await anonymous.post("/oauth/authorize", [...formFields(html, "allow"), ["decision", "allow"]]);
      expect(answer.status).toBe(303);
      const callback = location(answer);
      expect(callback.origin + callback.pathname).toBe(confidential.redirectUri);
      expect(callback.searchParams.get("state")).toBe(started.state);
      expect(callback.searchParams.get("iss")).toBe(server.url);
      expect(callback.searchParams.get("code")).toMatch(/^pbo_ac_/);

      const tokens = await exchange(started, callback);
      expect(tokens.token_type).toBe("bearer");
      expect(tokens.access_token.startsWith(ACCESS_TOKEN_PREFIX)).toBe(true);
      expect(tokens.refresh_token?.startsWith("pbo_rt_")).toBe(true);
      expect(tokens.expires_in).toBe(3600);
      expect(tokens.scope?.split(" ").sort()).toEqual(["projects:read", "projects:write"]);

      const client = server.as(tokens.access_token);
      expect((await client.get("/v1/projects")).status).toBe(200);
      const outside = await client.get("/v1/webhooks");
      expectStatus(outside, 401);
      expect(outside.body.error.code).toBe("insufficient_scope");

      // Only hashes are stored.
      const stored = await server.storage.db.select().from(oauthTokens);
      expect(JSON.stringify(stored)).not.toContain(tokens.access_token);
      expect(JSON.stringify(stored)).not.toContain(tokens.refresh_token!);

      // The consent is in the workspace's audit log.
      const [authorized] = await server.storage.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "oauth_app.authorized"), eq(auditLog.target, confidential.id)));
      expect(authorized).toMatchObject({ workspaceId: acme.id, path: "/oauth/authorize", status: 303 });
    });

    it("answers the token request with no-store caching, as a form and as JSON, with body or Basic client authentication", async () => {
      const started = await authorizationRequest();
      const callback = await consent(started);
      const code = callback.searchParams.get("code")!;
      const json = await fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          grant_type: "authorization_code",
          code,
          client_id: confidential.id,
          client_secret: confidential.secret,
          redirect_uri: confidential.redirectUri,
          code_verifier: started.verifier,
        }),
      });
      expect(json.status).toBe(200);
      expect(json.headers.get("cache-control")).toBe("no-store");
      expect(json.headers.get("pragma")).toBe("no-cache");
      const body = (await json.json()) as Record<string, unknown>;
      expect(await responseErrors("requestToken", 200, body)).toEqual([]);
      expect(body).toEqual({
        access_token: expect.stringMatching(/^pbo_at_/),
        token_type: "Bearer",
        expires_in: 3600,
        scope: "projects:read projects:write",
        refresh_token: expect.stringMatching(/^pbo_rt_/),
      });

      // A refresh with HTTP Basic (oauth4webapi form-urlencodes the credentials).
      const refreshed = await refresh(body.refresh_token as string, oauth.ClientSecretBasic(confidential.secret));
      expect(refreshed.access_token).toMatch(/^pbo_at_/);

      // A wrong secret over Basic: 401 with a challenge; in the body: 401 too.
      const wrongBasic = await fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Authorization: `Basic ${btoa(`${confidential.id}:pbs_cs_wrong`)}`,
        },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshed.refresh_token! }).toString(),
      });
      expect(wrongBasic.status).toBe(401);
      expect(wrongBasic.headers.get("www-authenticate")).toMatch(/^Basic /);
      expect(await wrongBasic.json()).toMatchObject({ error: "invalid_client" });
      const wrongBody = await oauthError(refresh(refreshed.refresh_token!, oauth.ClientSecretPost("pbs_cs_wrong")));
      expect(wrongBody).toEqual({ error: "invalid_client", status: 401 });
      // The refresh token survived the failed attempts.
      expect((await refresh(refreshed.refresh_token!)).access_token).toMatch(/^pbo_at_/);
    });

    it("answers RFC 6749 §5.2 errors for malformed token requests", async () => {
      const post = (body: string, type = "application/x-www-form-urlencoded") =>
        fetch(`${server.url}/oauth/token`, { method: "POST", headers: { "Content-Type": type }, body });
      const auth = `client_id=${confidential.id}&client_secret=${confidential.secret}`;
      const cases: [Response, number, string][] = [
        [await post(`grant_type=password&username=a&password=b&${auth}`), 400, "unsupported_grant_type"],
        [await post(`grant_type=client_credentials&${auth}`), 400, "unsupported_grant_type"],
        [await post(`${auth}`), 400, "invalid_request"],
        [await post(`grant_type=authorization_code&code=nope&${auth}`), 400, "invalid_grant"],
        [await post(`grant_type=refresh_token&refresh_token=pbo_rt_nope&${auth}`), 400, "invalid_grant"],
        [await post(`grant_type=authorization_code&code=a&code=b&${auth}`), 400, "invalid_request"],
        [await post("grant_type=authorization_code&code=x", "text/plain"), 400, "invalid_request"],
        [await post("{not json", "application/json"), 400, "invalid_request"],
        [
          await post(`grant_type=authorization_code&code=x&client_id=pbc_unknown12345&client_secret=x`),
          401,
          "invalid_client",
        ],
      ];
      for (const [response, status, error] of cases) {
        expect(response.status, error).toBe(status);
        expect(response.headers.get("content-type")).toBe("application/json");
        const body = (await response.json()) as { error: string; error_description?: string };
        expect(body.error).toBe(error);
        expect(await responseErrors("requestToken", status, body)).toEqual([]);
        if (status === 401) expect(response.headers.get("www-authenticate")).toBe('Basic realm="oauth"');
      }
    });

    it("refuses a client id the database could not hold (NUL, a lone surrogate) as an unknown client, not a 500", async () => {
      const basic = (id: string) => `Basic ${Buffer.from(`${id}:secret`).toString("base64")}`;
      for (const id of ["%00", "pbc_%00abcdefgh", "%ED%A0%80"]) {
        const response = await fetch(`${server.url}/oauth/token`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(id) },
          body: "grant_type=authorization_code&code=x",
        });
        expect([400, 401], id).toContain(response.status);
        expect(["invalid_request", "invalid_client"]).toContain(((await response.json()) as { error: string }).error);
        const page = await fetch(
          `${server.url}/oauth/authorize?response_type=code&client_id=${id}&redirect_uri=https%3A%2F%2Fexample.com%2Fcb`,
        );
        expect(page.status, id).toBe(400);
      }
      // The refusals are audited, the unstorable characters replaced.
      const refused = await server.storage.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "oauth_authorize.refused"), eq(auditLog.target, "pbc_\ufffdabcdefgh")));
      expect(refused).toHaveLength(1);
    });

    it("discards the rest of a body it refused before its end, and serves the next request on the connection", async () => {
      const { Agent, request } = await import("node:http");
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const post = (body: string) =>
        new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
          const outgoing = request(
            {
              host: "127.0.0.1",
              port: new URL(server.url).port,
              method: "POST",
              path: "/oauth/token",
              headers: { "Content-Type": "application/json" },
              agent,
            },
            (response) => {
              response.resume();
              response.on("end", () => resolve({ status: response.statusCode!, reused: outgoing.reusedSocket }));
            },
          );
          outgoing.on("error", reject);
          outgoing.end(body);
        });
      try {
        expect(await post(`{"grant_type": "${"x".repeat(256 * 1024)}"}`)).toEqual({ status: 400, reused: false });
        // Served on the same connection (and refused for its own reason: no client).
        expect(await post(`{"grant_type": "password"}`)).toEqual({ status: 401, reused: true });
      } finally {
        agent.destroy();
      }
    });

    it("refuses a reused code and revokes the tokens it issued", async () => {
      const started = await authorizationRequest();
      const callback = await consent(started);
      const tokens = await exchange(started, callback);
      expect((await api("/v1/projects", tokens.access_token)).status).toBe(200);
      expect(await oauthError(exchange(started, callback))).toEqual({ error: "invalid_grant", status: 400 });
      const refused = await api("/v1/projects", tokens.access_token);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
      expect(await oauthError(refresh(tokens.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });
    });

    it("refuses a wrong code verifier, which burns the code", async () => {
      const started = await authorizationRequest();
      const callback = await consent(started);
      expect(await oauthError(exchange(started, callback, { verifier: oauth.generateRandomCodeVerifier() }))).toEqual({
        error: "invalid_grant",
        status: 400,
      });
      expect(await oauthError(exchange(started, callback))).toEqual({ error: "invalid_grant", status: 400 });
    });

    it("refuses a redirect URI that differs from the authorization request's", async () => {
      const started = await authorizationRequest();
      const callback = await consent(started);
      expect(
        await oauthError(exchange(started, callback, { redirectUri: "https://integrations.example/cb?tenant=7" })),
      ).toEqual({
        error: "invalid_grant",
        status: 400,
      });
    });

    it("refuses an expired code", async () => {
      const started = await authorizationRequest();
      const callback = await consent(started);
      const code = callback.searchParams.get("code")!;
      await server.storage.db
        .update(oauthCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(oauthCodes.codeHash, hashOAuthSecret(code)));
      expect(await oauthError(exchange(started, callback))).toEqual({ error: "invalid_grant", status: 400 });
    });

    it("refuses a code issued to another client", async () => {
      const started = await authorizationRequest();
      const callback = await consent(started);
      const other = await createOAuthClient(server.storage.db, {
        name: "Other",
        redirectUris: [confidential.redirectUri],
      });
      const client: oauth.Client = { client_id: other.client.id };
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.ClientSecretPost(other.secret!),
        oauth.validateAuthResponse(as, client, callback, started.state),
        confidential.redirectUri,
        started.verifier,
        insecure,
      );
      expect(await oauthError(oauth.processAuthorizationCodeResponse(as, client, response))).toEqual({
        error: "invalid_grant",
        status: 400,
      });
    });

    it("lets only one of two simultaneous exchanges of a code succeed", async () => {
      const started = await authorizationRequest();
      const callback = await consent(started);
      const outcomes = await Promise.allSettled([exchange(started, callback), exchange(started, callback)]);
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled").length).toBeLessThanOrEqual(1);
      expect(outcomes.some((outcome) => outcome.status === "rejected")).toBe(true);
    });
  });

  describe("refresh tokens", () => {
    it("rotate on use; a reused refresh token revokes the whole family", async () => {
      const first = await tokensFor();
      const second = await refresh(first.refresh_token!);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.scope?.split(" ").sort()).toEqual(["projects:read", "projects:write"]);
      expect((await api("/v1/projects", second.access_token)).status).toBe(200);
      // A refresh may ask for fewer scopes, never more.
      const narrowed = await refresh(second.refresh_token!, undefined, undefined);
      expect((await api("/v1/projects", narrowed.access_token)).status).toBe(200);
      const narrowClient: oauth.Client = { client_id: confidential.id };
      const fewer = await oauth.processRefreshTokenResponse(
        as,
        narrowClient,
        await oauth.refreshTokenGrantRequest(
          as,
          narrowClient,
          oauth.ClientSecretPost(confidential.secret),
          narrowed.refresh_token!,
          {
            ...insecure,
            additionalParameters: { scope: "projects:read" },
          },
        ),
      );
      expect(fewer.scope).toBe("projects:read");
      const fewerRefused = await api("/v1/projects", fewer.access_token, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      expect(fewerRefused.status).toBe(401);
      const wider = await oauth.refreshTokenGrantRequest(
        as,
        narrowClient,
        oauth.ClientSecretPost(confidential.secret),
        fewer.refresh_token!,
        {
          ...insecure,
          additionalParameters: { scope: "projects:read webhooks:read" },
        },
      );
      expect(await oauthError(oauth.processRefreshTokenResponse(as, narrowClient, wider))).toEqual({
        error: "invalid_scope",
        status: 400,
      });
      // A narrowed refresh does not narrow the next one: the grant's scopes stay available.
      const full = await refresh(fewer.refresh_token!);
      expect(full.scope?.split(" ").sort()).toEqual(["projects:read", "projects:write"]);

      // Replaying an old refresh token: refused, and every token of the grant with it.
      expect(await oauthError(refresh(first.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });
      expect((await api("/v1/projects", full.access_token)).status).toBe(401);
      expect(await oauthError(refresh(full.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });
    });

    it("lets only one of two simultaneous refreshes succeed", async () => {
      const tokens = await tokensFor();
      const outcomes = await Promise.allSettled([refresh(tokens.refresh_token!), refresh(tokens.refresh_token!)]);
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled").length).toBeLessThanOrEqual(1);
    });

    it("stay usable when the new tokens of a rotation cannot be stored: the rotation is one transaction", async () => {
      const tokens = await tokensFor();
      const db = server.storage.db;
      await db.execute(sql`create function refuse_new_tokens() returns trigger language plpgsql as $$
        begin raise exception 'the new tokens could not be stored'; end $$`);
      await db.execute(
        sql`create trigger refuse_new_tokens before insert on oauth_tokens for each row execute function refuse_new_tokens()`,
      );
      try {
        const failed = await fetch(`${server.url}/oauth/token`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: tokens.refresh_token!,
            client_id: confidential.id,
            client_secret: confidential.secret,
          }),
        });
        expect(failed.status).toBe(500);
      } finally {
        await db.execute(sql`drop trigger refuse_new_tokens on oauth_tokens`);
        await db.execute(sql`drop function refuse_new_tokens()`);
      }
      // Not used up, so not a replay: the retry rotates it, and the grant lives on.
      const next = await refresh(tokens.refresh_token!);
      expect((await api("/v1/projects", next.access_token)).status).toBe(200);
      expect((await api("/v1/projects", tokens.access_token)).status).toBe(200);
    });

    it("are refused as bearer credentials for the API", async () => {
      const tokens = await tokensFor();
      expect((await api("/v1/projects", tokens.refresh_token!)).status).toBe(401);
    });
  });

  describe("revocation (RFC 7009)", () => {
    it("revokes the grant of an access token at once, and answers 200 for unknown tokens", async () => {
      const tokens = await tokensFor();
      const client: oauth.Client = { client_id: confidential.id };
      const revoke = (token: string, auth = oauth.ClientSecretBasic(confidential.secret)) =>
        oauth
          .revocationRequest(as, client, auth, token, insecure)
          .then((response) => oauth.processRevocationResponse(response));
      await revoke(tokens.access_token);
      expect((await api("/v1/projects", tokens.access_token)).status).toBe(401);
      expect(await oauthError(refresh(tokens.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });
      await revoke(tokens.access_token); // again: still 200
      await revoke("pbo_at_unknown");
      const wrong = await oauth.revocationRequest(
        as,
        client,
        oauth.ClientSecretPost("pbs_cs_wrong"),
        "pbo_at_unknown",
        insecure,
      );
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get("www-authenticate")).toMatch(/^Basic /);
    });

    it("revokes through a refresh token, as JSON too; another client's token is left alone", async () => {
      const tokens = await tokensFor();
      const other = await createOAuthClient(server.storage.db, {
        name: "Someone else",
        redirectUris: ["https://else.example/cb"],
      });
      const foreign = await fetch(`${server.url}/oauth/revoke`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: tokens.refresh_token, client_id: other.client.id, client_secret: other.secret }),
      });
      expect(foreign.status).toBe(200);
      expect((await api("/v1/projects", tokens.access_token)).status).toBe(200);
      const own = await fetch(`${server.url}/oauth/revoke`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          token: tokens.refresh_token,
          token_type_hint: "refresh_token",
          client_id: confidential.id,
          client_secret: confidential.secret,
        }),
      });
      expect(own.status).toBe(200);
      expect(await own.text()).toBe("");
      expect((await api("/v1/projects", tokens.access_token)).status).toBe(401);
    });
  });

  describe("the authorization request", () => {
    it("shows an error page, never a redirect, for an unknown client or an unregistered redirect URI", async () => {
      const browser = await signedIn("olivia@acme.example");
      const attempts = [
        { clientId: "pbc_unknown000000000000000" },
        { redirectUri: "https://evil.example/callback" },
        { redirectUri: `${confidential.redirectUri}/../../evil` },
        { redirectUri: `${confidential.redirectUri}?next=https://evil.example` },
        { redirectUri: `${confidential.redirectUri}#fragment` },
        { redirectUri: confidential.redirectUri.replace("127.0.0.1", "127.0.0.1.evil.example") },
        { redirectUri: confidential.redirectUri.toUpperCase() },
        { redirectUri: "//evil.example/callback" },
        { redirectUri: "javascript:alert(1)" },
        { redirectUri: "https://integrations.example/cb" }, // registered with ?tenant=7: not exactly
        { redirectUri: "" },
      ];
      for (const attempt of attempts) {
        const started = await authorizationRequest(attempt);
        for (const client of [browser, new CookieBrowser(server.url)]) {
          const response = await client.fetch(started.url.pathname + started.url.search);
          expect(response.status, JSON.stringify(attempt)).toBe(400);
          expect(response.headers.get("location")).toBeNull();
          expect(response.headers.get("content-type")).toMatch(/^text\/html/);
          expect(await response.text()).toContain("<h1>This authorization request cannot be used</h1>");
        }
      }
      // A repeated redirect_uri is no better.
      const started = await authorizationRequest();
      started.url.searchParams.append("redirect_uri", "https://evil.example/callback");
      const repeated = await browser.fetch(started.url.pathname + started.url.search);
      expect(repeated.status).toBe(400);
      expect(repeated.headers.get("location")).toBeNull();
      const refused = await server.storage.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "oauth_authorize.refused"), eq(auditLog.target, "pbc_unknown000000000000000")));
      expect(refused).toContainEqual(expect.objectContaining({ method: "GET", status: 400, actor: "anonymous" }));
    });

    it("redirects other errors to the client with state, keeping the registered URI's query", async () => {
      const browser = await signedIn("olivia@acme.example");
      const cases: [Partial<Parameters<typeof authorizationRequest>[0]>, (url: URL) => void, string][] = [
        [{ scope: "projects:read nonsense" }, () => {}, "invalid_scope"],
        [{ scope: "" }, () => {}, "invalid_scope"],
        [{}, (url) => url.searchParams.set("response_type", "token"), "unsupported_response_type"],
        [{}, (url) => url.searchParams.delete("response_type"), "invalid_request"],
        [{}, (url) => url.searchParams.set("code_challenge_method", "plain"), "invalid_request"],
        [{}, (url) => url.searchParams.set("code_challenge", "short"), "invalid_request"],
        [
          { clientId: publicClient.id, redirectUri: publicClient.redirectUri, pkce: false },
          () => {},
          "invalid_request",
        ],
        [
          { redirectUri: "https://integrations.example/cb?tenant=7" },
          (url) => url.searchParams.set("scope", "*:*"),
          "invalid_scope",
        ],
      ];
      for (const [options, change, error] of cases) {
        const started = await authorizationRequest(options);
        change(started.url);
        const response = await browser.fetch(started.url.pathname + started.url.search);
        expect(response.status, error).toBe(302);
        const target = location(response);
        expect(target.searchParams.get("error")).toBe(error);
        expect(target.searchParams.get("state")).toBe(started.state);
        expect(target.searchParams.get("code")).toBeNull();
        if (options?.redirectUri?.includes("tenant")) expect(target.searchParams.get("tenant")).toBe("7");
      }
    });

    it("redirects a denial with access_denied and state", async () => {
      const started = await authorizationRequest();
      const callback = await consent(started, { decision: "deny" });
      expect(callback.origin + callback.pathname).toBe(confidential.redirectUri);
      expect(callback.searchParams.get("error")).toBe("access_denied");
      expect(callback.searchParams.get("state")).toBe(started.state);
      expect(callback.searchParams.get("code")).toBeNull();
      const client: oauth.Client = { client_id: confidential.id };
      expect(() => oauth.validateAuthResponse(as, client, callback, started.state)).toThrow(
        oauth.AuthorizationResponseError,
      );
    });

    it("refuses a consent post without its CSRF token, or re-checks a tampered one", async () => {
      const browser = await signedIn("olivia@acme.example");
      const started = await authorizationRequest();
      const page = await browser.fetch(started.url.pathname + started.url.search);
      const fields = formFields(await page.text(), "allow");
      const withoutToken = await browser.post("/oauth/authorize", [
        ...fields.filter(([name]) => name !== "csrf_token"),
        ["decision", "allow"],
      ]);
      expect(withoutToken.status).toBe(400);
      expect(withoutToken.headers.get("location")).toBeNull();
      const crossSite = await browser.post("/oauth/authorize", [...fields, ["decision", "allow"]], {
        Origin: "https://evil.example",
      });
      expect(crossSite.status).toBe(400);
      expect(crossSite.headers.get("location")).toBeNull();
      // The posted request is checked again: a redirect URI swapped in the form is an error page.
      const swapped = fields.map(([name, value]): [string, string] => [
        name,
        name === "redirect_uri" ? "https://evil.example/cb" : value,
      ]);
      const tampered = await browser.post("/oauth/authorize", [...swapped, ["decision", "allow"]]);
      expect(tampered.status).toBe(400);
      expect(tampered.headers.get("location")).toBeNull();
      // A workspace the member does not belong to.
      const foreign = fields.map(([name, value]): [string, string] => [name, name === "workspace" ? "globex" : value]);
      const notMember = await browser.post("/oauth/authorize", [...foreign, ["decision", "allow"]]);
      expect(notMember.status).toBe(400);
      expect(notMember.headers.get("location")).toBeNull();
      // Each refusal is in the audit log (nobody's workspace yet), with who tried, and nothing was granted.
      const olivia = (await findUserByEmail(server.storage.db, "olivia@acme.example"))!;
      const refusals = await server.storage.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "oauth_authorize.refused"), eq(auditLog.actor, olivia.id)));
      expect(
        refusals.filter((row) => row.method === "POST" && row.status === 400 && row.workspaceId === null).length,
      ).toBeGreaterThanOrEqual(4);
    });

    it("tells a person without a workspace, and one whose role allows none of the scopes, and only lets them go back", async () => {
      const db = server.storage.db;
      await addMember(db, {
        workspaceId: globex.id,
        email: "drifter@acme.example",
        role: "member",
        password: PASSWORD,
      });
      const drifter = await signedIn("drifter@acme.example");
      await db.delete(memberships).where(eq(memberships.userId, (await ownerId("drifter@acme.example"))!));
      const started = await authorizationRequest();
      const page = await drifter.fetch(started.url.pathname + started.url.search);
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain("You are not a member of any workspace");
      expect(text).not.toContain('value="allow"');
      const back = await drifter.post("/oauth/authorize", [...formFields(text, "deny"), ["decision", "deny"]]);
      expect(location(back).searchParams.get("error")).toBe("access_denied");

      const tooMuch = await authorizationRequest({ scope: "webhooks:write billing:read" });
      const member = await signedIn("mo@acme.example");
      const consentText = await (await member.fetch(tooMuch.url.pathname + tooMuch.url.search)).text();
      expect(consentText).toContain("does not allow any of the access");
      expect(consentText).not.toContain('value="allow"');
      // Posting "allow" anyway grants nothing.
      const forced = await member.post("/oauth/authorize", [...formFields(consentText, "deny"), ["decision", "allow"]]);
      expect(forced.status).toBe(303);
      expect(location(forced).searchParams.get("error")).toBe("invalid_scope");
      expect(location(forced).searchParams.get("code")).toBeNull();
    });

    it("sends a person whose session ended to sign in again, then back to the request", async () => {
      const browser = new CookieBrowser(server.url);
      const started = await authorizationRequest();
      const signIn = await browser.fetch(
        `/settings/sign-in?next=${encodeURIComponent(started.url.pathname + started.url.search)}`,
      );
      const fields = Object.fromEntries(formFields(await signIn.text()));
      await browser.post("/settings/sign-in", { ...fields, email: "olivia@acme.example", password: PASSWORD });
      const page = await (await browser.fetch(started.url.pathname + started.url.search)).text();
      browser.cookies.delete("pb_session");
      const answer = await browser.post("/oauth/authorize", [...formFields(page, "allow"), ["decision", "allow"]]);
      expect(answer.status).toBe(303);
      const target = location(answer);
      expect(target.pathname).toBe("/settings/sign-in");
      const next = new URL(target.searchParams.get("next")!, server.url);
      expect(next.pathname).toBe("/oauth/authorize");
      expect(next.searchParams.get("state")).toBe(started.state);
      expect(next.searchParams.get("client_id")).toBe(confidential.id);
    });

    it("lets a public client complete the flow with PKCE and no secret, and refresh with its client_id", async () => {
      const started = await authorizationRequest({
        clientId: publicClient.id,
        redirectUri: publicClient.redirectUri,
        scope: "projects:read",
      });
      const callback = await consent(started);
      expect(callback.origin + callback.pathname).toBe(publicClient.redirectUri);
      const tokens = await exchange(started, callback, {
        clientAuth: oauth.None(),
        clientId: publicClient.id,
        redirectUri: publicClient.redirectUri,
      });
      expect((await api("/v1/projects", tokens.access_token)).status).toBe(200);
      const refreshed = await refresh(tokens.refresh_token!, oauth.None(), publicClient.id);
      expect((await api("/v1/projects", refreshed.access_token)).status).toBe(200);
      // A public client's code without its verifier is refused.
      const again = await authorizationRequest({
        clientId: publicClient.id,
        redirectUri: publicClient.redirectUri,
        scope: "projects:read",
      });
      const code = (await consent(again)).searchParams.get("code")!;
      const noVerifier = await fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          client_id: publicClient.id,
          redirect_uri: publicClient.redirectUri,
        }).toString(),
      });
      expect(noVerifier.status).toBe(401);
      expect(((await noVerifier.json()) as { error: string }).error).toBe("invalid_client");
    });
  });

  describe("the access token as an API key", () => {
    it("narrows the scopes to what a member's role may grant", async () => {
      const started = await authorizationRequest({ scope: "*" });
      const browser = await signedIn("mo@acme.example");
      const page = await (await browser.fetch(started.url.pathname + started.url.search)).text();
      expect(page).toContain("It asked for, but will not get");
      expect(page).toContain("Create, change and delete webhooks");
      const tokens = await exchange(started, await consent(started, { email: "mo@acme.example" }));
      const granted = tokens.scope!.split(" ");
      expect(granted).not.toContain("webhooks:write");
      expect(granted).not.toContain("*");
      expect(granted).toContain("webhooks:read");
      const client = server.as(tokens.access_token);
      expect((await client.get("/v1/webhooks")).status).toBe(200);
      const write = await client.post("/v1/webhooks", {
        url: "https://hooks.example/x",
        enabled_events: ["project.created"],
      });
      expectStatus(write, 401);
      expect(write.body.error.code).toBe("insufficient_scope");
    });

    it("follows the member's role on every request and is refused once the member is removed", async () => {
      const tokens = await tokensFor({ email: "leaving@acme.example", scope: "projects:read webhooks:write" });
      const db = server.storage.db;
      const member = and(
        eq(memberships.workspaceId, acme.id),
        eq(memberships.userId, (await ownerId("leaving@acme.example"))!),
      );
      expect(
        (
          await api("/v1/webhooks", tokens.access_token, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: "{}",
          })
        ).status,
      ).toBe(400);
      await db.update(memberships).set({ role: "member" }).where(member);
      const demoted = await api("/v1/webhooks", tokens.access_token, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      expect(demoted.status).toBe(401);
      expect(((await demoted.json()) as { error: { code: string } }).error.code).toBe("insufficient_scope");
      expect((await api("/v1/projects", tokens.access_token)).status).toBe(200);
      await db.delete(memberships).where(member);
      const removed = await api("/v1/projects", tokens.access_token);
      expect(removed.status).toBe(401);
      expect(((await removed.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
      expect(await oauthError(refresh(tokens.refresh_token!))).toEqual({ error: "invalid_grant", status: 400 });
    });

    it("reaches only its workspace's live data, and is audited under its application", async () => {
      const testKey = (await createApiKey(server.storage.db, { workspaceId: acme.id, name: "t", environment: "test" }))
        .secret;
      const globexKey = (await createApiKey(server.storage.db, { workspaceId: globex.id, name: "g" })).secret;
      const body = { name: "hidden", prompt: "not for the app" };
      expect((await server.as(testKey).post("/v1/projects", body)).status).toBe(201);
      expect((await server.as(globexKey).post("/v1/projects", body)).status).toBe(201);

      const tokens = await tokensFor();
      const client = server.as(tokens.access_token);
      const created = await client.post("/v1/projects", { name: "from the app", prompt: "build it" });
      expectStatus(created, 201);
      const listed = await client.get("/v1/projects");
      expectStatus(listed, 200);
      expect(listed.body.data.map((project: { name: string }) => project.name)).not.toContain("hidden");
      expect(listed.body.data.map((project: { name: string }) => project.name)).toContain("from the app");
      const live = await server.client.get(`/v1/projects/${created.body.id}`);
      expect(live.status).toBe(200);

      // What the token is, described like a key.
      const described = await client.get("/v1/key");
      expect(described.status).toBe(200);
      const key = described.body as Record<string, unknown>;
      expect(key).toMatchObject({
        oauth_application: { id: confidential.id, name: "Acme Integrations" },
        name: "Acme Integrations",
        environment: "live",
        workspace: { id: acme.id, slug: "acme" },
        display_prefix: tokens.access_token.slice(0, 11),
        last4: tokens.access_token.slice(-4),
      });
      expect(key.id).toMatch(/^grt_/);

      const row = await server.auditRow(listed.headers.get("x-request-id")!);
      expect(row).toMatchObject({ workspaceId: acme.id, clientId: confidential.id, keyId: null, status: 200 });
      // Refused requests are audited under the application too.
      await revokeConnectedApp(server.storage.db, acme.id, confidential.id);
      const refused = await api("/v1/projects", tokens.access_token);
      expect(refused.status).toBe(401);
      expect(await server.auditRow(refused.headers.get("x-request-id")!)).toMatchObject({
        workspaceId: acme.id,
        clientId: confidential.id,
        keyId: null,
      });
    });

    it("acts in the workspace chosen by a member of several", async () => {
      const tokens = await tokensFor({ email: "ada@acme.example", workspace: "globex", scope: "projects:read" });
      const key = (await (await api("/v1/key", tokens.access_token)).json()) as { workspace: { slug: string } };
      expect(key.workspace.slug).toBe("globex");
    });

    it("records last use at most once a minute", async () => {
      const tokens = await tokensFor();
      await api("/v1/projects", tokens.access_token);
      const [grant] = await server.storage.db
        .select()
        .from(oauthGrants)
        .where(eq(oauthGrants.id, await grantOf(tokens.access_token)));
      expect(grant!.lastUsedAt).toBeInstanceOf(Date);
      await api("/v1/projects", tokens.access_token);
      const [again] = await server.storage.db.select().from(oauthGrants).where(eq(oauthGrants.id, grant!.id));
      expect(again!.lastUsedAt!.getTime()).toBe(grant!.lastUsedAt!.getTime());
    });
  });

  describe("connected apps and housekeeping", () => {
    it("lists and revokes the apps of a workspace", async () => {
      const tokens = await tokensFor({ scope: "deployments:read" });
      const apps = await listConnectedApps(server.storage.db, acme.id);
      const app = apps.find((entry) => entry.clientId === confidential.id);
      expect(app).toMatchObject({ clientName: "Acme Integrations", authorizedBy: "olivia@acme.example" });
      expect(app!.scopes).toContain("deployments:read");
      expect(await revokeConnectedApp(server.storage.db, acme.id, confidential.id)).toBeGreaterThan(0);
      expect((await api("/v1/projects", tokens.access_token)).status).toBe(401);
      expect(
        (await listConnectedApps(server.storage.db, acme.id)).some((entry) => entry.clientId === confidential.id),
      ).toBe(false);
      expect(await revokeConnectedApp(server.storage.db, acme.id, confidential.id)).toBe(0);
    });

    it("purges codes and tokens a day after they expired", async () => {
      await tokensFor();
      const db = server.storage.db;
      const before = (await db.select().from(oauthTokens)).length;
      await purgeExpiredOAuth(db, new Date(Date.now() + 2 * 3600_000));
      const afterHours = (await db.select().from(oauthTokens)).length;
      expect(afterHours).toBe(before); // access tokens expired an hour ago are kept a day
      await purgeExpiredOAuth(db, new Date(Date.now() + 2 * 24 * 3600_000));
      const rows = await db.select().from(oauthTokens);
      expect(rows.every((row) => row.kind === "refresh")).toBe(true);
      expect((await db.select().from(oauthCodes)).length).toBe(0);
    });
  });

  async function ownerId(email: string): Promise<string | undefined> {
    return (await findUserByEmail(server.storage.db, email))?.id;
  }

  async function grantOf(accessToken: string): Promise<string> {
    const [row] = await server.storage.db
      .select()
      .from(oauthTokens)
      .where(eq(oauthTokens.tokenHash, hashOAuthSecret(accessToken)));
    return row!.grantId;
  }
});
