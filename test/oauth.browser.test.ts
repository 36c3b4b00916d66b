// The authorization pages in a real headless Chromium: a member signs in on the console's page and
// comes back to the consent page; consents (by keyboard) and lands on the application's redirect
// URI — a local server standing in for the application — with code and state; denies and lands
// there with access_denied; chooses among workspaces; an unknown client stays on an error page. The
// strict CSP must let the consent form end on the application's origin (Chromium enforces
// form-action on the redirect), and no page may break it. A browser application — a public client on
// the application's origin — runs the whole flow from its own pages: discovery, PKCE, and the token
// and revocation requests, cross-origin (CORS). Screenshots of each page go to
// test-results/screenshots.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { addMember } from "../src/domain/members.ts";
import { createOAuthClient } from "../src/domain/oauth-clients.ts";
import { openSession } from "../src/domain/sessions.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { describeWithBrowser, launchBrowser, screenshot } from "./support/browser.ts";
import { pgliteDriver } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const PASSWORD = "correct horse battery staple";

/**
 * A browser application's two pages, on the application's origin. /spa/start?server=…&client_id=…
 * discovers the authorization server, makes a PKCE verifier, keeps it in sessionStorage and goes to
 * the authorization endpoint; /spa/callback exchanges the code for tokens (a JSON body: the request
 * is preflighted) and leaves the outcome in `window.exchange`, with `window.revoke(token)` beside it.
 */
const browserApplication: Record<string, string> = {
  "/spa/start": `<!doctype html><title>Browser app</title><h1>Starting</h1><script type="module">
    const base64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    const query = new URLSearchParams(location.search);
    const metadata = await (await fetch(query.get("server") + "/.well-known/oauth-authorization-server")).json();
    const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
    const clientId = query.get("client_id");
    sessionStorage.setItem("oauth", JSON.stringify({ metadata, verifier, clientId }));
    const authorize = new URL(metadata.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: "code", client_id: clientId, redirect_uri: location.origin + "/spa/callback",
      scope: "projects:read", state: "spa-state", code_challenge: challenge, code_challenge_method: "S256",
    }).toString();
    location.assign(authorize);
  </script>`,
  "/spa/callback": `<!doctype html><title>Browser app</title><h1>Exchanging</h1><script type="module">
    const { metadata, verifier, clientId } = JSON.parse(sessionStorage.getItem("oauth"));
    const post = (url, body) => fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    window.revoke = async (token) => (await post(metadata.revocation_endpoint, { token, client_id: clientId })).status;
    try {
      const query = new URLSearchParams(location.search);
      const response = await post(metadata.token_endpoint, {
        grant_type: "authorization_code", code: query.get("code"), redirect_uri: location.origin + location.pathname,
        client_id: clientId, code_verifier: verifier,
      });
      window.exchange = { state: query.get("state"), status: response.status, body: await response.json() };
    } catch (error) {
      window.exchange = { error: String(error) };
    }
    document.querySelector("h1").textContent = "Done";
  </script>`,
};

/** The application's side: records the query of every request to its callback; serves the browser application's pages. */
async function startApplication(): Promise<{
  server: Server;
  origin: string;
  redirectUri: string;
  received: URLSearchParams[];
}> {
  const received: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/callback") received.push(url.searchParams); // not /favicon.ico
    const page =
      browserApplication[url.pathname] ?? "<!doctype html><title>Integration</title><h1>Back at the application</h1>";
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin, redirectUri: `${origin}/callback`, received };
}

describeWithBrowser("OAuth consent in a browser", () => {
  let server: TestServer;
  let application: Awaited<ReturnType<typeof startApplication>>;
  let clientId: string;
  let publicClientId: string;
  const userIds = new Map<string, string>();
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(pgliteDriver);
    application = await startApplication();
    const db = server.storage.db;
    const acme = (await ensureWorkspace(db, { slug: "acme", plan: "pro" })).workspace;
    const globex = (await ensureWorkspace(db, { slug: "globex", name: "Globex Corporation", plan: "team" })).workspace;
    for (const [email, role] of [
      ["olivia@acme.example", "owner"],
      ["mo@acme.example", "member"],
    ] as const) {
      userIds.set(email, (await addMember(db, { workspaceId: acme.id, email, role, password: PASSWORD })).user.id);
    }
    await addMember(db, { workspaceId: globex.id, email: "mo@acme.example", role: "admin" });
    clientId = (await createOAuthClient(db, { name: "Acme Integrations", redirectUris: [application.redirectUri] }))
      .client.id;
    publicClientId = (
      await createOAuthClient(db, {
        name: "Browser App",
        redirectUris: [`${application.origin}/spa/callback`],
        public: true,
      })
    ).client.id;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    application?.server.close();
    await server?.stop();
  });
  beforeEach(async () => {
    await context?.close();
    context = await browser.newContext();
    page = await context.newPage();
    cspViolations.length = 0;
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    application.received.length = 0;
  });
  // No page of any test here may break the Content Security Policy.
  afterEach(() => {
    expect(cspViolations).toEqual([]);
  });

  function authorizeUrl(
    state: string,
    scope = "projects:read deployments:write agents:run",
    client = clientId,
  ): string {
    const url = new URL("/oauth/authorize", server.url);
    url.searchParams.set("client_id", client);
    url.searchParams.set("redirect_uri", application.redirectUri);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", scope);
    url.searchParams.set("state", state);
    return url.href;
  }

  /** Signed in without the sign-in page (its own test is the first below): a session in the cookie. */
  async function withSession(email: string): Promise<void> {
    const token = await openSession(server.storage.db, userIds.get(email)!);
    await context.addCookies([{ name: "pb_session", value: token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
  }

  /** Moves focus with Tab until the named button has it: the page must be usable by keyboard. */
  async function tabTo(name: string): Promise<void> {
    for (let presses = 0; presses < 20; presses++) {
      await page.keyboard.press("Tab");
      if ((await page.evaluate<string | undefined>("document.activeElement?.textContent?.trim()")) === name) return;
    }
    throw new Error(`"${name}" cannot be reached with Tab`);
  }

  /** Answers the consent page by `action` and returns what the application's redirect URI received. */
  async function redirected(action: () => Promise<void>): Promise<URLSearchParams> {
    await Promise.all([page.waitForURL(`${application.redirectUri}?*`), action()]);
    return application.received[0]!;
  }

  /** The redirect carries a code for `state`, and no error. */
  function expectCode(answer: URLSearchParams, state: string): void {
    expect(answer.get("code")).toMatch(/^pbo_ac_/);
    expect(answer.get("state")).toBe(state);
  }

  /** The redirect carries access_denied for `state`, and no code. */
  function expectDenied(answer: URLSearchParams, state: string): void {
    expect(answer.get("error")).toBe("access_denied");
    expect(answer.get("state")).toBe(state);
    expect(answer.get("code")).toBeNull();
  }

  const allow = () => page.getByRole("button", { name: "Allow access" }).click();

  async function heading(): Promise<string | null> {
    return page.getByRole("heading", { level: 1 }).textContent();
  }

  it("sends a signed-out member through the console's sign-in page and back to the consent page", async () => {
    await page.goto(authorizeUrl("state-sign-in-1"));
    expect(new URL(page.url()).pathname).toBe("/settings/sign-in");
    await page.getByLabel("Email address").fill("olivia@acme.example");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForLoadState();
    // A refusal here is the CSRF origin check meeting `Origin: null`, which Chromium sends with
    // posts from a page whose referrer policy is no-referrer.
    await expect.poll(heading).toBe("Allow Acme Integrations to access acme?");
    expect(new URL(page.url()).pathname).toBe("/oauth/authorize");
    expectCode(await redirected(allow), "state-sign-in-1");
  });

  it("consents by keyboard and lands on the redirect URI with code and state", async () => {
    await withSession("olivia@acme.example");
    await page.goto(authorizeUrl("state-allow-1"));
    await expect.poll(heading).toBe("Allow Acme Integrations to access acme?");
    const granted = page.getByRole("region", { name: "If you allow it, Acme Integrations will be able to" });
    await expect
      .poll(() => granted.getByRole("listitem").allTextContents())
      .toEqual([
        "See your projects and their agent runs projects:read",
        "Deploy projects and roll deployments back deployments:write",
        "Start and cancel agent runs, which use your credits agents:run",
      ]);
    await screenshot(page, "oauth-consent");
    await tabTo("Allow access");
    const answer = await redirected(() => page.keyboard.press("Enter"));
    expect(application.received).toHaveLength(1);
    expectCode(answer, "state-allow-1");
    expect(answer.get("iss")).toBe(server.url);
  });

  it("lands on the redirect URI with access_denied when the member denies", async () => {
    await withSession("olivia@acme.example");
    await page.goto(authorizeUrl("state-deny-1"));
    expectDenied(await redirected(() => page.getByRole("button", { name: "Deny" }).click()), "state-deny-1");
  });

  it("lets a member of several workspaces choose one, and shows what their role withholds", async () => {
    await withSession("mo@acme.example");
    await page.goto(authorizeUrl("state-choose-1", "*"));
    await expect.poll(heading).toBe("Choose a workspace for Acme Integrations");
    await screenshot(page, "oauth-chooser");
    await page.getByLabel(/^acme/).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(heading).toBe("Allow Acme Integrations to access acme?");
    const withheld = page.getByRole("region", { name: "It asked for, but will not get" });
    await expect
      .poll(() => withheld.getByRole("listitem").allTextContents())
      .toEqual(["See usage and invoices billing:read", "Create, change and delete webhooks webhooks:write"]);
    await screenshot(page, "oauth-consent-member");
    expectCode(await redirected(allow), "state-choose-1");
  });

  it("cancels from the workspace chooser with access_denied", async () => {
    await withSession("mo@acme.example");
    await page.goto(authorizeUrl("state-cancel-1"));
    await expect.poll(heading).toBe("Choose a workspace for Acme Integrations");
    expectDenied(await redirected(() => page.getByRole("button", { name: "Cancel" }).click()), "state-cancel-1");
  });

  it("lets a browser application on another origin exchange its code with PKCE and revoke its token, from its own page", async () => {
    expect(new URL(application.origin).origin).not.toBe(new URL(server.url).origin);
    await withSession("olivia@acme.example");
    await page.goto(
      `${application.origin}/spa/start?${new URLSearchParams({ server: server.url, client_id: publicClientId }).toString()}`,
    );
    // Its script reads the metadata (cross-origin) before it sends the browser on.
    await page.waitForURL(`${server.url}/oauth/authorize?*`, { timeout: 10_000 });
    await expect.poll(heading).toBe("Allow Browser App to access acme?");
    await Promise.all([page.waitForURL(`${application.origin}/spa/callback?*`), allow()]);
    await page.waitForFunction("window.exchange !== undefined");
    const exchange = await page.evaluate<{
      state?: string;
      status?: number;
      body?: Record<string, string>;
      error?: string;
    }>("window.exchange");
    expect(exchange).toMatchObject({
      state: "spa-state",
      status: 200,
      body: { token_type: "Bearer", scope: "projects:read" },
    });
    const accessToken = exchange.body!.access_token!;
    expect(accessToken).toMatch(/^pbo_at_/);
    expect(exchange.body!.refresh_token).toMatch(/^pbo_rt_/);

    // The API itself answers no CORS: the token is checked from here, as a server of the application would use it.
    const projects = () => fetch(`${server.url}/v1/projects`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect((await projects()).status).toBe(200);
    expect(await page.evaluate(`revoke(${JSON.stringify(accessToken)})`)).toBe(200);
    expect((await projects()).status).toBe(401);
  });

  it("keeps an unknown client on an error page", async () => {
    const response = await page.goto(authorizeUrl("state-error-1", "projects:read", "pbc_unknown000000000000000"));
    expect(response?.status()).toBe(400);
    await expect.poll(heading).toBe("This authorization request cannot be used");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not registered here");
    await screenshot(page, "oauth-error");
    expect(page.url().startsWith(server.url)).toBe(true);
    expect(application.received).toHaveLength(0);
  });
});
