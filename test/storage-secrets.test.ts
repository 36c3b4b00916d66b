// "No key secret appears anywhere in the data directory or the database": keys are created (through
// the domain and through the pbs command path) and used, then every byte the database keeps is
// searched for the secrets. The secrets' hashes must be found by the same search, which proves it
// reads the stored data rather than nothing.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, expect, it } from "vitest";
import { executeCommand, parseCommand } from "../src/cli/commands.ts";
import { authenticate, createApiKey, hashSecret } from "../src/domain/keys.ts";
import { createWorkspace } from "../src/domain/workspaces.ts";
import type { Storage } from "../src/storage/index.ts";
import { forEachDriver, type ProcessDatabase } from "./support/database.ts";

/** Creates and uses two keys; returns their secrets. */
async function createAndUseKeys(storage: Storage): Promise<string[]> {
  const workspace = await createWorkspace(storage.db, { slug: "acme" });
  const direct = await createApiKey(storage.db, { workspaceId: workspace.id, name: "direct", expires: "30d" });
  const viaCli = (
    await executeCommand(
      storage.db,
      parseCommand(["keys", "create", "--workspace", "acme", "--name", "cli", "--env", "test", "--json"]),
    )
  ).json as { secret: string };
  for (const secret of [direct.secret, viaCli.secret]) {
    expect(await authenticate(storage.db, secret)).toHaveProperty("key"); // use it: last_used_at is written
  }
  return [direct.secret, viaCli.secret];
}

/** What to search for: the whole secret, and its random part alone (as UTF-8 and as UTF-16). */
function needles(secret: string): Buffer[] {
  const random = secret.slice("svc_live_".length);
  return [Buffer.from(secret), Buffer.from(random), Buffer.from(random, "utf16le")];
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

forEachDriver("no key secret is stored", (driver) => {
  let database: ProcessDatabase;
  beforeEach(async () => {
    database = await driver.forProcess();
  });
  afterEach(() => database?.dispose());

  it(driver.name === "pglite" ? "in any file of the data directory" : "in a dump of the database", async () => {
    const storage = await database.open();
    let secrets: string[];
    try {
      secrets = await createAndUseKeys(storage);
      if (storage.driver === "postgres") await storage.db.execute(sql`checkpoint`);
    } finally {
      await storage.close(); // PGlite writes everything to its files on close
    }

    const haystacks: { name: string; bytes: Buffer }[] = [];
    if (driver.name === "pglite") {
      for (const file of await filesUnder(database.dataDir))
        haystacks.push({ name: file, bytes: await readFile(file) });
    } else {
      const { stdout } = await promisify(execFile)("pg_dump", ["--no-owner", database.databaseUrl!], {
        maxBuffer: 64 * 1024 * 1024,
        encoding: "buffer",
      });
      haystacks.push({ name: "pg_dump", bytes: stdout });
    }
    expect(haystacks.length).toBeGreaterThan(0);

    for (const secret of secrets) {
      const hash = Buffer.from(hashSecret(secret));
      expect(
        haystacks.some((haystack) => haystack.bytes.includes(hash)),
        "the search sees the stored key rows",
      ).toBe(true);
      for (const needle of needles(secret)) {
        const found = haystacks.filter((haystack) => haystack.bytes.includes(needle)).map((haystack) => haystack.name);
        expect(found, `secret found in ${found.join(", ")}`).toEqual([]);
      }
    }
  });
});
