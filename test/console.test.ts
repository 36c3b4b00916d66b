// The settings console over HTTP without a browser, on the embedded database: sign-in (a generic 401,
// throttling with a wait in words, no session fixation, no open redirect, sign-out), refusals that
// change nothing but leave a `console.refused` row (forged CSRF, a member calling an admin action, an
// oversize form), keys created and revoked with their audit rows, escaping, the audit log's
// filters, pages and CSV export (with CSV-injection escaping), and the headers every page carries.
import { PGlite } from "@electric-sql/pglite";
import { and, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAdminAction } from "../src/domain/audit-log.ts";
import { createCursorCodec, listBound } from "../src/http/cursor.ts";
import { addMember } from "../src/domain/members.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import {
  apiKeys,
  auditLog,
  memberships,
  users,
  webhookDeliveryAttempts,
  type Workspace,
} from "../src/storage/schema.ts";
import { expectBody } from "./support/api-client.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const PASSWORD = "correct horse battery staple";

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly location: string | null;
}

/** A cookie-keeping client that does not follow redirects: what a browser without JavaScript sends. */
class Visitor {
  readonly cookies = new Map<string, string>();
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  async request(
    method: string,
    path: string,
    options: { form?: Record<string, string | string[]> | string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    let body: string | undefined;
    if (options.form !== undefined) {
      headers["content-type"] ??= "application/x-www-form-urlencoded";
      if (typeof options.form === "string") body = options.form;
      else {
        const params = new URLSearchParams();
        for (const [name, value] of Object.entries(options.form))
          for (const one of [value].flat()) params.append(name, one);
        body = params.toString();
      }
    }
    const response = await fetch(this.base + path, { method, headers, body, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const name = pair!.slice(0, pair!.indexOf("="));
      const value = pair!.slice(pair!.indexOf("=") + 1);
      if (attributes.some((attribute) => attribute.trim().toLowerCase() === "max-age=0")) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: response.headers.get("location"),
    };
  }
  get(path: string) {
    return this.request("GET", path);
  }
  /** Posts the form with the CSRF token of the page at `from` (fetched first). */
  async post(path: string, form: Record<string, string | string[]>, from = path): Promise<Answer> {
    const page = await this.get(from);
    return this.request("POST", path, { form: { csrf_token: csrfOf(page.text), ...form } });
  }
}

function csrfOf(page: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error(`no CSRF token on the page:\n${page.slice(0, 500)}`);
  return token;
}

/** The secret shown once on a page. */
function secretOf(page: string): string | undefined {
  return /id="secret-value"[^>]*value="([^"]+)"/.exec(page)?.[1];
}

function expectPageHeaders(answer: Answer): void {
  const csp = answer.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-inline");
  expect(answer.headers.get("x-frame-options")).toBe("DENY");
  expect(answer.headers.get("cache-control")).toBe("no-store");
}

/** How many statements `work` sends to the database, counted at either driver. */
async function statementsDuring<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  let statements = 0;
  const patched: Array<[Record<string, unknown>, string, unknown]> = [];
  for (const [target, name] of [
    [pg.Client.prototype, "query"],
    [PGlite.prototype, "query"],
    [PGlite.prototype, "exec"],
  ] as const) {
    const methods = target as unknown as Record<string, (...args: unknown[]) => unknown>;
    const original = methods[name]!;
    patched.push([methods, name, original]);
    methods[name] = function (this: unknown, ...args: unknown[]) {
      statements++;
      return original.apply(this, args);
    };
  }
  try {
    return { result: await work(), statements };
  } finally {
    for (const [methods, name, original] of patched) methods[name] = original;
  }
}

onEmbeddedDatabase("settings console", (driver) => {
  let server: TestServer;
  let workspace: Workspace;
  const people = { owner: "owner@example.com", admin: "admin@example.com", member: "member@example.com" } as const;
  const ids: Record<keyof typeof people, string> = { owner: "", admin: "", member: "" };

  beforeAll(async () => {
    server = await startTestServer(driver);
    ({ workspace } = await ensureWorkspace(server.storage.db, { slug: "acme", plan: "pro" }));
    for (const role of ["owner", "admin", "member"] as const) {
      const added = await addMember(server.storage.db, {
        workspaceId: workspace.id,
        email: people[role],
        role,
        password: PASSWORD,
      });
      ids[role] = added.user.id;
    }
  });
  afterAll(() => server?.stop());

  async function signedIn(role: keyof typeof people): Promise<Visitor> {
    const visitor = new Visitor(server.url);
    const answer = await visitor.post(
      "/settings/sign-in",
      { email: people[role], password: PASSWORD },
      "/settings/sign-in",
    );
    expect(answer.status, answer.text).toBe(303);
    return visitor;
  }

  const keysOf = () => server.storage.db.select().from(apiKeys).where(eq(apiKeys.workspaceId, workspace.id));
  const actions = (action: string) => server.storage.db.select().from(auditLog).where(eq(auditLog.action, action));

  describe("sign-in", () => {
    it("answers wrong credentials with one generic message and 401, for a known and an unknown email alike", async () => {
      const visitor = new Visitor(server.url);
      const known = await visitor.post(
        "/settings/sign-in",
        { email: people.owner, password: "not the password at all" },
        "/settings/sign-in",
      );
      const unknown = await visitor.post(
        "/settings/sign-in",
        { email: "nobody@example.com", password: "not the password at all" },
        "/settings/sign-in",
      );
      for (const answer of [known, unknown]) {
        expect(answer.status).toBe(401);
        expect(answer.text).toContain("The email address or password is incorrect.");
        expect(visitor.cookies.has("pb_session")).toBe(false);
      }
    });

    it("throttles an account after repeated failures: 429 with Retry-After and the wait in words", async () => {
      // A person of their own, so the other tests' sign-ins are not blocked.
      await addMember(server.storage.db, {
        workspaceId: workspace.id,
        email: "guessed@example.com",
        role: "member",
        password: PASSWORD,
      });
      const visitor = new Visitor(server.url);
      const statuses: number[] = [];
      let last: Answer | undefined;
      for (let attempt = 0; attempt < 7; attempt++) {
        last = await visitor.post(
          "/settings/sign-in",
          { email: "guessed@example.com", password: `wrong guess ${attempt}` },
          "/settings/sign-in",
        );
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
      expect(statuses[6]).toBe(429);
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(last!.text).toMatch(
        /Too many failed sign-ins\. Wait \d+ (second|seconds|minute|minutes), then try again\./,
      );
      // Even the right password waits.
      const right = await visitor.post(
        "/settings/sign-in",
        { email: "guessed@example.com", password: PASSWORD },
        "/settings/sign-in",
      );
      expect(right.status).toBe(429);
    });

    it("honours `next` only for a path of this console: other sites land on /settings", async () => {
      const offSite = [
        "/settings/..//evil.example/x",
        "/settings/%2e%2e//evil.example/x",
        "/settings/.%2e//evil.example/x",
        "/settings/../\t/evil.example",
      ];
      for (const next of [
        "//evil.example",
        "https://evil.example/settings",
        "/\\evil.example",
        "/settings\\..\\evil",
        "javascript:alert(1)",
        "/v1/projects",
        ...offSite,
      ]) {
        const visitor = new Visitor(server.url);
        const signIn = await visitor.get(`/settings/sign-in?next=${encodeURIComponent(next)}`);
        const answer = await visitor.request("POST", "/settings/sign-in", {
          form: { csrf_token: csrfOf(signIn.text), email: people.owner, password: PASSWORD, next },
        });
        expect(answer.status, next).toBe(303);
        expect(answer.location, next).toBe("/settings");
      }
      const visitor = new Visitor(server.url);
      const answer = await visitor.post(
        "/settings/sign-in",
        { email: people.owner, password: PASSWORD, next: "/settings/w/acme/audit?kind=actions" },
        "/settings/sign-in",
      );
      expect(answer.location).toBe("/settings/w/acme/audit?kind=actions");
      // Signed in, the sign-in page sends the visitor straight on: to this console only.
      for (const next of offSite) {
        const again = await visitor.get(`/settings/sign-in?next=${encodeURIComponent(next)}`);
        expect(again.status, next).toBe(303);
        expect(again.location, next).toBe("/settings");
      }
    });

    it("sends a signed-out visitor to sign-in with the page as `next`, and back there afterwards", async () => {
      const visitor = new Visitor(server.url);
      const page = await visitor.get("/settings/w/acme/members");
      expect(page.status).toBe(303);
      expect(page.location).toBe(`/settings/sign-in?next=${encodeURIComponent("/settings/w/acme/members")}`);
      const form = await visitor.get(page.location!);
      expect(form.text).toContain('name="next" value="/settings/w/acme/members"');
      const answer = await visitor.request("POST", "/settings/sign-in", {
        form: {
          csrf_token: csrfOf(form.text),
          email: people.owner,
          password: PASSWORD,
          next: "/settings/w/acme/members",
        },
      });
      expect(answer.location).toBe("/settings/w/acme/members");
      expect((await visitor.get("/settings")).location).toBe("/settings/w/acme/keys"); // one workspace: straight to it
    });

    it("never keeps a session value the browser brought (no fixation)", async () => {
      const visitor = new Visitor(server.url);
      visitor.cookies.set("pb_session", "planted-by-an-attacker-0123456789abcdefghijklmnop");
      const answer = await visitor.post(
        "/settings/sign-in",
        { email: people.owner, password: PASSWORD },
        "/settings/sign-in",
      );
      expect(answer.status).toBe(303);
      const session = visitor.cookies.get("pb_session");
      expect(session).toBeDefined();
      expect(session).not.toBe("planted-by-an-attacker-0123456789abcdefghijklmnop");
      const cookie = answer.headers.getSetCookie().find((value) => value.startsWith("pb_session="))!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect((await visitor.get("/settings/w/acme/keys")).status).toBe(200);
    });

    it("signs out: the old cookie no longer opens a page", async () => {
      const visitor = await signedIn("owner");
      const cookie = visitor.cookies.get("pb_session")!;
      const out = await visitor.post("/settings/sign-out", {}, "/settings/w/acme/keys");
      expect(out.status).toBe(303);
      expect(out.location).toBe("/settings/sign-in");
      expect(visitor.cookies.has("pb_session")).toBe(false);
      const replay = new Visitor(server.url);
      replay.cookies.set("pb_session", cookie);
      const page = await replay.get("/settings/w/acme/keys");
      expect(page.status).toBe(303);
      expect(page.location).toMatch(/^\/settings\/sign-in\?next=/);
    });

    it("refuses a sign-out without the CSRF token (the session stays)", async () => {
      const visitor = await signedIn("owner");
      const answer = await visitor.request("POST", "/settings/sign-out", { form: {} });
      expect(answer.status).toBe(400);
      expect((await visitor.get("/settings/w/acme/keys")).status).toBe(200);
    });
  });

  describe("refusals change nothing and are audited", () => {
    it("refuses a post with a forged or missing CSRF token: 400, no key, a console.refused row", async () => {
      const visitor = await signedIn("owner");
      const before = (await keysOf()).length;
      const refusedBefore = (await actions("console.refused")).length;
      const forged = await visitor.request("POST", "/settings/w/acme/keys", {
        form: { csrf_token: "forged-token", name: "forged", environment: "live", scopes: "*", expires: "none" },
      });
      const missing = await visitor.request("POST", "/settings/w/acme/keys", {
        form: { name: "missing", environment: "live", scopes: "*", expires: "none" },
      });
      for (const answer of [forged, missing]) {
        expect(answer.status).toBe(400);
        expect(answer.text).toContain("Nothing was changed.");
        expectPageHeaders(answer);
      }
      expect((await keysOf()).length).toBe(before);
      const refused = await actions("console.refused");
      expect(refused.length).toBe(refusedBefore + 2);
      expect(refused.at(-1)).toMatchObject({
        workspaceId: workspace.id,
        actor: ids.owner,
        target: "/settings/w/acme/keys",
        method: "POST",
        status: 400,
        path: "/settings/w/acme/keys",
      });
    });

    it("refuses a post from another origin even with a valid token", async () => {
      const visitor = await signedIn("owner");
      const page = await visitor.get("/settings/w/acme/keys");
      const answer = await visitor.request("POST", "/settings/w/acme/keys", {
        form: { csrf_token: csrfOf(page.text), name: "cross-site", environment: "live", scopes: "*", expires: "none" },
        headers: { origin: "https://evil.example" },
      });
      expect(answer.status).toBe(400);
      // The page says which origin the server expects (PUBLIC_URL): the usual cause is opening the
      // console at another address of the same server.
      expect(answer.text).toContain(`This form was sent from https://evil.example, not from ${server.url}`);
      expect((await keysOf()).some((key) => key.name === "cross-site")).toBe(false);
    });

    it("takes a post from another spelling of loopback at the same port while PUBLIC_URL is unset", async () => {
      // The quick start opens 127.0.0.1, a browser's address bar may say localhost: the same server.
      const visitor = await signedIn("owner");
      const page = await visitor.get("/settings/w/acme/keys");
      const port = new URL(server.url).port;
      const answer = await visitor.request("POST", "/settings/w/acme/keys", {
        form: { csrf_token: csrfOf(page.text), name: "loopback", environment: "live", scopes: "*", expires: "none" },
        headers: { origin: `http://localhost:${port}` },
      });
      expect(answer.status, answer.text).toBeLessThan(400);
      expect((await keysOf()).some((key) => key.name === "loopback")).toBe(true);
      const otherPort = await visitor.request("POST", "/settings/w/acme/keys", {
        form: { csrf_token: csrfOf(page.text), name: "other port", environment: "live", scopes: "*", expires: "none" },
        headers: { origin: `http://localhost:${Number(port) + 1}` },
      });
      expect(otherPort.status).toBe(400);
    });

    it("refuses the sign-in form without its token, as anonymous", async () => {
      const visitor = new Visitor(server.url);
      const answer = await visitor.request("POST", "/settings/sign-in", {
        form: { email: people.owner, password: PASSWORD },
      });
      expect(answer.status).toBe(400);
      expect(visitor.cookies.has("pb_session")).toBe(false);
      expect((await actions("console.refused")).at(-1)).toMatchObject({
        actor: "anonymous",
        workspaceId: null,
        target: "/settings/sign-in",
      });
    });

    it("shows a member the keys but no forms, and answers a member posting creation or revocation directly with 403", async () => {
      const member = await signedIn("member");
      const page = await member.get("/settings/w/acme/keys");
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('action="/settings/w/acme/keys"');
      expect(page.text).toContain("Only owners and admins of the workspace can create or revoke keys.");
      const before = await keysOf();
      const token = csrfOf(page.text);
      const create = await member.request("POST", "/settings/w/acme/keys", {
        form: { csrf_token: token, name: "by a member", environment: "live", scopes: "*", expires: "none" },
      });
      expect(create.status).toBe(403);
      expect(create.text).toContain("Only a workspace owner or admin can create API keys.");
      const victim = before.find((key) => !key.revokedAt)!;
      const revoke = await member.request("POST", `/settings/w/acme/keys/${victim.id}/revoke`, {
        form: { csrf_token: token },
      });
      expect(revoke.status).toBe(403);
      const after = await keysOf();
      expect(after.length).toBe(before.length);
      expect(after.find((key) => key.id === victim.id)!.revokedAt).toBeNull();
      const refused = (await actions("console.refused")).filter((row) => row.actor === ids.member);
      expect(refused.map((row) => [row.target, row.status])).toEqual(
        expect.arrayContaining([
          ["/settings/w/acme/keys", 403],
          [`/settings/w/acme/keys/${victim.id}/revoke`, 403],
        ]),
      );
    });

    it("refuses an oversize field (413) and an oversize body, creating nothing", async () => {
      const visitor = await signedIn("owner");
      const page = await visitor.get("/settings/w/acme/keys");
      const before = (await keysOf()).length;
      const field = await visitor.request("POST", "/settings/w/acme/keys", {
        form: {
          csrf_token: csrfOf(page.text),
          name: "x".repeat(5000),
          environment: "live",
          scopes: "*",
          expires: "none",
        },
      });
      expect(field.status).toBe(413);
      expect(field.text).toContain("longer than 4096 characters");
      const body = await visitor.request("POST", "/settings/w/acme/keys", {
        form: `csrf_token=${csrfOf(page.text)}&name=big&${"scopes=projects%3Aread&".repeat(5000)}`,
      });
      expect(body.status).toBe(413);
      expect((await keysOf()).length).toBe(before);
      expect(
        (await actions("console.refused")).filter((row) => row.status === 413 && row.actor === ids.owner).length,
      ).toBe(2);
    });

    it("refuses a form sent as another media type (415)", async () => {
      const visitor = await signedIn("owner");
      const answer = await visitor.request("POST", "/settings/w/acme/keys", {
        form: '{"name":"json"}',
        headers: { "content-type": "application/json" },
      });
      expect(answer.status).toBe(415);
    });

    it("answers 404 for a workspace the person is not in, or that does not exist", async () => {
      await ensureWorkspace(server.storage.db, { slug: "other", plan: "free" });
      const visitor = await signedIn("owner");
      for (const path of ["/settings/w/other/keys", "/settings/w/nowhere/keys"]) {
        const answer = await visitor.get(path);
        expect(answer.status).toBe(404);
        expectPageHeaders(answer);
      }
      const post = await visitor.post(
        "/settings/w/other/keys",
        { name: "intruder", environment: "live", scopes: "*", expires: "none" },
        "/settings/w/acme/keys",
      );
      expect(post.status).toBe(404);
    });
  });

  describe("API keys", () => {
    it("creates a key whose secret is shown once, works against the API, and is revoked at once; both actions audited", async () => {
      const visitor = await signedIn("owner");
      const created = await visitor.post("/settings/w/acme/keys", {
        name: "CI deploys",
        environment: "live",
        scopes: ["projects:read", "billing:read"],
        expires: "90d",
      });
      expect(created.status).toBe(200);
      expectPageHeaders(created);
      const secret = secretOf(created.text)!;
      expect(secret).toMatch(/^svc_live_[A-Za-z0-9]{46}$/);
      expect(created.text).toContain(`${secret.slice(0, 13)}…${secret.slice(-4)}`);
      const again = await visitor.get("/settings/w/acme/keys");
      expect(again.text).not.toContain(secret);
      expect(secretOf(again.text)).toBeUndefined();

      const [key] = await server.storage.db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.workspaceId, workspace.id), eq(apiKeys.name, "CI deploys")));
      expect(key).toMatchObject({
        createdBy: ids.owner,
        scopes: ["projects:read", "billing:read"],
        environment: "live",
      });
      expect(key!.expiresAt!.getTime() - key!.createdAt.getTime()).toBe(90 * 86_400_000);
      expect((await server.as(secret).get("/v1/key")).status).toBe(200);
      // The list names the creator by email.
      expect(again.text).toMatch(new RegExp(`CI deploys[\\s\\S]*?${people.owner}`));

      const [createdRow] = (await actions("api_key.created")).filter((row) => row.target === key!.id);
      expect(createdRow).toMatchObject({
        workspaceId: workspace.id,
        actor: ids.owner,
        method: "POST",
        path: "/settings/w/acme/keys",
        status: 200,
      });
      expect(createdRow!.requestId).toMatch(/^req_/);
      expect(createdRow!.ip).toBeTruthy();

      const confirm = await visitor.get(`/settings/w/acme/keys/${key!.id}/revoke`);
      expect(confirm.status).toBe(200);
      const revoked = await visitor.request("POST", `/settings/w/acme/keys/${key!.id}/revoke`, {
        form: { csrf_token: csrfOf(confirm.text) },
      });
      expect(revoked.status).toBe(303);
      expect((await server.as(secret).get("/v1/key")).status).toBe(401);
      const list = await visitor.get(revoked.location!);
      expect(list.text).toContain("The key was revoked.");
      expect((await actions("api_key.revoked")).filter((row) => row.target === key!.id)).toHaveLength(1);
    });

    it("lets an admin create a key, and shows the domain's message next to the form for a bad one", async () => {
      const admin = await signedIn("admin");
      const created = await admin.post("/settings/w/acme/keys", {
        name: "admin key",
        environment: "test",
        scopes: "*",
        expires: "30d",
      });
      expect(created.status).toBe(200);
      expect(secretOf(created.text)).toMatch(/^svc_test_/);
      const noScopes = await admin.post("/settings/w/acme/keys", {
        name: "no scopes",
        environment: "live",
        expires: "none",
      });
      expect(noScopes.status).toBe(400);
      expect(noScopes.text).toContain("A key needs at least one scope.");
      expect(noScopes.text).toContain('value="no scopes"'); // the form keeps what was typed
      const badExpiry = await admin.post("/settings/w/acme/keys", {
        name: "forever",
        environment: "live",
        scopes: "*",
        expires: "10y",
      });
      expect(badExpiry.status).toBe(400);
      expect((await keysOf()).some((key) => key.name === "no scopes" || key.name === "forever")).toBe(false);
    });

    it("renders a key name or email holding markup as text", async () => {
      const visitor = await signedIn("owner");
      const created = await visitor.post("/settings/w/acme/keys", {
        name: `<script>alert("k")</script>`,
        environment: "live",
        scopes: "*",
        expires: "none",
      });
      expect(created.status).toBe(200);
      expect(created.text).not.toContain(`<script>alert("k")</script>`);
      expect(created.text).toContain("&lt;script&gt;alert(&quot;k&quot;)&lt;/script&gt;");
      const added = await visitor.post("/settings/w/acme/members", {
        email: `<script>x</script>@example.com`,
        role: "member",
        password: PASSWORD,
      });
      expect(added.status).toBe(303);
      const members = await visitor.get("/settings/w/acme/members");
      expect(members.text).not.toContain("<script>x</script>");
      expect(members.text).toContain("&lt;script&gt;x&lt;/script&gt;@example.com");
    });
  });

  describe("members", () => {
    it("keeps the domain's rules: an admin makes no owner, the last owner stays; changes are audited", async () => {
      const admin = await signedIn("admin");
      const makeOwner = await admin.post(
        `/settings/w/acme/members/${ids.member}/role`,
        { role: "owner" },
        "/settings/w/acme/members",
      );
      expect(makeOwner.status).toBe(403);
      expect(makeOwner.text).toContain("Only an owner can make or change an owner.");
      const addOwner = await admin.post("/settings/w/acme/members", {
        email: "new-owner@example.com",
        role: "owner",
        password: PASSWORD,
      });
      expect(addOwner.status).toBe(403);
      expect(await server.storage.db.select().from(users).where(eq(users.email, "new-owner@example.com"))).toHaveLength(
        0,
      );

      const owner = await signedIn("owner");
      const demoteSelf = await owner.post(
        `/settings/w/acme/members/${ids.owner}/role`,
        { role: "admin" },
        "/settings/w/acme/members",
      );
      expect(demoteSelf.status).toBe(409);
      expect(demoteSelf.text).toContain("A workspace keeps at least one owner");
      const [stillOwner] = await server.storage.db.select().from(memberships).where(eq(memberships.userId, ids.owner));
      expect(stillOwner!.role).toBe("owner");

      const existing = await owner.post("/settings/w/acme/members", { email: people.member, role: "member" });
      expect(existing.status).toBe(409);
      const weak = await owner.post("/settings/w/acme/members", {
        email: "weak@example.com",
        role: "member",
        password: "short",
      });
      expect(weak.status).toBe(400);
      expect(weak.text).toContain("The password must be at least 12 characters.");

      const added = await owner.post("/settings/w/acme/members", {
        email: "temp@example.com",
        role: "member",
        password: PASSWORD,
      });
      expect(added.status).toBe(303);
      const [temp] = await server.storage.db.select().from(users).where(eq(users.email, "temp@example.com"));
      const promoted = await owner.post(
        `/settings/w/acme/members/${temp!.id}/role`,
        { role: "admin" },
        "/settings/w/acme/members",
      );
      expect(promoted.status).toBe(303);
      const removed = await owner.post(
        `/settings/w/acme/members/${temp!.id}/remove`,
        {},
        `/settings/w/acme/members/${temp!.id}/remove`,
      );
      expect(removed.status).toBe(303);
      for (const action of ["member.added", "member.role_changed", "member.removed"]) {
        expect(
          (await actions(action)).some((row) => row.target === temp!.id && row.actor === ids.owner),
          action,
        ).toBe(true);
      }
    });
  });

  describe("audit log", () => {
    /** Rows of a workspace of their own, at known times. */
    async function seedAudit(): Promise<{ workspace: Workspace; visitor: Visitor }> {
      const { workspace: audited } = await ensureWorkspace(server.storage.db, { slug: "audited", plan: "pro" });
      await addMember(server.storage.db, {
        workspaceId: audited.id,
        email: "auditor@example.com",
        role: "admin",
        password: PASSWORD,
      });
      const base = Date.parse("2025-03-01T10:00:00Z");
      const rows = Array.from({ length: 120 }, (_, index) => ({
        occurredAt: new Date(base + index * 60_000),
        workspaceId: audited.id,
        keyId: index % 2 === 0 ? "key_even" : "key_odd",
        method: "GET",
        path: `/v1/projects/${index}`,
        status: index % 10 === 0 ? 404 : index % 15 === 0 ? 500 : 200,
        ip: "203.0.113.7",
        userAgent: index === 7 ? `=HYPERLINK("http://evil.example","click")` : "curl/8",
        requestId: `req_seed${index}`,
        latencyMs: 3,
      }));
      await server.storage.db.insert(auditLog).values(rows);
      await recordAdminAction(server.storage.db, {
        workspaceId: audited.id,
        action: "api_key.revoked",
        actor: "pbs",
        target: "+cmd|' /C calc'!A0",
      });
      const visitor = new Visitor(server.url);
      expect(
        (
          await visitor.post(
            "/settings/sign-in",
            { email: "auditor@example.com", password: PASSWORD },
            "/settings/sign-in",
          )
        ).status,
      ).toBe(303);
      return { workspace: audited, visitor };
    }

    let seeded: { workspace: Workspace; visitor: Visitor };
    beforeAll(async () => {
      seeded = await seedAudit();
    });

    const pathsOn = (page: string) =>
      [...page.matchAll(/<code>GET (\/v1\/projects\/\d+)<\/code>/g)].map((match) => match[1]);

    it("pages newest first with an opaque next link that carries the filters", async () => {
      const first = await seeded.visitor.get("/settings/w/audited/audit?kind=requests");
      expect(first.status).toBe(200);
      expectPageHeaders(first);
      expect(pathsOn(first.text)).toHaveLength(50);
      expect(pathsOn(first.text)[0]).toBe("/v1/projects/119");
      const next = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll("&amp;", "&");
      expect(next).toContain("kind=requests");
      expect(next).not.toMatch(/2025-03-01/); // opaque: not the time in clear
      const second = await seeded.visitor.get(next);
      expect(pathsOn(second.text)[0]).toBe("/v1/projects/69");
      const third = await seeded.visitor.get(
        /href="([^"]+)" rel="next"/.exec(second.text)![1]!.replaceAll("&amp;", "&"),
      );
      expect(pathsOn(third.text)).toHaveLength(20);
      expect(third.text).not.toContain('rel="next"');
      const seen = [...pathsOn(first.text), ...pathsOn(second.text), ...pathsOn(third.text)];
      expect(new Set(seen).size).toBe(120);
    });

    it("answers a tampered or made-up page position with a 400 page, never a 500", async () => {
      const first = await seeded.visitor.get("/settings/w/audited/audit");
      const next = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll("&amp;", "&");
      const after = new URL(next, server.url).searchParams.get("after")!;
      const flipped = after.slice(0, 10) + (after[10] === "A" ? "B" : "A") + after.slice(11);
      for (const value of [flipped, `${after}A`, after.slice(0, -2), "garbage", "a.b.c", "%%%", "A".repeat(600)]) {
        const answer = await seeded.visitor.get(`/settings/w/audited/audit?after=${encodeURIComponent(value)}`);
        expect(answer.status, value).toBe(400);
        expect(answer.text).toContain("This page link is damaged or was changed.");
      }
      // A position from another workspace's log, or from other filters, does not open this one.
      const owner = await signedIn("owner");
      expect((await owner.get(`/settings/w/acme/audit?after=${encodeURIComponent(after)}`)).status).toBe(400);
      expect(
        (await seeded.visitor.get(`/settings/w/audited/audit?kind=actions&after=${encodeURIComponent(after)}`)).status,
      ).toBe(400);
    });

    it("signs page links with the cursor secret, not the CSRF secret", async () => {
      const first = await seeded.visitor.get("/settings/w/audited/audit?kind=requests");
      const after = new URL(
        /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll("&amp;", "&"),
        server.url,
      ).searchParams.get("after")!;
      const bound = listBound({
        list: "console:audit",
        workspaceId: seeded.workspace.id,
        environment: "",
        filters: { kind: "requests" },
      });
      const withCursorSecret = createCursorCodec({ secret: "test-cursor-secret-0123456789" });
      const position = withCursorSecret.decodeOrThrow(after, bound);
      // The same position signed with the CSRF secret is a forgery.
      const forged = createCursorCodec({ secret: "test-csrf-secret-0123456789" }).encode(position, bound);
      expect(
        (await seeded.visitor.get(`/settings/w/audited/audit?kind=requests&after=${encodeURIComponent(forged)}`))
          .status,
      ).toBe(400);
      expect(
        (
          await seeded.visitor.get(
            `/settings/w/audited/audit?kind=requests&after=${encodeURIComponent(withCursorSecret.encode(position, bound))}`,
          )
        ).status,
      ).toBe(200);
    });

    it("filters by credential, exact status, status class, kind and period", async () => {
      const count = async (query: string) => {
        const answer = await seeded.visitor.get(`/settings/w/audited/audit.csv?${query}`);
        expect(answer.status, query).toBe(200);
        return answer.text.trim().split("\r\n").length - 1;
      };
      expect(await count("")).toBe(121);
      expect(await count("kind=requests")).toBe(120);
      expect(await count("kind=actions")).toBe(1);
      expect(await count("credential=key_even")).toBe(60);
      expect(await count("status=404")).toBe(12);
      expect(await count("status=5xx")).toBe(await count("status=500"));
      expect(await count("status=4xx&credential=key_odd")).toBe(0);
      expect(await count(`from=2025-03-01T10:00&to=2025-03-01T10:10`)).toBe(10);
      expect(await count(`from=2025-03-01T11:00:00&kind=requests`)).toBe(60);

      const page = await seeded.visitor.get("/settings/w/audited/audit?status=404&kind=requests");
      expect(pathsOn(page.text)).toEqual([
        "/v1/projects/110",
        "/v1/projects/100",
        "/v1/projects/90",
        "/v1/projects/80",
        "/v1/projects/70",
        "/v1/projects/60",
        "/v1/projects/50",
        "/v1/projects/40",
        "/v1/projects/30",
        "/v1/projects/20",
        "/v1/projects/10",
        "/v1/projects/0",
      ]);
      expect(page.text).toContain('value="404"');
    });

    it("answers unreadable filters with 400 and the message next to the field", async () => {
      for (const [query, text] of [
        ["status=abc", "Enter a status such as 404, or a class such as 4xx."],
        ["status=4x", "Enter a status such as 404"],
        ["kind=everything", "Choose requests, actions or both."],
        ["from=yesterday", "Enter the time as 2025-06-01T14:30 (UTC)."],
        ["from=2025-03-02T00:00&to=2025-03-01T00:00", "The end of the period must be after its start."],
        ["credential=' or 1=1 --", "Choose a key or application from the list."],
      ] as const) {
        const page = await seeded.visitor.get(
          `/settings/w/audited/audit?${new URLSearchParams(query.includes("'") ? { credential: "' or 1=1 --" } : Object.fromEntries(new URLSearchParams(query))).toString()}`,
        );
        expect(page.status, query).toBe(400);
        expect(page.text, query).toContain(text);
        expect(page.text).toContain('aria-invalid="true"');
        expect((await seeded.visitor.get(`/settings/w/audited/audit.csv?${query}`)).status).toBe(400);
      }
    });

    it("exports CSV as an attachment, with formula-like cells defused", async () => {
      const answer = await seeded.visitor.get("/settings/w/audited/audit.csv");
      expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(answer.headers.get("content-disposition")).toMatch(
        /^attachment; filename="audit-audited-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const lines = answer.text.split("\r\n");
      expect(lines[0]).toBe(
        "occurred_at,kind,actor,action,target,key_id,client_id,method,path,status,ip,user_agent,request_id,latency_ms,count,tool",
      );
      expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T[^,]+,action,pbs,api_key\.revoked,'\+cmd\|' \/C calc'!A0,/);
      const injected = lines.find((line) => line.includes(",req_seed7,"))!;
      expect(injected).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      expect(lines.at(-1)).toBe("");
      expect(lines).toHaveLength(1 + 121 + 1);
    });

    it("shows who did what: keys by name, members by email, with the request's IP and status", async () => {
      const visitor = await signedIn("owner");
      const created = await visitor.post("/settings/w/acme/keys", {
        name: "audited key",
        environment: "live",
        scopes: "*",
        expires: "none",
      });
      const secret = secretOf(created.text)!;
      const call = await server.as(secret).get("/v1/key");
      await server.auditRow(call.headers.get("x-request-id")!);
      const page = await visitor.get("/settings/w/acme/audit");
      expect(page.text).toMatch(/Key audited key[\s\S]*?<code>GET \/v1\/key<\/code>[\s\S]*?<td>200<\/td>/);
      expect(page.text).toMatch(new RegExp(`${people.owner}</td>\\s*<td><code>api_key\\.created</code>`));
      const actionsOnly = await visitor.get("/settings/w/acme/audit?kind=actions");
      expect(actionsOnly.text).not.toContain("<code>GET /v1/key</code>");
    });
  });

  describe("webhook delivery log", () => {
    it("shows a page of deliveries with their attempts in as many statements for six rows as for one (no query per row)", async () => {
      const owner = await signedIn("owner");
      const endpoint = expectBody(
        await server.client.post("/v1/webhooks", { url: "https://example.com/log", enabled_events: ["*"] }),
        201,
      );
      const first = expectBody(await server.client.post(`/v1/webhooks/${endpoint.id}/test`), 202);
      await server.storage.db.insert(webhookDeliveryAttempts).values({
        deliveryId: first.id,
        attemptedAt: new Date(),
        durationMs: 12,
        responseStatus: 502,
        responseBody: "bad gateway",
      });
      const page = `/settings/w/acme/webhooks/${endpoint.id}`;
      await owner.get(page); // the session and membership are warm from here on

      await server.app.flushAudit(); // the API requests' audit rows are not the page's statements
      const one = await statementsDuring(() => owner.get(page));
      for (let i = 0; i < 5; i++) await server.client.post(`/v1/webhooks/${endpoint.id}/test`);
      await server.app.flushAudit();
      const six = await statementsDuring(() => owner.get(page));

      expect(one.result.text.match(/<article class="delivery"/g)).toHaveLength(1);
      expect(six.result.text.match(/<article class="delivery"/g)).toHaveLength(6);
      // The first delivery's attempt is shown in its own article, and only there.
      const firstArticle = six.result.text.slice(six.result.text.indexOf(`Delivery <code>${first.id}</code>`));
      expect(firstArticle).toContain("bad gateway");
      expect(six.result.text.match(/bad gateway/g)).toHaveLength(1);
      expect(six.statements).toBe(one.statements);
    });
  });

  describe("pages", () => {
    it("gives every page the strict CSP, one <h1>, a skip link and a labelled nav", async () => {
      const owner = await signedIn("owner");
      const anonymous = new Visitor(server.url);
      const pages: [Visitor, string][] = [
        [anonymous, "/settings/sign-in"],
        [owner, "/settings/w/acme/keys"],
        [owner, "/settings/w/acme/webhooks"],
        [owner, "/settings/w/acme/webhooks?environment=test"],
        [owner, "/settings/w/acme/audit"],
        [owner, "/settings/w/acme/usage"],
        [owner, "/settings/w/acme/apps"],
        [owner, "/settings/w/acme/members"],
        [owner, "/settings/w/acme/nothing-here"],
      ];
      for (const [visitor, path] of pages) {
        const answer = await visitor.get(path);
        expect([200, 404], path).toContain(answer.status);
        expectPageHeaders(answer);
        expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(answer.text.match(/<h1[ >]/g), path).toHaveLength(1);
        expect(answer.text).toContain('<a class="skip-link" href="#main">');
        expect(answer.text).toContain('<main id="main"');
        expect(answer.text).not.toMatch(/<script>|style="|<style|on(click|load)=/);
        if (visitor === owner) expect(answer.text).toContain('<nav class="wrap sections" aria-label="Workspace acme">');
        // Every input but hidden ones has a label bound to it.
        for (const [, id] of answer.text.matchAll(/<(?:input|select)(?![^>]*type="hidden")[^>]*\bid="([^"]+)"/g)) {
          expect(answer.text, `${path}: label for ${id}`).toContain(`for="${id}"`);
        }
      }
    });

    it("hides usage from members (who may not read billing) and shows it to owners", async () => {
      const member = await signedIn("member");
      const keys = await member.get("/settings/w/acme/keys");
      expect(keys.text).not.toContain('href="/settings/w/acme/usage"');
      expect((await member.get("/settings/w/acme/usage")).status).toBe(403);
      const owner = await signedIn("owner");
      const usage = await owner.get("/settings/w/acme/usage");
      expect(usage.status).toBe(200);
      expect(usage.text).toContain("Credits left");
      expect(usage.text).toMatch(/<dd class="plan">pro<\/dd>/);
    });

    it("serves the stylesheet and script with their types and long-lived caching", async () => {
      const page = await new Visitor(server.url).get("/settings/sign-in");
      const css = /href="(\/settings\/assets\/console\.css\?v=[^"]+)"/.exec(page.text)![1]!;
      const js = /src="(\/settings\/assets\/console\.js\?v=[^"]+)"/.exec(page.text)![1]!;
      for (const [path, type] of [
        [css, "text/css; charset=utf-8"],
        [js, "text/javascript; charset=utf-8"],
      ] as const) {
        const answer = await fetch(server.url + path);
        expect(answer.status).toBe(200);
        expect(answer.headers.get("content-type")).toBe(type);
        expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        const etag = answer.headers.get("etag")!;
        expect((await fetch(server.url + path, { headers: { "if-none-match": etag } })).status).toBe(304);
      }
      expect((await fetch(`${server.url}/settings/assets/../../package.json`)).status).not.toBe(200);
      expect((await fetch(`${server.url}/settings/assets/other.js`)).status).toBe(404);
    });

    it("refuses to register a webhook the rules refuse, with the message next to the URL field", async () => {
      const owner = await signedIn("owner");
      const answer = await owner.post("/settings/w/acme/webhooks", {
        environment: "live",
        url: "http://127.0.0.1:9/hook",
        enabled_events: "*",
      });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain('id="new-url-error"');
      expect(answer.text).toContain('value="http://127.0.0.1:9/hook"');
    });
  });
});
