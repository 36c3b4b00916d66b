// "No key secret appears anywhere in the data directory or the database", end to end: a server on
// a real database (PGlite in a temp DATA_DIR; a fresh PostgreSQL database) creates keys and they are
// used over HTTP in every way that writes something (accepted, refused, revoked, expired, replayed,
// uploads, a key mistakenly put in the query string). Then every row of every table, and for PGlite
// every byte of the data directory after it is closed, and every log line, is searched for the
// secrets. The key hashes must be found by the same search: it reads the stored data, not nothing.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, expect, it } from "vitest";
import { hashSecret, revokeApiKey } from "../src/domain/keys.ts";
import { createLogger } from "../src/logger.ts";
import type { Storage } from "../src/storage/index.ts";
import { apiKeys } from "../src/storage/schema.ts";
import { expectBody, expectStatus } from "./support/api-client.ts";
import { forEachDriver, type ProcessDatabase } from "./support/database.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

/** What to search for: the whole secret, and its random part alone (as UTF-8 and as UTF-16). */
function needles(secret: string): Buffer[] {
  const random = secret.replace(/^svc_(live|test)_/, "");
  return [Buffer.from(secret), Buffer.from(random), Buffer.from(random, "utf16le")];
}

/** Every row of every table the server's database holds (all schemas but the catalogs), as JSON text. */
async function dumpTables(storage: Storage): Promise<{ name: string; bytes: Buffer }[]> {
  const tables = await storage.db.execute(sql`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`);
  const dumps: { name: string; bytes: Buffer }[] = [];
  for (const { schema, name } of tables.rows as { schema: string; name: string }[]) {
    const rows = await storage.db.execute(
      sql`select row_to_json(t)::text as row from ${sql.identifier(schema)}.${sql.identifier(name)} t`,
    );
    dumps.push({ name: `${schema}.${name}`, bytes: Buffer.from(rows.rows.map((r) => String(r.row)).join("\n")) });
  }
  return dumps;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

function expectNoSecret(haystacks: { name: string; bytes: Buffer }[], secrets: string[], where: string): void {
  expect(haystacks.length, where).toBeGreaterThan(0);
  for (const secret of secrets) {
    for (const needle of needles(secret)) {
      const found = haystacks.filter((haystack) => haystack.bytes.includes(needle)).map((haystack) => haystack.name);
      expect(found, `${where}: a secret found in ${found.join(", ")}`).toEqual([]);
    }
  }
}

forEachDriver("no key secret is stored or logged by the server", (driver) => {
  let database: ProcessDatabase;
  let server: TestServer | undefined;
  const logLines: string[] = [];
  beforeEach(async () => {
    database = await driver.forProcess();
    logLines.length = 0;
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    // The server on the data directory (PGlite) or database (PostgreSQL) a deployment would use.
    server = await startTestServer(
      { ...driver, open: () => database.open() },
      { logger: createLogger({ level: "trace", destination }) },
    );
  });
  afterEach(async () => {
    await server?.stop();
    await database?.dispose();
  });

  it("in any row of any table, any file of the data directory, or any log line", async () => {
    const s = server!;
    const secrets = {
      full: await s.createKey({ workspace: "vault" }),
      test: await s.createKey({ workspace: "vault", environment: "test" }),
      scoped: await s.createKey({ workspace: "vault", scopes: ["projects:read"] }),
      expiring: await s.createKey({ workspace: "vault", expires: "30d" }),
      revoked: await s.createKey({ workspace: "vault" }),
      expired: await s.createKey({ workspace: "vault" }),
    };
    const all = Object.values(secrets);

    // Accepted requests of every kind that writes: last_used_at, the audit, idempotency, files.
    for (const secret of all) expect((await s.as(secret).get("/v1/key")).status).toBe(200);
    const full = s.as(secrets.full);
    const project = await full.post(
      "/v1/projects",
      { name: "Vault", prompt: "p" },
      { headers: { "Idempotency-Key": "vault-1" } },
    );
    expectStatus(project, 201);
    expect(
      (await full.post("/v1/projects", { name: "Vault", prompt: "p" }, { headers: { "Idempotency-Key": "vault-1" } }))
        .status,
    ).toBe(201);
    const form = new FormData();
    form.append("file", new Blob(["file content"], { type: "text/plain" }), "notes.txt");
    expect((await full.request("POST", `/v1/projects/${project.body.id}/files`, { raw: form })).status).toBe(201);
    expect((await s.as(secrets.test).post("/v1/projects", { name: "Test", prompt: "p" })).status).toBe(201);
    expect(
      (await full.post("/v1/webhooks", { url: "https://hooks.example.com/v", enabled_events: ["*"] })).status,
    ).toBe(201);

    // Refused requests, which are audited too.
    expect((await s.as(secrets.scoped).post("/v1/projects", { name: "x", prompt: "y" })).status).toBe(401);
    expect((await s.as(null).get("/v1/key", { headers: { Authorization: `Basic ${secrets.full}` } })).status).toBe(401);
    const [revoked] = await s.storage.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.secretHash, hashSecret(secrets.revoked)));
    await revokeApiKey(s.storage.db, revoked!.id);
    expect((await s.as(secrets.revoked).get("/v1/key")).status).toBe(401);
    await s.storage.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.secretHash, hashSecret(secrets.expired)));
    expect(expectBody(await s.as(secrets.expired).get("/v1/key"), 401).error.code).toBe("expired_api_key");
    // A client that puts its key where it does not belong: the query string, a made-up header.
    expect((await full.get(`/v1/projects?api_key=${secrets.full}`)).status).toBe(400);
    expect((await full.get("/v1/projects", { headers: { "X-Api-Key": secrets.full } })).status).toBe(200);

    // The rows, read through the server's own connection while it runs (the audit rows, queued a
    // few milliseconds after each answer, written first).
    await s.app.flushAudit();
    const tables = await dumpTables(s.storage);
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining(["public.api_keys", "public.audit_log", "public.idempotency_keys"]),
    );
    for (const secret of all) {
      expect(
        tables.some((table) => table.bytes.includes(Buffer.from(hashSecret(secret)))),
        "the dump holds the key rows",
      ).toBe(true);
    }
    const audit = tables.find((table) => table.name === "public.audit_log")!;
    expect(audit.bytes.toString().split("\n").length).toBeGreaterThanOrEqual(15);
    expectNoSecret(tables, all, "database rows");

    await s.stop(); // closes the storage: PGlite writes everything to its files
    server = undefined;
    expectNoSecret([{ name: "log", bytes: Buffer.from(logLines.join("")) }], all, "logs");
    expect(logLines.length).toBeGreaterThan(15);

    if (driver.name === "pglite") {
      const files = await filesUnder(database.dataDir);
      const haystacks = await Promise.all(files.map(async (file) => ({ name: file, bytes: await readFile(file) })));
      for (const secret of all) {
        expect(
          haystacks.some((h) => h.bytes.includes(Buffer.from(hashSecret(secret)))),
          "the data directory holds the key rows",
        ).toBe(true);
      }
      expectNoSecret(haystacks, all, "data directory");
    }
  });
});
