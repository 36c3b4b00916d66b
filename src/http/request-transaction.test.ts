import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { Database, Queryable, Storage } from "../storage/index.ts";
import { forEachDriver } from "../../test/support/database.ts";
import { requestEffect, type WithAnswer } from "./request-transaction.ts";

const insert = (db: Queryable, note: string) => db.execute(sql`insert into scratch (note) values (${note})`);
const notes = async (db: Queryable) =>
  (await db.execute<{ note: string }>(sql`select note from scratch order by note`)).rows.map((row) => row.note);
const created = (note: string) => ({ status: 201, body: { note } });

forEachDriver("the request's effect", (driver) => {
  let storage: Storage;
  let db: Database;
  beforeAll(async () => {
    storage = await driver.open();
    db = storage.db;
    await db.execute(sql`create table scratch (note text not null)`);
  });
  beforeEach(() => db.execute(sql`delete from scratch`));
  afterAll(() => storage?.close());

  /** Writes the answer's note beside the effect, in the effect's transaction. */
  const storeAnswer: WithAnswer = async (tx, answer) => {
    await insert(tx, `answer: ${(answer.body as { note: string }).note}`);
  };

  it("commits the last write and what goes with its answer in one transaction, and answers", async () => {
    const work = requestEffect(db, storeAnswer);
    const answer = await work.effect(
      (commit) =>
        commit(async (tx) => {
          await insert(tx, "effect");
          return "effect";
        }),
      created,
    );
    expect(answer).toEqual(created("effect"));
    expect(work.committed()).toBe(answer);
    expect(await notes(db)).toEqual(["answer: effect", "effect"]);
  });

  it("commits neither when what goes with the answer fails", async () => {
    const work = requestEffect(db, () => Promise.reject(new Error("answer not stored")));
    await expect(
      work.effect((commit) => commit((tx) => insert(tx, "effect").then(() => "effect")), created),
    ).rejects.toThrow("answer not stored");
    expect(work.committed()).toBeUndefined();
    expect(await notes(db)).toEqual([]);
  });

  it("makes no answer for a write that fails; what the write did before its commit stays, for it to undo", async () => {
    const work = requestEffect(db, storeAnswer);
    let answered = false;
    await expect(
      work.effect(
        async (commit) => {
          // An upload's chunks: stored before, outside the transaction.
          await insert(db, "chunk");
          try {
            return await commit(async (tx) => {
              await insert(tx, "half");
              throw new Error("conflict");
            });
          } catch (error) {
            await insert(db, "cleanup");
            throw error;
          }
        },
        (note: string) => {
          answered = true;
          return created(note);
        },
      ),
    ).rejects.toThrow("conflict");
    expect(answered).toBe(false);
    expect(work.committed()).toBeUndefined();
    expect(await notes(db)).toEqual(["chunk", "cleanup"]);
  });

  it("answers a write that committed nothing, with nothing committed beside it", async () => {
    const work = requestEffect(db, storeAnswer);
    expect(await work.effect(async () => "nothing to write", created)).toEqual(created("nothing to write"));
    expect(work.committed()).toBeUndefined();
    expect(await notes(db)).toEqual([]);
  });

  it("without anything to go with the answer (no Idempotency-Key), commits the write alone", async () => {
    const work = requestEffect(db);
    await work.effect((commit) => commit((tx) => insert(tx, "effect").then(() => "effect")), created);
    expect(await notes(db)).toEqual(["effect"]);
  });

  it("is one effect per request, committed once", async () => {
    const work = requestEffect(db);
    await expect(
      work.effect(async (commit) => {
        await commit(async () => "first");
        return commit(async () => "second");
      }, created),
    ).rejects.toThrow("an effect commits once");
    await expect(work.effect(async () => "again", created)).rejects.toThrow("a request has one effect");
  });
});
