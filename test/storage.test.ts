import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, desc, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { newId } from "../src/storage/ids.ts";
import { openStorage, migrationsFolder, type Storage } from "../src/storage/index.ts";
import { DataDirInUseError, LOCK_FILE, migratedTemplate, openPgliteStorage } from "../src/storage/pglite.ts";
import {
  agentRuns,
  apiKeys,
  auditLog,
  deployments,
  events,
  fileChunks,
  files,
  idempotencyKeys,
  invoices,
  projects,
  webhookDeliveries,
  webhookEndpoints,
  workspaces,
} from "../src/storage/schema.ts";
import { forEachDriver, pgliteDriver, useStorage, type ProcessDatabase } from "./support/database.ts";

const allTables = [
  "agent_runs",
  "api_keys",
  "audit_log",
  "blob_chunks",
  "blobs",
  "deployment_files",
  "deployments",
  "events",
  "file_chunks",
  "files",
  "idempotency_keys",
  "invoices",
  "memberships",
  "oauth_clients",
  "oauth_codes",
  "oauth_grants",
  "oauth_tokens",
  "projects",
  "rate_limit_counters",
  "run_files",
  "server_secrets",
  "sessions",
  "sign_in_failures",
  "users",
  "version_files",
  "versions",
  "webhook_deliveries",
  "webhook_delivery_attempts",
  "webhook_endpoints",
  "work_queue_clocks",
  "workspaces",
];

/** A workspace with one project, its run, a deployment and a two-chunk file. */
async function seedProject(storage: Storage) {
  const { db } = storage;
  const [workspace] = await db
    .insert(workspaces)
    .values({ id: newId("ws"), slug: `ws-${newId("ws").slice(3, 11).toLowerCase()}`, name: "Acme" })
    .returning();
  const partition = { workspaceId: workspace!.id, environment: "live" as const };
  const [project] = await db
    .insert(projects)
    .values({
      id: newId("prj"),
      ...partition,
      name: "Shop",
      prompt: "a shop",
      agent: "coding-agent-1",
      visibility: "private",
    })
    .returning();
  const [run] = await db
    .insert(agentRuns)
    .values({
      id: newId("run"),
      projectId: project!.id,
      ...partition,
      agent: "coding-agent-1",
      prompt: "a shop",
      trigger: "project_created",
    })
    .returning();
  const [deployment] = await db
    .insert(deployments)
    .values({ id: newId("dpl"), projectId: project!.id, ...partition, runId: run!.id, target: "production" })
    .returning();
  const [file] = await db
    .insert(files)
    .values({
      id: newId("file"),
      projectId: project!.id,
      ...partition,
      path: "src/index.html",
      contentType: "text/html",
      sizeBytes: 4,
      sha256: "0".repeat(64),
    })
    .returning();
  await db.insert(fileChunks).values([
    { fileId: file!.id, seq: 0, data: new Uint8Array([0, 1]) },
    { fileId: file!.id, seq: 1, data: new Uint8Array([254, 255]) },
  ]);
  return { workspace: workspace!, partition, project: project!, run: run!, deployment: deployment!, file: file! };
}

/** The text of a rejected query's error, including the driver error drizzle wraps. */
async function failure(query: Promise<unknown>): Promise<string> {
  try {
    await query;
  } catch (error) {
    const cause = (error as { cause?: { message?: string; constraint?: string } }).cause;
    return [(error as Error).message, cause?.message, cause?.constraint].join(" ");
  }
  throw new Error("the query succeeded");
}

/** `$1`… replaced by quoted literals, for EXPLAIN (which takes no parameters). */
function inline(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => `'${String(params[Number(n) - 1]).replaceAll("'", "''")}'`);
}

forEachDriver("storage", (driver) => {
  const storage = useStorage(driver);

  it("applies every migration: all tables, the journal's entries, the pagination indexes", async () => {
    const tables = await storage().db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual(allTables);

    const journal = JSON.parse(await readFile(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
      entries: unknown[];
    };
    const applied = await storage().db.execute<{ count: number }>(
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    expect(applied.rows[0]!.count).toBe(journal.entries.length);

    const index = await storage().db.execute<{ indexdef: string }>(
      sql`select indexdef from pg_indexes where indexname = 'projects_page_idx'`,
    );
    expect(index.rows[0]!.indexdef).toContain("(workspace_id, environment, created_at DESC, id DESC)");
  });

  it("round-trips every column type: text, enums, arrays, jsonb, bigint, bytea, timestamptz", async () => {
    const { db } = storage();
    const { workspace, partition, project, file } = await seedProject(storage());

    expect(workspace.plan).toBe("free");
    expect(workspace.createdAt).toBeInstanceOf(Date);
    expect(project).toMatchObject({ template: "blank", status: "queued", latestRunId: null, url: null });

    const chunks = await db.select().from(fileChunks).where(eq(fileChunks.fileId, file.id)).orderBy(fileChunks.seq);
    expect(chunks.map((chunk) => [...chunk.data])).toEqual([
      [0, 1],
      [254, 255],
    ]);

    const [key] = await db
      .insert(apiKeys)
      .values({
        id: newId("key"),
        workspaceId: workspace.id,
        name: "k",
        environment: "test",
        secretHash: "h",
        displayPrefix: "svc_test_abcd",
        last4: "wxyz",
      })
      .returning();
    expect(key!.scopes).toEqual(["*"]);

    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        id: newId("we"),
        ...partition,
        url: "https://example.com/hook",
        enabledEvents: ["project.created", "*"],
        secret: "whsec_x",
      })
      .returning();
    expect(endpoint!.enabledEvents).toEqual(["project.created", "*"]);
    const [event] = await db
      .insert(events)
      .values({
        id: newId("evt"),
        ...partition,
        type: "project.created",
        data: { object: { id: project.id, nested: [1, "two", null] } },
      })
      .returning();
    expect(event!.data).toEqual({ object: { id: project.id, nested: [1, "two", null] } });
    const [delivery] = await db
      .insert(webhookDeliveries)
      .values({ id: newId("dlv"), webhookEndpointId: endpoint!.id, eventId: event!.id, ...partition })
      .returning();
    expect(delivery).toMatchObject({ status: "pending", attempts: 0 });

    const periodStart = new Date("2026-11-01T00:00:00.000Z");
    const [invoice] = await db
      .insert(invoices)
      .values({
        id: newId("inv"),
        ...partition,
        number: "INV-1",
        status: "open",
        currency: "usd",
        amountDue: 50_000_000_000,
        periodStart,
        periodEnd: new Date("2026-12-01T00:00:00.000Z"),
      })
      .returning();
    expect(invoice!.amountDue).toBe(50_000_000_000); // beyond int4
    expect(invoice!.periodStart.toISOString()).toBe(periodStart.toISOString());

    const [entry] = await db
      .insert(auditLog)
      .values({
        method: "GET",
        route: "/v1/projects",
        path: "/v1/projects",
        status: 200,
        requestId: "req_1",
        latencyMs: 3,
      })
      .returning();
    expect(typeof entry!.id).toBe("number");

    const [idem] = await db
      .insert(idempotencyKeys)
      .values({
        ...partition,
        key: "k1",
        method: "POST",
        path: "/v1/projects",
        requestHash: "h",
        state: "completed",
        responseStatus: 201,
        responseHeaders: { a: "b" },
        responseBody: { id: 1 },
        expiresAt: new Date(Date.now() + 1000),
      })
      .returning();
    expect(idem).toMatchObject({ responseHeaders: { a: "b" }, responseBody: { id: 1 } });

    const [updated] = await db.update(projects).set({ name: "Renamed" }).where(eq(projects.id, project.id)).returning();
    expect(updated!.name).toBe("Renamed");
  });

  it("deleting a project deletes its runs, deployments, files and file chunks", async () => {
    const { db } = storage();
    const { project, workspace } = await seedProject(storage());
    const other = await seedProject(storage());
    await db.delete(projects).where(eq(projects.id, project.id));

    const count = async (table: typeof agentRuns | typeof deployments | typeof files, projectId: string) =>
      (await db.select().from(table).where(eq(table.projectId, projectId))).length;
    expect(await count(agentRuns, project.id)).toBe(0);
    expect(await count(deployments, project.id)).toBe(0);
    expect(await count(files, project.id)).toBe(0);
    const orphanChunks = await db.execute<{ count: number }>(
      sql`select count(*)::int as count from file_chunks where file_id not in (select id from files)`,
    );
    expect(orphanChunks.rows[0]!.count).toBe(0);

    // Nothing else went: the other project keeps everything, the workspace stays.
    expect(await count(agentRuns, other.project.id)).toBe(1);
    expect(await count(files, other.project.id)).toBe(1);
    expect(await db.select().from(workspaces).where(eq(workspaces.id, workspace.id))).toHaveLength(1);
  });

  it("enforces the constraints: unique slug, unique file path per project, allowed values, foreign keys", async () => {
    const { db } = storage();
    const { workspace, partition, project } = await seedProject(storage());
    await expect(
      db.insert(workspaces).values({ id: newId("ws"), slug: workspace.slug, name: "again" }),
    ).rejects.toThrow();
    await expect(
      db.insert(files).values({
        id: newId("file"),
        projectId: project.id,
        ...partition,
        path: "src/index.html",
        contentType: "text/html",
        sizeBytes: 1,
        sha256: "1",
      }),
    ).rejects.toThrow();
    expect(
      await failure(db.execute(sql`update projects set environment = 'staging' where id = ${project.id}`)),
    ).toContain("projects_environment_check");
    expect(await failure(db.execute(sql`update agent_runs set status = 'done'`))).toContain("agent_runs_status_check");
    await expect(
      db.insert(projects).values({
        id: newId("prj"),
        workspaceId: "ws_missing0000",
        environment: "live",
        name: "n",
        prompt: "p",
        agent: "coding-agent-1",
        visibility: "public",
      }),
    ).rejects.toThrow();
  });

  it("serves a page of a partition from the pagination index, without sorting", async () => {
    const { partition } = await seedProject(storage());
    const plan = await storage().db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`); // a handful of rows: make the planner show its index choice
      const page = tx
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.workspaceId, partition.workspaceId), eq(projects.environment, partition.environment)))
        .orderBy(desc(projects.createdAt), desc(projects.id))
        .limit(21)
        .toSQL();
      return tx.execute<{ "QUERY PLAN": string }>(sql.raw(`explain ${inline(page.sql, page.params)}`));
    });
    const text = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toContain("projects_page_idx");
    expect(text).not.toMatch(/\bSort\b/);
  });

  it("ping answers while open", async () => {
    await expect(storage().ping()).resolves.toBeUndefined();
  });
});

describe("storage on a PGlite data directory", () => {
  let database: ProcessDatabase;
  beforeEach(async () => {
    database = await pgliteDriver.forProcess();
  });
  afterEach(() => database?.dispose());

  it("keeps data across close and reopen, through openStorage(config)", async () => {
    const config = loadConfig({ DATA_DIR: database.dataDir });
    const first = await openStorage(config, { migrations: "apply" });
    expect(first.driver).toBe("pglite");
    await first.db.insert(workspaces).values({ id: newId("ws"), slug: "persisted", name: "P" });
    await first.close();

    const second = await openStorage(config, { migrations: "require" });
    try {
      expect((await second.db.select().from(workspaces)).map((row) => row.slug)).toEqual(["persisted"]);
    } finally {
      await second.close();
    }
  });

  it("starts a new data directory from the migrated template, with every migration applied", async () => {
    const empty = await mkdtemp(join(tmpdir(), "pbs-fresh-"));
    try {
      await migratedTemplate();
      const fresh = await openPgliteStorage({ dataDir: empty });
      try {
        const journal = JSON.parse(await readFile(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
          entries: unknown[];
        };
        const applied = await fresh.db.execute<{ count: number }>(
          sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
        );
        expect(applied.rows[0]!.count).toBe(journal.entries.length);
        // A cluster of its own: what it writes stays in it, and the template does not change.
        await fresh.db.insert(workspaces).values({ id: newId("ws"), slug: "own", name: "Own" });
        expect(await fresh.db.select().from(workspaces)).toHaveLength(1);
      } finally {
        await fresh.close();
      }
      const again = await openPgliteStorage({ dataDir: await mkdtemp(join(tmpdir(), "pbs-fresh-")) });
      try {
        expect(await again.db.select().from(workspaces)).toEqual([]);
      } finally {
        await again.close();
        await rm(again.dataDir!, { recursive: true, force: true });
      }
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("lets one process at a time open the directory, and releases it on close", async () => {
    const first = await openPgliteStorage({ dataDir: database.dataDir });
    const lock = await readFile(join(database.dataDir, LOCK_FILE), "utf8");
    expect(lock.trim()).toBe(String(process.pid));
    await expect(openPgliteStorage({ dataDir: database.dataDir })).rejects.toBeInstanceOf(DataDirInUseError);
    await first.close();
    await first.close(); // twice is harmless

    const second = await openPgliteStorage({ dataDir: database.dataDir });
    await second.close();
  });

  it("takes over a lock left by a process that is gone", async () => {
    // Pids are below 2^22 on Linux; this one cannot be running.
    await writeFile(join(database.dataDir, LOCK_FILE), "2147483646\n");
    const storage = await openPgliteStorage({ dataDir: database.dataDir });
    await storage.close();
  });
});
