import { eq, sql } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import { forEachDriver, useStorage } from "../../test/support/database.ts";
import { createWorkspace } from "../domain/workspaces.ts";
import type { Queryable } from "./index.ts";
import { executeText, placeholder, placeholderFor, prepared, preparedSql } from "./prepared.ts";
import { events } from "./schema.ts";

// These checks hold prepared.ts to the drizzle internals it relies on: if an upgrade moves them, a
// prepared query would run outside its transaction (or fail), and these fail first.
forEachDriver("prepared queries", (driver) => {
  const storage = useStorage(driver);
  let workspaceId: string;
  beforeEach(async () => {
    workspaceId = (await createWorkspace(storage().db, { slug: "acme", name: "Acme", plan: "pro" })).id;
  });

  let builds = 0;
  const eventById = prepared((db: Queryable) => {
    builds++;
    return db
      .select({ id: events.id, data: events.data, createdAt: events.createdAt })
      .from(events)
      .where(eq(events.id, placeholder("id")))
      .prepare("test_event_by_id");
  });
  const insertEvent = preparedSql("test_insert_event", (db: Queryable) =>
    db
      .insert(events)
      .values({
        id: placeholder("id"),
        workspaceId: placeholder("workspaceId"),
        environment: "test",
        type: "project.created",
        data: placeholderFor("data", events.data),
        createdAt: placeholderFor("createdAt", events.createdAt),
      })
      .returning({ id: events.id })
      .getSQL(),
  );

  it("runs in the transaction it is given, on the query compiled once for the database", async () => {
    const { db } = storage();
    const createdAt = new Date("2026-11-25T12:00:00.123Z");
    builds = 0;
    await expect(
      db.transaction(async (tx) => {
        const { rows } = await insertEvent(tx).execute({
          id: "evt_rolled_back",
          workspaceId,
          data: { a: "é\"'" },
          createdAt,
        });
        expect(rows).toEqual([{ id: "evt_rolled_back" }]);
        // Seen inside the transaction, not outside it (PGlite serialises transactions, so the
        // outside look is taken after it ends).
        expect(await eventById(tx).execute({ id: "evt_rolled_back" })).toEqual([
          { id: "evt_rolled_back", data: { a: "é\"'" }, createdAt },
        ]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await eventById(db).execute({ id: "evt_rolled_back" })).toEqual([]);
    expect(builds).toBe(1);

    await db.transaction(async (tx) => {
      await insertEvent(tx).execute({ id: "evt_committed", workspaceId, data: [1, 2], createdAt });
    });
    expect(await eventById(db).execute({ id: "evt_committed" })).toEqual([
      { id: "evt_committed", data: [1, 2], createdAt },
    ]);
    expect(builds).toBe(1);
  });

  it("encodes a value as its column does, and keeps null as SQL NULL", async () => {
    const { db } = storage();
    const encoded = preparedSql("test_encoded", () => {
      const data = placeholderFor("data", events.data);
      const at = placeholderFor("at", events.createdAt);
      return sql`select ${data}::jsonb as data, ${data}::jsonb is null as "dataIsNull", ${at}::timestamptz as at, ${at}::timestamptz is null as "atIsNull"`;
    });
    expect((await encoded(db).execute({ data: null, at: null })).rows).toEqual([
      { data: null, dataIsNull: true, at: null, atIsNull: true },
    ]);
    const [row] = (await encoded(db).execute({ data: { a: [1, "x"] }, at: new Date("2026-11-25T12:00:00.123Z") })).rows;
    expect(row).toMatchObject({ data: { a: [1, "x"] }, dataIsNull: false, atIsNull: false });
    expect(new Date(row!.at as string).toISOString()).toBe("2026-11-25T12:00:00.123Z");
  });

  it("keeps each transaction on its own connection when several run at once", async () => {
    const { db } = storage();
    const ids = Array.from({ length: 6 }, (_, i) => `evt_parallel_${i}`);
    await Promise.all(
      ids.map((id, i) =>
        db
          .transaction(async (tx) => {
            await insertEvent(tx).execute({ id, workspaceId, data: i, createdAt: new Date() });
            await tx.execute(sql`select 1`);
            if (i % 2 === 1) throw new Error("roll back");
          })
          .catch(() => undefined),
      ),
    );
    const kept = await Promise.all(ids.map(async (id) => (await eventById(db).execute({ id })).length));
    expect(kept).toEqual([1, 0, 1, 0, 1, 0]);
  });

  it("runs a library's SQL text in the transaction it is given, as one named statement on PostgreSQL", async () => {
    const { db } = storage();
    const text =
      "insert into events (id, workspace_id, environment, type, data, created_at) values ($1, $2, 'test', 'project.created', $3::jsonb, now()) returning id";
    await expect(
      db.transaction(async (tx) => {
        expect((await executeText(tx, text, ["evt_text_rolled_back", workspaceId, "{}"])).rows).toEqual([
          { id: "evt_text_rolled_back" },
        ]);
        expect((await executeText(tx, text, ["evt_text_second", workspaceId, "[1]"])).rows).toEqual([
          { id: "evt_text_second" },
        ]);
        if (driver.name === "postgres") {
          // Both calls ran on the transaction's connection, where the text was prepared once.
          const { rows } = await tx.execute(
            sql`select count(*)::int as statements from pg_prepared_statements where statement = ${text}`,
          );
          expect(rows).toEqual([{ statements: 1 }]);
        }
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await eventById(db).execute({ id: "evt_text_rolled_back" })).toEqual([]);
    expect(
      (await executeText(db, "select count(*)::int as n from events where workspace_id = $1", [workspaceId])).rows,
    ).toEqual([{ n: 0 }]);
  });
});
