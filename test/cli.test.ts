// `pbs` end to end: the real executable in a child process, against a temp DATA_DIR (PGlite) or a
// fresh PostgreSQL database, and through the admin socket of a process holding the data directory.
// Each case's first command (and any that reads standard input) runs the executable; the steps after
// it run the same command in this process (runAdminCommand, which the executable calls), sparing a
// Node start per step.
import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startAdminSocket } from "../src/cli/admin-socket.ts";
import { runAdminCommand } from "../src/cli/run-pbs.ts";
import { authenticate, type Principal } from "../src/domain/keys.ts";
import { signIn } from "../src/domain/sessions.ts";
import { sql } from "drizzle-orm";
import type { Storage } from "../src/storage/index.ts";
import { readMigrations } from "../src/storage/migrator.ts";
import { forEachDriver, pgliteDriver, type ProcessDatabase } from "./support/database.ts";
import { runPbs } from "./support/process.ts";

type Run = Awaited<ReturnType<typeof runPbs>>;

/** Runs `pbs` as operators do: the file itself, executable, under Node's type stripping. */
function pbs(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return runPbs(args, { LOG_LEVEL: "silent", ...env });
}

/** The same command in this process, as the executable runs it. */
function command(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return runAdminCommand(args, { ...process.env, LOG_LEVEL: "silent", ...env });
}

/** `pbs` with `input` piped to its standard input (`--password-stdin`). */
function pbsWithInput(env: Record<string, string>, input: string, ...args: string[]): Promise<Run> {
  return runPbs(args, { LOG_LEVEL: "silent", ...env }, input);
}

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1)!;

async function withStorage<T>(database: ProcessDatabase, work: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await database.open();
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}

describe("pbs usage", () => {
  it("prints help and exits 0", async () => {
    const run = await pbs({}, "--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("pbs keys create --workspace <slug> --name <name>");
  });

  it("refuses bad usage on stderr with exit 2, before touching storage", async () => {
    // Every refusal is covered in cli-commands.test.ts; this checks how the executable reports one.
    const run = await pbs({ DATA_DIR: "/nonexistent/never-opened" }, "keys", "create", "--workspace", "acme");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("pbs: --name is required\n");
    expect(run.stdout).toBe("");
  });
});

forEachDriver("pbs executable", (driver) => {
  let database: ProcessDatabase;
  beforeEach(async () => {
    database = await driver.forProcess();
  });
  afterEach(() => database?.dispose());

  it("creates keys (secret alone on the last line, or --json), revokes them, and the database agrees", async () => {
    if (driver.name === "pglite") {
      // What a crashed server leaves: a socket nobody listens on and a lock of a dead process.
      await writeFile(join(database.dataDir, "admin.sock"), "");
      await writeFile(join(database.dataDir, "pbs.lock"), "2147483646\n");
    }
    const created = await pbs(
      database.env,
      "keys",
      "create",
      "--workspace",
      "acme",
      "--name",
      "deploy bot",
      "--scopes",
      "projects:read,agents:run",
      "--expires",
      "90d",
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("Created workspace acme");
    const secret = lastLine(created.stdout);
    expect(secret).toMatch(/^svc_live_[0-9A-Za-z]{46}$/);

    const json = await command(
      database.env,
      "keys",
      "create",
      "--workspace",
      "acme",
      "--name",
      "ci",
      "--env",
      "test",
      "--json",
    );
    expect(json.code).toBe(0);
    const second = JSON.parse(json.stdout) as { id: string; secret: string };
    expect(second.id).toMatch(/^key_/);
    expect(second.secret).toMatch(/^svc_test_[0-9A-Za-z]{46}$/);

    const first = (await withStorage(database, (storage) => authenticate(storage.db, secret))) as Principal;
    expect(first.workspace.slug).toBe("acme");
    expect(first.key).toMatchObject({
      name: "deploy bot",
      environment: "live",
      scopes: ["projects:read", "agents:run"],
    });
    expect((first.key.expiresAt!.getTime() - first.key.createdAt.getTime()) / 86_400_000).toBeCloseTo(90, 5);

    const revoked = await command(database.env, "keys", "revoke", first.key.id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked key ${first.key.id}`);
    await withStorage(database, async (storage) => {
      expect(await authenticate(storage.db, secret)).toMatchObject({ refused: "revoked" });
      expect(await authenticate(storage.db, second.secret)).toMatchObject({
        key: { id: second.id, environment: "test" },
      });
    });
  });
});

forEachDriver("pbs migrate", (driver) => {
  let database: ProcessDatabase;
  afterEach(() => database?.dispose());
  const tags = readMigrations().map((migration) => migration.tag);
  const upToDate = `The schema is up to date (last migration ${tags.at(-1)}).`;

  it("is the only command that migrates: the others refuse an empty database and say to run it", async () => {
    database = await driver.forProcess({ migrated: false });
    const refused = await pbs(database.env, "keys", "list", "--workspace", "acme");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "pbs: the database has no schema yet (no migration applied); run `pbs migrate` to create it\n",
    );
    // Nothing was created where there was no database.
    if (driver.name === "pglite") await expect(stat(join(database.dataDir, "pgdata"))).rejects.toThrow();

    const migrated = await pbs(database.env, "migrate");
    expect(migrated.code).toBe(0);
    if (driver.name === "postgres") {
      expect(migrated.stdout.trimEnd().split("\n")).toEqual([
        ...tags.map((tag): unknown => expect.stringMatching(new RegExp(`^Applied ${tag} in \\d+ ms\\.$`))),
        upToDate,
      ]);
      expect(migrated.stderr).toBe(tags.map((tag) => `pbs: applying ${tag}\n`).join(""));
    } else {
      // A new embedded database starts from the migrated template when there is one (pglite-template.ts).
      expect(migrated.stdout.trimEnd().split("\n").at(-1)).toMatch(
        new RegExp(`${upToDate.replace(/[.()]/g, "\\$&")}$`),
      );
    }

    // pg-boss's schema too, for servers that only check theirs (MIGRATE_ON_START=false).
    await withStorage(database, async (storage) => {
      expect(
        (
          await storage.db.execute<{ installed: string | null }>(
            sql`select to_regclass('pgboss.version')::text as installed`,
          )
        ).rows,
      ).toEqual([{ installed: "pgboss.version" }]);
    });
    const again = await command(database.env, "migrate", "--json");
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ applied: [], latest: tags.at(-1) });
    expect((await command(database.env, "keys", "create", "--workspace", "acme", "--name", "after")).code).toBe(0);
  });

  it("brings a database that is behind up to date; until then the other commands name what is missing", async () => {
    database = await driver.forProcess();
    // As a database of the previous release: the last migration not recorded (what it made is still
    // there and kept: migrations are written to be applied again safely).
    await withStorage(database, (storage) =>
      storage.db.execute(
        sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
      ),
    );
    const refused = await pbs(database.env, "workspaces", "create", "--slug", "acme");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `pbs: the database schema is behind this release: 1 migration not applied (${tags.at(-1)}); run \`pbs migrate\`\n`,
    );

    const migrated = await command(database.env, "migrate");
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toMatch(
      new RegExp(`^Applied ${tags.at(-1)} in \\d+ ms\\.\n${upToDate.replace(/[.()]/g, "\\$&")}\n$`),
    );
    expect((await command(database.env, "workspaces", "create", "--slug", "acme")).code).toBe(0);
  });
});

describe("pbs while another process holds the PGlite data directory", () => {
  let database: ProcessDatabase;
  let storage: Storage | undefined;
  beforeEach(async () => {
    database = await pgliteDriver.forProcess();
    storage = await database.open(); // this test process plays the running server
  });
  afterEach(async () => {
    await storage?.close();
    await database?.dispose();
  });

  it("sends commands through the owner's admin socket (0600); with the socket gone, says who holds the directory", async () => {
    const socketPath = join(database.dataDir, "admin.sock");
    const admin = await startAdminSocket({ storage: storage!, socketPath, logger: pino({ level: "silent" }) });
    try {
      expect((await stat(socketPath)).mode & 0o777).toBe(0o600);
      const created = await pbs(database.env, "keys", "create", "--workspace", "acme", "--name", "live one");
      expect(created.stderr).toBe("");
      expect(created.code).toBe(0);
      const secret = lastLine(created.stdout);
      const principal = (await authenticate(storage!.db, secret)) as Principal;
      expect(principal.key.name).toBe("live one");

      const listed = await command(database.env, "keys", "list", "--workspace", "acme", "--json");
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: principal.key.id, status: "active" })]);

      expect((await command(database.env, "keys", "revoke", principal.key.id)).code).toBe(0);
      expect(await authenticate(storage!.db, secret)).toMatchObject({ refused: "revoked" });

      // The password travels to the server over the socket, never on a command line.
      const owner = await pbsWithInput(
        database.env,
        "a long enough password\n",
        "members",
        "add",
        "--workspace",
        "acme",
        "--email",
        "ana@example.com",
        "--role",
        "owner",
        "--password-stdin",
      );
      expect(owner.stderr).toBe("");
      expect(owner.stdout).toMatch(/^Added ana@example.com \(usr_\w+\) to workspace acme as owner\./);
      expect(
        await signIn(storage!.db, { email: "ana@example.com", password: "a long enough password", ip: null }),
      ).toMatchObject({ outcome: "signed_in" });

      // The server migrates on pbs's behalf; it did at start, so there is nothing left.
      const migrated = await command(database.env, "migrate");
      expect(migrated.stderr).toBe("");
      expect(migrated.stdout).toBe(
        `Nothing to apply. The schema is up to date (last migration ${readMigrations().at(-1)!.tag}).\n`,
      );

      const failed = await command(database.env, "keys", "list", "--workspace", "nope");
      expect(failed.code).toBe(1);
      expect(failed.stderr).toBe('pbs: there is no workspace "nope"\n');
    } finally {
      await admin.close();
    }
    await expect(stat(socketPath)).rejects.toThrow(); // the socket file goes with the server

    const orphaned = await pbs(database.env, "keys", "list", "--workspace", "acme");
    expect(orphaned.code).toBe(1);
    expect(orphaned.stderr).toContain(`in use by process ${process.pid}`);
  });
});
