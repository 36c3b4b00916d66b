// The stored-data fingerprint the hostile suite takes after every case (support/snapshot.ts): it
// must see every write that changes what is stored, including those that keep a table's row count,
// and none that changes only what it leaves out (api_keys.last_used_at).
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { forEachDriver, useStorage } from "../support/database.ts";
import { changedTables, snapshotter, type Snapshot } from "./support/snapshot.ts";

forEachDriver("stored-data snapshot", (driver) => {
  const storage = useStorage(driver);
  let take: () => Promise<Snapshot>;
  beforeAll(async () => {
    take = (await snapshotter(storage())).take;
  });
  const changedBy = async (statement: string) => {
    const before = await take();
    await storage().db.execute(sql.raw(statement));
    return changedTables(before, await take());
  };

  it("sees rows added, changed in place, replaced and removed, and nothing else", async () => {
    const insert = (slug: string) =>
      `insert into workspaces (id, slug, name, plan) values ('ws_${slug}', '${slug}', '${slug}', 'free')`;
    expect(await changedBy(insert("one"))).toEqual(["workspaces"]);
    expect(await changedBy(insert("two"))).toEqual(["workspaces"]);
    expect(await changedBy(`update workspaces set name = 'renamed' where slug = 'one'`)).toEqual(["workspaces"]);
    // The count stays: one row gone, another come.
    expect(await changedBy(`with gone as (delete from workspaces where slug = 'two') ${insert("three")}`)).toEqual([
      "workspaces",
    ]);
    expect(await changedBy(`delete from workspaces where slug = 'three'`)).toEqual(["workspaces"]);
    // A write that leaves the rows as they were (a new row version, the same content) changes nothing stored.
    expect(await changedBy(`update workspaces set name = name`)).toEqual([]);
    expect(await changedBy(`select 1`)).toEqual([]);
  });

  it("leaves out what every request changes by design: a key's last use", async () => {
    await storage().db.execute(
      sql.raw(`insert into workspaces (id, slug, name, plan) values ('ws_keys', 'keys', 'keys', 'free')`),
    );
    const [key] = (
      await storage().db.execute<{ id: string }>(
        sql.raw(
          `insert into api_keys (id, workspace_id, name, environment, secret_hash, display_prefix, last4) values ('key_a', 'ws_keys', 'a', 'live', 'h', 'svc_live_x', 'abcd') returning id`,
        ),
      )
    ).rows;
    expect(key?.id).toBe("key_a");
    expect(await changedBy(`update api_keys set last_used_at = now() where id = 'key_a'`)).toEqual([]);
    expect(await changedBy(`update api_keys set name = 'b' where id = 'key_a'`)).toEqual(["api_keys"]);
  });
});
