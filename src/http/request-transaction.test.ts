import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { Database, Queryable, Storage } from "../storage/index.ts";
import { forEachDriver } from "../../test/support/database.ts";
import { requestTransaction } from "./request-transaction.ts";

const insert = (db: Queryable, note: string) => db.execute(sql`insert into scratch (note) values (${note})`);
const notes = async (db: Queryable) =>
  (await db.execute<{ note: string }>(sql`select note from scratch order by note`)).rows.map((row) => row.note);

forEachDriver("the request's transaction", (driver) => {
  let storage: Storage;
  let db: Database;
  beforeAll(async () => {
    storage = await driver.open();
    db = storage.db;
    await db.execute(sql`create table scratch (note text not null)`);
  });
  beforeEach(() => db.execute(sql`delete from scratch`));
  afterAll(() => storage?.close());

  it("holds the handler's transaction open until commit, which runs the last statement in it", async () => {
    const work = requestTransaction(db);
    await work.db.transaction((tx) => insert(tx, "effect"));
    // Later statements of the handler run in it: they see its uncommitted write.
    expect(await notes(work.db)).toEqual(["effect"]);
    await work.commit((tx) => insert(tx, "answer"));
    expect(await notes(db)).toEqual(["answer", "effect"]);
  });

  it("commits nothing when the last statement fails", async () => {
    const work = requestTransaction(db);
    await work.db.transaction((tx) => insert(tx, "effect"));
    await expect(work.commit(() => Promise.reject(new Error("answer not stored")))).rejects.toThrow(
      "answer not stored",
    );
    expect(await notes(db)).toEqual([]);
  });

  it("rollback undoes the handler's transaction", async () => {
    const work = requestTransaction(db);
    await work.db.transaction((tx) => insert(tx, "effect"));
    await work.rollback();
    expect(await notes(db)).toEqual([]);
  });

  it("a failure inside rolls back at once; the handler then carries on outside, and commit runs alone", async () => {
    const work = requestTransaction(db);
    await expect(
      work.db.transaction(async (tx) => {
        await insert(tx, "half");
        throw new Error("conflict");
      }),
    ).rejects.toThrow("conflict");
    // On PGlite a statement outside a held transaction would wait for it forever.
    await insert(work.db, "cleanup");
    await work.commit((outside) => insert(outside, "answer"));
    expect(await notes(db)).toEqual(["answer", "cleanup"]);
  });

  it("a second transaction of the handler joins the first", async () => {
    const work = requestTransaction(db);
    await work.db.transaction((tx) => insert(tx, "one"));
    await work.db.transaction((tx) => insert(tx, "two"));
    await work.rollback();
    expect(await notes(db)).toEqual([]);
  });

  it("without a transaction of the handler, commit runs the last statement alone", async () => {
    const work = requestTransaction(db);
    await insert(work.db, "plain");
    await work.commit((tx) => insert(tx, "answer"));
    expect(await notes(db)).toEqual(["answer", "plain"]);
  });
});
