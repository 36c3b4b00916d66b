// The pages (/settings/*, /oauth/*) behind the per-address limit of unauthenticated traffic, over
// HTTP: failures of browsers not signed in counted with the API's, the 429 as an HTML page (the OAuth
// error shape at the token and revocation endpoints) with Retry-After, signed-in people and the
// static documents still served from a refused address, and the refusals past the limit written as
// one audit row per address and window, not one each.
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../src/domain/members.ts";
import { createOAuthClient } from "../src/domain/oauth-clients.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { auditLog } from "../src/storage/schema.ts";
import { CookieBrowser, formFields } from "./support/cookie-browser.ts";
import { pgliteDriver } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const LIMIT = 4;
const WINDOW_SECONDS = 3;
const PASSWORD = "correct horse battery staple";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the pages behind the per-address limit", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(pgliteDriver, {
      unauthenticatedLimit: { limit: LIMIT, windowSeconds: WINDOW_SECONDS },
      trustProxy: { hops: 1 },
    });
    const { workspace } = await ensureWorkspace(server.storage.db, { slug: "acme", plan: "pro" });
    await addMember(server.storage.db, {
      workspaceId: workspace.id,
      email: "owner@example.com",
      role: "owner",
      password: PASSWORD,
    });
  });
  afterAll(() => server?.stop());

  /** A browser whose requests come, as far as the server can tell, from `address`. */
  function browserAt(address: string): CookieBrowser {
    const browser = new CookieBrowser(server.url);
    const fetch = browser.fetch.bind(browser);
    browser.fetch = (path, init = {}) =>
      fetch(path, {
        ...init,
        headers: { ...Object.fromEntries(new Headers(init.headers)), "X-Forwarded-For": address },
      });
    return browser;
  }

  async function rowsFrom(address: string) {
    return server.storage.db.select().from(auditLog).where(eq(auditLog.ip, address));
  }

  function expectRefusalPage(response: Response, text: string): void {
    expect(response.status).toBe(429);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(text).toContain("Too many requests");
  }

  it("refuses a flood of authorization requests for unknown clients: 429 pages, one audit row for the refusals past the limit", async () => {
    const address = "203.0.113.10";
    const browser = browserAt(address);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 40; i++) {
      last = await browser.fetch(`/oauth/authorize?client_id=junk${i}&response_type=code`);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(400));
    expect(statuses.slice(LIMIT)).toEqual(Array(40 - LIMIT).fill(429));
    expectRefusalPage(last!, await last!.text());

    // Each refusal within the limit is a row; the 36 past it are one row, once their window ends.
    await sleep(WINDOW_SECONDS * 1000 + 1200);
    const rows = await rowsFrom(address);
    expect(rows.filter((row) => row.action === "oauth_authorize.refused")).toHaveLength(LIMIT);
    const limited = rows.filter((row) => row.action === "pages.rate_limited");
    expect(limited).toHaveLength(1);
    expect(limited[0]).toMatchObject({
      status: 429,
      count: 40 - LIMIT,
      method: "GET",
      path: "/oauth/authorize",
      workspaceId: null,
      actor: "anonymous",
    });
    expect(rows).toHaveLength(LIMIT + 1);
  });

  it("refuses a flood of sign-ins with a forged CSRF token the same way, and lets the address back in when its window ends", async () => {
    const address = "203.0.113.11";
    const browser = browserAt(address);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = await browser.post("/settings/sign-in", {
        csrf_token: "forged",
        email: "owner@example.com",
        password: "guess",
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(400), ...Array(30 - LIMIT).fill(429)]);
    const refused = await browser.fetch("/settings/sign-in");
    expectRefusalPage(refused, await refused.text());
    await sleep(Number(refused.headers.get("retry-after")) * 1000 + 200);
    expect((await browser.fetch("/settings/sign-in")).status).toBe(200);
    await sleep(1200);
    const rows = await rowsFrom(address);
    expect(rows.filter((row) => row.action === "console.refused")).toHaveLength(LIMIT);
    expect(rows.filter((row) => row.action === "pages.rate_limited").map((row) => row.count)).toEqual([30 - LIMIT + 1]);
  });

  it("counts the API's unauthenticated failures and the pages' together", async () => {
    const address = "203.0.113.12";
    for (let i = 0; i < LIMIT; i++) {
      expect((await server.as(null).get("/v1/projects", { headers: { "X-Forwarded-For": address } })).status).toBe(401);
    }
    expectRefusalPage(await browserAt(address).fetch("/oauth/authorize?client_id=junk"), "Too many requests");
  });

  it("answers the token and revocation endpoints' refusals in the OAuth error shape", async () => {
    const address = "203.0.113.13";
    const browser = browserAt(address);
    for (let i = 0; i < LIMIT; i++) {
      expect(
        (
          await browser.post("/oauth/token", {
            grant_type: "authorization_code",
            code: "x",
            client_id: "pbc_unknown",
            client_secret: "y",
          })
        ).status,
      ).toBe(401);
    }
    for (const path of ["/oauth/token", "/oauth/revoke"]) {
      const refused = await browser.post(path, {
        client_id: "pbc_unknown",
        token: "x",
        grant_type: "refresh_token",
        refresh_token: "x",
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toBe("application/json");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toEqual({
        error: "temporarily_unavailable",
        error_description: expect.stringContaining("Too many requests"),
      });
    }
    // The metadata and the console's assets hold no secret and cost no database work: still served.
    expect((await browser.fetch("/.well-known/oauth-authorization-server")).status).toBe(200);
    const page = await browserAt("203.0.113.99").fetch("/settings/sign-in");
    const stylesheet = /href="(\/settings\/assets\/console\.css[^"]*)"/.exec(await page.text())![1]!;
    expect((await browser.fetch(stylesheet.replaceAll("&amp;", "&"))).status).toBe(200);
  });

  it("still serves a person this server saw signed in, from an address that is refused", async () => {
    const address = "203.0.113.14";
    const person = browserAt(address);
    const form = await person.fetch("/settings/sign-in");
    const fields = Object.fromEntries(formFields(await form.text()));
    const signedIn = await person.post("/settings/sign-in", {
      ...fields,
      email: "owner@example.com",
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(303);
    expect((await person.fetch("/settings/w/acme/keys")).status).toBe(200);

    const intruder = browserAt(address);
    for (let i = 0; i < LIMIT; i++)
      await intruder.post("/settings/sign-in", { csrf_token: "forged", email: "x@example.com", password: "x" });
    expect((await intruder.fetch("/settings/sign-in")).status).toBe(429);
    // A made-up session is refused before it is looked up.
    const forger = browserAt(address);
    forger.cookies.set("pb_session", "made-up-session-value");
    expect((await forger.fetch("/settings/w/acme/keys")).status).toBe(429);
    // The signed-in person goes on, and their mistakes are not counted against the address.
    expect((await person.fetch("/settings/w/acme/keys")).status).toBe(200);
    expect((await person.fetch("/settings/w/acme/no-such-page")).status).toBe(404);
  });

  it("counts a made-up session cookie as a failure even when the page answers", async () => {
    const address = "203.0.113.15";
    for (let i = 0; i < LIMIT; i++) {
      const forger = browserAt(address);
      forger.cookies.set("pb_session", `made-up-${i}`);
      expect((await forger.fetch("/settings/sign-in")).status).toBe(200);
    }
    expect((await browserAt(address).fetch("/settings/sign-in")).status).toBe(429);
  });

  it("does not count what a public client's ordinary use answers", async () => {
    const address = "203.0.113.16";
    await createOAuthClient(server.storage.db, { name: "Public", redirectUris: ["http://127.0.0.1/cb"], public: true });
    for (let i = 0; i < LIMIT * 2; i++) {
      expect((await browserAt(address).fetch("/.well-known/oauth-authorization-server")).status).toBe(200);
      expect((await browserAt(address).fetch("/settings/sign-in")).status).toBe(200);
    }
    const rows = await server.storage.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.ip, address), isNull(auditLog.workspaceId)));
    expect(rows).toHaveLength(0);
  });
});
