import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { forEachDriver, testDatabaseUrl, useStorage } from "../../test/support/database.ts";
import { authenticate, createApiKey, revokeApiKey, type Principal, type Refusal } from "../domain/keys.ts";
import { createWorkspace } from "../domain/workspaces.ts";
import type { ChangeFeed, ChangeSubscriber } from "../storage/notifications.ts";
import { workspaces } from "../storage/schema.ts";
import { createPrincipalCache } from "./principal-cache.ts";

/** Resolves true once `check` holds, false after `timeoutMs`. */
async function poll(check: () => boolean | Promise<boolean>, { timeoutMs }: { timeoutMs: number }): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

/** A feed the test drives by hand. */
function manualFeed() {
  const subscribers = new Set<ChangeSubscriber>();
  const feed = {
    connected: true,
    subscribe(subscriber: ChangeSubscriber) {
      subscribers.add(subscriber);
      return () => void subscribers.delete(subscriber);
    },
    close: async () => {},
    announce: (payload: string) => subscribers.forEach((s) => s.changed(payload)),
    gap: () => subscribers.forEach((s) => s.gap()),
  };
  return feed satisfies ChangeFeed;
}

const T0 = Date.parse("2026-11-24T12:00:00Z");

function principal(
  workspaceId: string,
  options: { lastUsedAt?: number | null; expiresAt?: number | null } = {},
): Principal {
  const lastUsedAt = options.lastUsedAt === undefined ? T0 : options.lastUsedAt;
  return {
    key: {
      id: `key_${workspaceId}`,
      workspaceId,
      name: "k",
      environment: "live",
      scopes: ["*"],
      displayPrefix: "svc_live_abcd",
      last4: "wxyz",
      createdAt: new Date(T0 - 1000),
      expiresAt: options.expiresAt ? new Date(options.expiresAt) : null,
      revokedAt: null,
      lastUsedAt: lastUsedAt === null ? null : new Date(lastUsedAt),
      createdBy: null,
    },
    workspace: { id: workspaceId, slug: workspaceId, name: workspaceId, plan: "pro", createdAt: new Date(T0 - 2000) },
  };
}

/** A lookup over a table of secrets that counts its calls. */
function lookup(table: Record<string, Principal | Refusal>) {
  const calls: string[] = [];
  return {
    calls,
    async authenticate(secret: string) {
      calls.push(secret);
      return table[secret] ?? { refused: "invalid" as const };
    },
  };
}

describe("principal cache", () => {
  it("looks a secret up once, then answers from memory", async () => {
    const backing = lookup({ a: principal("ws_1") });
    const cache = createPrincipalCache({ authenticate: backing.authenticate, changes: manualFeed(), now: () => T0 });
    expect(await cache.authenticate("a")).toEqual(principal("ws_1"));
    expect(await cache.authenticate("a")).toEqual(principal("ws_1"));
    expect(await cache.authenticate("nope")).toEqual({ refused: "invalid" });
    expect(await cache.authenticate("nope")).toEqual({ refused: "invalid" });
    expect(backing.calls).toEqual(["a", "nope"]);
  });

  it("forgets a workspace's entries when the database announces a change to it, and only those", async () => {
    const backing = lookup({
      a: principal("ws_1"),
      b: principal("ws_2"),
      old: { refused: "revoked", keyId: "key_x", workspaceId: "ws_1" },
    });
    const feed = manualFeed();
    const cache = createPrincipalCache({ authenticate: backing.authenticate, changes: feed, now: () => T0 });
    for (const secret of ["a", "b", "old"]) await cache.authenticate(secret);
    feed.announce("ws_1");
    for (const secret of ["a", "b", "old"]) await cache.authenticate(secret);
    expect(backing.calls).toEqual(["a", "b", "old", "a", "old"]);
    feed.announce("*");
    await cache.authenticate("b");
    expect(backing.calls.at(-1)).toBe("b");
  });

  it("a new credential: secrets refused as unknown are looked up again, principals stay", async () => {
    const table: Record<string, Principal | Refusal> = { a: principal("ws_1") };
    const backing = lookup(table);
    const feed = manualFeed();
    const cache = createPrincipalCache({ authenticate: backing.authenticate, changes: feed, now: () => T0 });
    await cache.authenticate("a");
    expect(await cache.authenticate("new")).toEqual({ refused: "invalid" });
    table.new = principal("ws_1");
    feed.announce("+");
    expect(await cache.authenticate("new")).toEqual(principal("ws_1"));
    await cache.authenticate("a");
    expect(backing.calls).toEqual(["a", "new", "new"]);
  });

  it("caches nothing while the feed is disconnected, and drops everything on a gap", async () => {
    const backing = lookup({ a: principal("ws_1") });
    const feed = manualFeed();
    const cache = createPrincipalCache({ authenticate: backing.authenticate, changes: feed, now: () => T0 });
    await cache.authenticate("a");
    feed.gap();
    await cache.authenticate("a");
    expect(backing.calls).toHaveLength(2);
    // A feed reports a gap when it loses its connection and again when it has it back.
    feed.connected = false;
    feed.gap();
    await cache.authenticate("a");
    await cache.authenticate("a");
    expect(backing.calls).toHaveLength(4);
    feed.connected = true;
    feed.gap();
    await cache.authenticate("a");
    await cache.authenticate("a");
    expect(backing.calls).toHaveLength(5);
  });

  it("does not store a lookup that a change overtook (it may have read the row before the change)", async () => {
    const feed = manualFeed();
    let release!: () => void;
    const calls: string[] = [];
    const cache = createPrincipalCache({
      changes: feed,
      now: () => T0,
      async authenticate(secret) {
        calls.push(secret);
        if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return principal("ws_1");
      },
    });
    const first = cache.authenticate("a");
    await Promise.resolve();
    feed.announce("ws_9"); // any change, even to another workspace
    release();
    await first;
    await cache.authenticate("a");
    expect(calls).toEqual(["a", "a"]);
  });

  it("looks a principal up again once its last use is a minute old, or its key has expired", async () => {
    let now = T0;
    const backing = lookup({
      a: principal("ws_1"),
      b: principal("ws_2", { expiresAt: T0 + 5_000 }),
      never: principal("ws_3", { lastUsedAt: null }),
    });
    const cache = createPrincipalCache({ authenticate: backing.authenticate, changes: manualFeed(), now: () => now });
    for (const secret of ["a", "b", "never"]) await cache.authenticate(secret);
    now = T0 + 4_999;
    for (const secret of ["a", "b", "never"]) await cache.authenticate(secret);
    expect(backing.calls).toEqual(["a", "b", "never", "never"]);
    now = T0 + 5_000;
    await cache.authenticate("b");
    now = T0 + 60_000;
    await cache.authenticate("a");
    expect(backing.calls.slice(4)).toEqual(["b", "a"]);
  });

  it("a flood of unknown secrets churns the refusals, never the principals", async () => {
    const backing = lookup({ a: principal("ws_1") });
    const cache = createPrincipalCache({
      authenticate: backing.authenticate,
      changes: manualFeed(),
      now: () => T0,
      maxRefusals: 10,
    });
    await cache.authenticate("a");
    for (let i = 0; i < 100; i++) await cache.authenticate(`guess_${i}`);
    await cache.authenticate("a");
    expect(backing.calls.filter((secret) => secret === "a")).toHaveLength(1);
    await cache.authenticate("guess_0"); // long evicted
    expect(backing.calls.at(-1)).toBe("guess_0");
  });
});

forEachDriver("principal cache over the database's change feed", (driver) => {
  const storage = useStorage(driver);

  async function setUp() {
    const { db, changes } = storage();
    const workspace = await createWorkspace(db, { slug: "acme", name: "Acme", plan: "pro" });
    const { key, secret } = await createApiKey(db, { workspaceId: workspace.id, name: "k" });
    let lookups = 0;
    const cache = createPrincipalCache({
      changes,
      authenticate: (s) => {
        lookups++;
        return authenticate(db, s);
      },
    });
    // The PostgreSQL feed connects its own listener on the first subscription.
    await poll(() => changes.connected, { timeoutMs: 5000 });
    return { db, workspace, key, secret, cache, lookups: () => lookups };
  }

  it("a revocation committed by this process holds on the very next request", async () => {
    const { db, key, secret, cache, lookups } = await setUp();
    expect("refused" in (await cache.authenticate(secret))).toBe(false);
    await cache.authenticate(secret);
    expect(lookups()).toBe(1);
    await revokeApiKey(db, key.id);
    expect(await cache.authenticate(secret)).toMatchObject({ refused: "revoked", keyId: key.id });
    cache.close();
  });

  it("a plan change is seen at once (the principal carries the workspace)", async () => {
    const { db, workspace, secret, cache } = await setUp();
    expect(await cache.authenticate(secret)).toMatchObject({ workspace: { plan: "pro" } });
    await db.update(workspaces).set({ plan: "free" }).where(eq(workspaces.id, workspace.id));
    expect(await cache.authenticate(secret)).toMatchObject({ workspace: { plan: "free" } });
    cache.close();
  });

  it.skipIf(driver.name !== "postgres" || !testDatabaseUrl)(
    "a revocation committed by another process (a replica, psql) is heard within moments",
    async () => {
      const { key, secret, cache, lookups } = await setUp();
      await cache.authenticate(secret);
      const other = new pg.Client({ connectionString: (storage() as { pool: pg.Pool }).pool.options.connectionString });
      await other.connect();
      try {
        await other.query("update api_keys set revoked_at = now() where id = $1", [key.id]);
      } finally {
        await other.end();
      }
      const seen = await poll(async () => "refused" in (await cache.authenticate(secret)), { timeoutMs: 2000 });
      expect(seen).toBe(true);
      expect(lookups()).toBeGreaterThanOrEqual(2);
      cache.close();
    },
  );

  it.skipIf(driver.name !== "postgres" || !testDatabaseUrl)(
    "while the listening connection is lost nothing is cached; it reconnects by itself",
    async () => {
      const { db, secret, cache, lookups } = await setUp();
      const { changes } = storage();
      await cache.authenticate(secret);
      await cache.authenticate(secret);
      expect(lookups()).toBe(1);
      // What a database restart or a network cut does to the listener (and to idle pooled connections).
      await db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      );
      expect(await poll(() => !changes.connected, { timeoutMs: 2000 })).toBe(true);
      await cache.authenticate(secret);
      await cache.authenticate(secret);
      expect(lookups()).toBe(3);
      expect(await poll(() => changes.connected, { timeoutMs: 5000 })).toBe(true);
      await cache.authenticate(secret);
      await cache.authenticate(secret);
      expect(lookups()).toBe(4);
      cache.close();
    },
  );
});
