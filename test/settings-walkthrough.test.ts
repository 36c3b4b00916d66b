// The walk-throughs of docs/console-and-oauth.md, as a new user follows them: the server started as
// `npm start` does (a child process on the embedded database), an owner added with `pbs members add`,
// signed in at /settings, a key created there and used against the API; an OAuth application
// registered with `pbs oauth-clients create`, connected through the consent page, and calling the
// API within its scopes. (Each step's rules are tested in console.test.ts and oauth.test.ts; this checks they
// compose, through the real processes and the admin socket.)
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieBrowser, formFields } from "./support/cookie-browser.ts";
import { serverEnvironment } from "./support/environment.ts";
import { runPbs, startServer } from "./support/process.ts";

const PASSWORD = "a password long enough";

/** `npx pbs …` with `input` on its standard input. */
const pbs = (env: Record<string, string>, input: string, ...args: string[]) => runPbs(args, env, input);

describe("docs/console-and-oauth.md walk-through: settings console and OAuth, with the real server and pbs", () => {
  let dataDir: string;
  let env: Record<string, string>;
  let server: { child: ChildProcess; url: string };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "pbs-settings-"));
    env = serverEnvironment({ DATA_DIR: dataDir });
    server = await startServer(env);
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once("exit", resolve));
      server.child.kill("SIGTERM");
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it("owner from pbs → sign-in → key from the console → API; OAuth client from pbs → consent → API", async () => {
    expect((await pbs(env, "", "workspaces", "create", "--slug", "acme", "--name", "Acme")).code).toBe(0);
    const added = await pbs(
      env,
      `${PASSWORD}\n`,
      "members",
      "add",
      "--workspace",
      "acme",
      "--email",
      "owner@acme.example",
      "--role",
      "owner",
      "--password-stdin",
    );
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);

    const browser = new CookieBrowser(server.url);
    const signInPage = await browser.fetch("/settings");
    expect(signInPage.status).toBe(303);
    const form = await browser.fetch(signInPage.headers.get("location")!);
    const signedIn = await browser.post("/settings/sign-in", {
      ...Object.fromEntries(formFields(await form.text())),
      email: "owner@acme.example",
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(303);

    const keysPage = await browser.fetch("/settings/w/acme/keys");
    expect(keysPage.status).toBe(200);
    const created = await browser.post("/settings/w/acme/keys", [
      ...formFields(await keysPage.text()),
      ["name", "my laptop"],
      ["environment", "live"],
      ["scopes", "*"],
      ["expires", "90d"],
    ]);
    expect(created.status).toBe(200);
    const secret = /svc_live_[0-9A-Za-z]{46}/.exec(await created.text())?.[0];
    expect(secret).toBeDefined();
    const me = await fetch(`${server.url}/v1/key`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ name: "my laptop", workspace: { slug: "acme" }, scopes: ["*"] });

    const redirectUri = "http://127.0.0.1:9/callback";
    const registered = await pbs(
      env,
      "",
      "oauth-clients",
      "create",
      "--name",
      "Example integration",
      "--redirect-uri",
      redirectUri,
      "--json",
    );
    expect(registered.code).toBe(0);
    const client = JSON.parse(registered.stdout) as { client_id: string; client_secret: string };

    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const authorize = `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.client_id, redirect_uri: redirectUri, scope: "projects:read", state: "xyz", code_challenge: challenge, code_challenge_method: "S256" }).toString()}`;
    const consentPage = await browser.fetch(authorize);
    expect(consentPage.status).toBe(200);
    const decided = await browser.post("/oauth/authorize", [
      ...formFields(await consentPage.text(), "allow"),
      ["decision", "allow"],
    ]);
    const callback = new URL(decided.headers.get("location")!);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get("state")).toBe("xyz");

    const token = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        grant_type: "authorization_code",
        code: callback.searchParams.get("code"),
        client_id: client.client_id,
        client_secret: client.client_secret,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(token.status).toBe(200);
    const tokens = (await token.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe("projects:read");
    const projects = await fetch(`${server.url}/v1/projects`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(projects.status).toBe(200);
    const outside = await fetch(`${server.url}/v1/webhooks`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(outside.status).toBe(401);
    expect(((await outside.json()) as { error: { code: string } }).error.code).toBe("insufficient_scope");

    // Everything above is in the audit log, read with pbs through the running server.
    const audit = JSON.parse((await pbs(env, "", "audit", "--workspace", "acme", "--json")).stdout) as {
      action: string | null;
      path: string | null;
      client_id: string | null;
    }[];
    expect(audit.map((row) => row.action).filter(Boolean)).toEqual(
      expect.arrayContaining(["member.added", "api_key.created", "oauth_app.authorized"]),
    );
    expect(audit).toContainEqual(expect.objectContaining({ path: "/v1/projects", client_id: client.client_id }));
  });
});
