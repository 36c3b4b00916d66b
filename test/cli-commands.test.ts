// The `pbs` commands in process: parsing and execution. (The executable, its exit
// codes and the admin socket are exercised end to end in cli.test.ts.)
import { describe, expect, it } from "vitest";
import { CommandError, executeCommand, parseCommand, UsageError, type CommandOutput } from "../src/cli/commands.ts";
import { authenticate } from "../src/domain/keys.ts";
import { createProject } from "../src/domain/projects.ts";
import { signIn } from "../src/domain/sessions.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { eq } from "drizzle-orm";
import { agentRuns, apiKeys, auditLog, oauthClients, users } from "../src/storage/schema.ts";
import { onEmbeddedDatabase, useStorage } from "./support/database.ts";

describe("parseCommand", () => {
  it("reads the fixed forms operators script", () => {
    expect(
      parseCommand([
        "keys",
        "create",
        "--workspace",
        "acme",
        "--name",
        "ci",
        "--scopes",
        "projects:read,agents:run",
        "--env",
        "test",
        "--expires",
        "1y",
        "--json",
      ]),
    ).toEqual({
      name: "keys.create",
      workspace: "acme",
      keyName: "ci",
      scopes: ["projects:read", "agents:run"],
      environment: "test",
      expires: "1y",
      json: true,
    });
    expect(
      parseCommand([
        "keys",
        "create",
        "--workspace",
        "acme",
        "--name",
        "ci",
        "--expires-at",
        "2027-01-31T00:00:00+01:00",
      ]),
    ).toMatchObject({
      scopes: ["*"],
      environment: "live",
      expires: { at: "2027-01-31T00:00:00+01:00" },
      json: false,
    });
    expect(parseCommand(["keys", "create", "--workspace", "acme", "--name", "ci"])).toMatchObject({ expires: "none" });
    expect(parseCommand(["keys", "revoke", "key_abcdefgh12345678"])).toEqual({
      name: "keys.revoke",
      keyId: "key_abcdefgh12345678",
      json: false,
    });
    expect(parseCommand(["keys", "list", "--workspace", "acme", "--json"])).toEqual({
      name: "keys.list",
      workspace: "acme",
      json: true,
    });
    expect(parseCommand(["audit", "--workspace", "acme", "--limit", "5"])).toEqual({
      name: "audit",
      workspace: "acme",
      limit: 5,
      json: false,
    });
    expect(parseCommand(["audit", "--workspace", "acme"])).toMatchObject({ limit: 50 });
    expect(parseCommand(["workspaces", "create", "--slug", "acme", "--name", "Acme", "--plan", "pro"])).toEqual({
      name: "workspaces.create",
      slug: "acme",
      workspaceName: "Acme",
      plan: "pro",
      json: false,
    });
  });

  it.each([[[]], [["--help"]], [["-h"]], [["help"]], [["keys", "create", "--help"]], [["audit", "-h"]]])(
    "%j asks for help",
    (argv) => {
      expect(parseCommand(argv)).toEqual({ name: "help" });
    },
  );

  it.each([
    [["keys", "create", "--workspace", "acme"], /--name is required/],
    [["keys", "create", "--name", "x"], /--workspace is required/],
    [
      ["keys", "create", "--workspace", "acme", "--name", "x", "--scopes", "projects:admin"],
      /unknown scope projects:admin/,
    ],
    [["keys", "create", "--workspace", "acme", "--name", "x", "--scopes", ","], /at least one scope/],
    [["keys", "create", "--workspace", "acme", "--name", "x", "--env", "prod"], /--env must be one of live, test/],
    [
      ["keys", "create", "--workspace", "acme", "--name", "x", "--expires", "2w"],
      /--expires must be one of 30d, 90d, 1y, none/,
    ],
    [
      ["keys", "create", "--workspace", "acme", "--name", "x", "--expires-at", "tomorrow"],
      /--expires-at must be an ISO time/,
    ],
    [
      ["keys", "create", "--workspace", "acme", "--name", "x", "--expires-at", "2027-01-31"],
      /--expires-at must be an ISO time/,
    ],
    [
      [
        "keys",
        "create",
        "--workspace",
        "acme",
        "--name",
        "x",
        "--expires",
        "30d",
        "--expires-at",
        "2030-01-01T00:00:00Z",
      ],
      /not both/,
    ],
    [["keys", "create", "--workspace"], /argument missing/],
    [["keys", "revoke"], /exactly one key id/],
    [["keys", "revoke", "key_abcdefgh", "key_ijklmnop"], /exactly one key id/],
    [["keys", "revoke", "prj_12345678"], /is not a key id/],
    [["keys", "list", "--workspace", "acme", "--colour"], /Unknown option '--colour'/],
    [["keys", "list", "--workspace", "acme", "extra"], /Unexpected argument 'extra'/],
    [["audit", "--workspace", "acme", "--limit", "0"], /--limit must be an integer from 1 to 1000/],
    [["audit", "--workspace", "acme", "--limit", "1001"], /--limit/],
    [["audit", "--workspace", "acme", "--unattributed"], /--workspace <slug> or --unattributed, not both/],
    [["audit"], /--workspace/],
    [["workspaces", "create", "--slug", "a", "--plan", "gold"], /--plan must be one of free, pro, team, enterprise/],
    [["keys"], /unknown command "pbs keys"/],
    [["deploy", "now"], /unknown command "pbs deploy now"/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});

onEmbeddedDatabase("pbs commands", (driver) => {
  const storage = useStorage(driver);

  const run = (...argv: string[]): Promise<CommandOutput> => executeCommand(storage().db, parseCommand(argv));
  const refusal = async (...argv: string[]): Promise<CommandError> => {
    try {
      await run(...argv);
    } catch (error) {
      if (error instanceof CommandError) return error;
      throw error;
    }
    throw new Error(`pbs ${argv.join(" ")} succeeded`);
  };

  it("keys create: text ends with the secret alone; JSON carries id and secret; the workspace is created once", async () => {
    const first = await run("keys", "create", "--workspace", "acme", "--name", "one");
    const lines = first.text.split("\n");
    expect(lines[0]).toMatch(/^Created workspace acme \(ws_\w+\)\.$/);
    expect(lines.at(-1)).toMatch(/^svc_live_[0-9A-Za-z]{46}$/);
    expect(first.json).toMatchObject({ secret: lines.at(-1), workspace: "acme", workspace_created: true });

    const second = await run(
      "keys",
      "create",
      "--workspace",
      "acme",
      "--name",
      "two",
      "--env",
      "test",
      "--expires",
      "30d",
    );
    expect(second.text).not.toContain("Created workspace");
    const json = second.json as { id: string; secret: string; expires_at: string; created_at: string };
    expect(json.id).toMatch(/^key_/);
    expect(json.secret).toMatch(/^svc_test_/);
    expect(Date.parse(json.expires_at) - Date.parse(json.created_at)).toBe(30 * 86_400_000);
    expect(second.text.split("\n").at(-1)).toBe(json.secret);
  });

  it("keys create refuses an explicit expiry in the past with exit 2", async () => {
    const error = await refusal(
      "keys",
      "create",
      "--workspace",
      "acme",
      "--name",
      "x",
      "--expires-at",
      "2001-01-01T00:00:00Z",
    );
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/in the future/);
  });

  it("keys list shows every key's state without its secret", async () => {
    const live = (await run("keys", "create", "--workspace", "acme", "--name", "live key", "--json")).json as {
      id: string;
      secret: string;
    };
    const gone = (
      await run(
        "keys",
        "create",
        "--workspace",
        "acme",
        "--name",
        "gone",
        "--scopes",
        "files:read,files:write",
        "--json",
      )
    ).json as { id: string; secret: string };
    await run("keys", "revoke", gone.id);

    const listed = await run("keys", "list", "--workspace", "acme");
    const [header, ...rows] = listed.text.split("\n");
    expect(header).toMatch(/^ID\s+NAME\s+ENV\s+KEY\s+SCOPES\s+STATUS\s+CREATED\s+EXPIRES\s+LAST USED$/);
    expect(rows[0]).toMatch(
      new RegExp(
        `^${gone.id}\\s+gone\\s+live\\s+svc_live_\\w{4}…${gone.secret.slice(-4)}\\s+files:read,files:write\\s+revoked\\s`,
      ),
    );
    expect(rows[1]).toMatch(new RegExp(`^${live.id}\\s+live key\\s+live\\s+.*\\s+active\\s+\\S+\\s+never\\s+never$`));
    for (const secret of [live.secret, gone.secret]) {
      expect(listed.text).not.toContain(secret);
      expect(JSON.stringify(listed.json)).not.toContain(secret);
    }
    expect((listed.json as { status: string }[]).map((key) => key.status)).toEqual(["revoked", "active"]);

    await run("workspaces", "create", "--slug", "empty");
    expect((await run("keys", "list", "--workspace", "empty")).text).toBe("Workspace empty has no keys.");
  });

  it("keys revoke: refused at once, idempotent, and exit 1 for an unknown key", async () => {
    const key = (await run("keys", "create", "--workspace", "acme", "--name", "x", "--json")).json as {
      id: string;
      secret: string;
    };
    expect((await run("keys", "revoke", key.id)).text).toBe(`Revoked key ${key.id} ("x"); it no longer authenticates.`);
    expect(await authenticate(storage().db, key.secret)).toMatchObject({ refused: "revoked" });
    const again = await run("keys", "revoke", key.id, "--json");
    expect(again.text).toMatch(/was already revoked at/);
    expect(again.json).toMatchObject({ id: key.id, already_revoked: true });
    expect((await refusal("keys", "revoke", "key_unknown000000")).exitCode).toBe(1);
  });

  it("audit: the workspace's requests, newest first, up to --limit", async () => {
    const key = (await run("keys", "create", "--workspace", "acme", "--name", "x", "--json")).json as {
      id: string;
      workspace_id: string;
    };
    const entry = (second: number, workspaceId: string | null) => ({
      occurredAt: new Date(Date.UTC(2026, 10, 22, 12, 0, second)),
      workspaceId,
      keyId: workspaceId ? key.id : null,
      method: "GET",
      route: "/v1/projects/{project_id}",
      path: `/v1/projects/prj_0000000${second}`,
      status: 200 + second,
      ip: "127.0.0.1",
      userAgent: "test",
      requestId: `req_0000000${second}`,
      latencyMs: second,
    });
    await storage()
      .db.insert(auditLog)
      .values([entry(1, key.workspace_id), entry(3, key.workspace_id), entry(2, key.workspace_id), entry(4, null)]);

    const limited = await run("audit", "--workspace", "acme", "--limit", "3");
    expect((limited.json as { request_id: string }[]).map((row) => row.request_id)).toEqual([
      null,
      "req_00000003",
      "req_00000002",
    ]);
    expect((limited.json as object[])[1]).toMatchObject({
      key_id: key.id,
      method: "GET",
      route: "/v1/projects/{project_id}",
      status: 203,
      ip: "127.0.0.1",
      user_agent: "test",
      latency_ms: 3,
    });

    const all = await run("audit", "--workspace", "acme");
    const lines = all.text.split("\n");
    // Header, the key's creation (an administrative action, now) and three requests: the request
    // without a workspace is nobody's.
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^TIME\s+METHOD\s+PATH\/ACTION\s+STATUS\s+BY\s+IP\s+LATENCY\s+REQUEST$/);
    expect(lines[1]).toMatch(new RegExp(`^\\S+\\s+ACTION\\s+api_key.created ${key.id}\\s+-\\s+pbs\\s+-\\s+-\\s+-$`));
    expect(lines[2]).toMatch(
      new RegExp(
        `^2026-11-22T12:00:03.000Z\\s+GET\\s+/v1/projects/prj_00000003\\s+203\\s+${key.id}\\s+127.0.0.1\\s+3ms\\s+req_00000003$`,
      ),
    );

    // The rows of no workspace are the operator's to read, each with how many requests it stands for.
    await storage()
      .db.insert(auditLog)
      .values({ ...entry(5, null), status: 429, action: "pages.rate_limited", actor: "anonymous", count: 37 });
    const unattributed = await run("audit", "--unattributed", "--json");
    expect(
      (unattributed.json as { request_id: string; count: number }[]).map((row) => [row.request_id, row.count]),
    ).toEqual([
      ["req_00000005", 37],
      ["req_00000004", 1],
    ]);
    expect((await run("audit", "--unattributed")).text.split("\n")[1]).toMatch(
      /ACTION\s+pages.rate_limited \(×37\)\s+429\s+anonymous/,
    );

    await run("workspaces", "create", "--slug", "quiet");
    expect((await run("audit", "--workspace", "quiet")).text).toBe("No requests recorded for workspace quiet.");
    expect((await refusal("audit", "--workspace", "nope")).exitCode).toBe(1);
  });

  it("keys create and revoke leave administrative audit rows: who, what, when", async () => {
    const key = (await run("keys", "create", "--workspace", "acme", "--name", "x", "--json")).json as {
      id: string;
      workspace_id: string;
    };
    await run("keys", "revoke", key.id);
    await run("keys", "revoke", key.id); // already revoked: nothing happens, nothing recorded
    const rows = (await run("audit", "--workspace", "acme", "--json")).json as {
      action: string;
      actor: string;
      target: string;
      occurred_at: string;
    }[];
    expect(rows.map(({ action, actor, target }) => ({ action, actor, target }))).toEqual([
      { action: "api_key.revoked", actor: "pbs", target: key.id },
      { action: "api_key.created", actor: "pbs", target: key.id },
    ]);
    const [created] = await storage().db.select().from(apiKeys);
    expect(created!.createdBy).toBe("pbs");
  });

  it("members add: the password from standard input, the first owner, audited; refusals", async () => {
    await run("workspaces", "create", "--slug", "acme");
    const add = (stdin: string | undefined, ...extra: string[]) =>
      executeCommand(
        storage().db,
        parseCommand([
          "members",
          "add",
          "--workspace",
          "acme",
          "--email",
          "Ana@Example.com",
          "--role",
          "owner",
          "--password-stdin",
          ...extra,
        ]),
        stdin === undefined ? {} : { stdin },
      );
    const added = await add("correct horse battery staple\n", "--json");
    expect(added.json).toMatchObject({
      email: "ana@example.com",
      role: "owner",
      workspace: "acme",
      user_created: true,
    });
    const [user] = await storage().db.select().from(users);
    expect(user!.passwordHash).toMatch(/^scrypt\$/);
    expect(user!.passwordHash).not.toContain("correct horse");
    expect(
      await signIn(storage().db, { email: "ana@example.com", password: "correct horse battery staple", ip: null }),
    ).toMatchObject({ outcome: "signed_in" });

    const again = await add("another long password").catch((error: unknown) => error as CommandError);
    expect(again).toBeInstanceOf(CommandError);
    expect((again as CommandError).message).toMatch(/already a member/);
    const short = await executeCommand(
      storage().db,
      parseCommand([
        "members",
        "add",
        "--workspace",
        "acme",
        "--email",
        "bo@example.com",
        "--role",
        "admin",
        "--password-stdin",
      ]),
      { stdin: "short" },
    ).catch((error: unknown) => error as CommandError);
    expect((short as CommandError).exitCode).toBe(2);
    expect((short as CommandError).message).toMatch(/at least 12 characters/);
    const none = await executeCommand(
      storage().db,
      parseCommand([
        "members",
        "add",
        "--workspace",
        "acme",
        "--email",
        "bo@example.com",
        "--role",
        "admin",
        "--password-stdin",
      ]),
    ).catch((error: unknown) => error as CommandError);
    expect((none as CommandError).exitCode).toBe(2);
    expect(() =>
      parseCommand(["members", "add", "--workspace", "acme", "--email", "bo@example.com", "--role", "admin"]),
    ).toThrow(/--password-stdin is required/);
    expect(() =>
      parseCommand([
        "members",
        "add",
        "--workspace",
        "acme",
        "--email",
        "bo@example.com",
        "--role",
        "boss",
        "--password-stdin",
      ]),
    ).toThrow(/--role must be one of owner, admin, member/);

    const rows = (await run("audit", "--workspace", "acme", "--json")).json as {
      action: string;
      actor: string;
      target: string;
    }[];
    expect(rows).toEqual([expect.objectContaining({ action: "member.added", actor: "pbs", target: user!.id })]);
  });

  it("oauth-clients create: a confidential client's secret once, a public client none", async () => {
    const confidential = await run(
      "oauth-clients",
      "create",
      "--name",
      "Zapier",
      "--redirect-uri",
      "https://zapier.example/cb",
      "--redirect-uri",
      "http://127.0.0.1:9000/cb",
    );
    const lines = confidential.text.split("\n");
    expect(lines.at(-1)).toMatch(/^pbs_cs_[0-9A-Za-z]{40}$/);
    expect(confidential.text).toMatch(/Client id: pbc_\w+/);
    const [client] = await storage().db.select().from(oauthClients);
    expect(client!.redirectUris).toEqual(["https://zapier.example/cb", "http://127.0.0.1:9000/cb"]);
    expect(client!.secretHash).not.toBe(lines.at(-1));

    const pub = (
      await run(
        "oauth-clients",
        "create",
        "--name",
        "CLI app",
        "--redirect-uri",
        "http://localhost:7777/cb",
        "--public",
        "--json",
      )
    ).json;
    expect(pub).toMatchObject({ public: true, client_id: expect.stringMatching(/^pbc_/) });
    expect(pub).not.toHaveProperty("client_secret");

    for (const uri of ["http://evil.example/cb", "https://x.example/cb#frag", "javascript:alert(1)", "not a uri"]) {
      const error = await refusal("oauth-clients", "create", "--name", "bad", "--redirect-uri", uri);
      expect(error.exitCode).toBe(2);
    }
    expect(() => parseCommand(["oauth-clients", "create", "--name", "x"])).toThrow(/--redirect-uri is required/);
  });

  it("workspaces create: defaults, options, and refusals", async () => {
    expect((await run("workspaces", "create", "--slug", "acme")).text).toMatch(
      /^Created workspace acme \(ws_\w+\), plan free\.$/,
    );
    expect(
      (await run("workspaces", "create", "--slug", "beta", "--name", "Beta Inc", "--plan", "team", "--json")).json,
    ).toMatchObject({ slug: "beta", name: "Beta Inc", plan: "team" });
    const taken = await refusal("workspaces", "create", "--slug", "acme");
    expect(taken.exitCode).toBe(1);
    expect(taken.message).toMatch(/already exists/);
    expect((await refusal("workspaces", "create", "--slug", "Not_A_Slug")).exitCode).toBe(2);
  });

  it("queue: runs and builds waiting and in progress per workspace environment, the deepest first", async () => {
    expect((await run("queue")).text).toBe("No agent runs or deployment builds are waiting or in progress.");
    const queued: string[] = [];
    const work = {
      queueAgentRun: async (_tx: unknown, id: string) => void queued.push(id),
      queueDeploymentBuild: async () => {},
    };
    const { workspace: busy } = await ensureWorkspace(storage().db, { slug: "busy", plan: "team" });
    const { workspace: quiet } = await ensureWorkspace(storage().db, { slug: "quiet" });
    for (const [workspace, environment, count] of [
      [busy, "live", 3],
      [quiet, "test", 1],
    ] as const) {
      for (let i = 0; i < count; i++) {
        await createProject(
          storage().db,
          work,
          { workspaceId: workspace.id, environment },
          { name: `p${i}`, prompt: "A page." },
        );
      }
    }
    await storage().db.update(agentRuns).set({ status: "running" }).where(eq(agentRuns.id, queued[0]!));

    const [header, ...rows] = (await run("queue")).text.split("\n");
    expect(header!.split(/\s{2,}/)).toEqual([
      "WORKSPACE",
      "ENV",
      "PLAN",
      "RUNS QUEUED",
      "RUNNING",
      "BUILDS QUEUED",
      "BUILDING",
    ]);
    expect(rows.map((row) => row.split(/\s+/))).toEqual([
      ["busy", "live", "team", "2", "1", "0", "0"],
      ["quiet", "test", "free", "1", "0", "0", "0"],
    ]);
    expect((await run("queue", "--json")).json).toEqual([
      {
        workspace: "busy",
        environment: "live",
        plan: "team",
        runs_queued: 2,
        runs_running: 1,
        builds_queued: 0,
        builds_building: 0,
      },
      {
        workspace: "quiet",
        environment: "test",
        plan: "free",
        runs_queued: 1,
        runs_running: 0,
        builds_queued: 0,
        builds_building: 0,
      },
    ]);
  });
});
