// The rules every migration after the baseline follows, so that a rolling deploy never breaks the
// release still serving (docs/deployment.md, "Migrations"): while replicas of release N+1 migrate and start,
// replicas of release N keep answering on the same database.
// - An index on an existing table is built (and dropped) CONCURRENTLY, in a migration that holds
//   only CONCURRENTLY statements (the runner runs those outside transactions, one by one).
// - Expand, then contract: a table or column is dropped only once the code stopped using it in an
//   earlier migration's schema (it is absent from the previous migration's snapshot, i.e. the
//   previous release no longer reads it); nothing is renamed; a column's type is never changed in
//   place; a new NOT NULL column has a default (the previous release's inserts do not name it).
// Tables created in the same migration are new and empty: nothing uses them yet, so none of this
// applies to them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "../src/storage/index.ts";
import { isConcurrent, stripComments } from "../src/storage/migrator.ts";

/** The last migration written before these rules; later ones must follow them. */
const BASELINE = "0006_rate_limit_counters";

interface Snapshot {
  readonly tables: Record<string, { readonly name: string; readonly columns: Record<string, unknown> }>;
}

interface MigrationFile {
  readonly tag: string;
  readonly sql: string;
  /** drizzle-kit's snapshot of the schema as of the previous migration: what the previous release knew. */
  readonly previous: Snapshot;
}

const IDENT = String.raw`(?:"[^"]+"|[\w$]+)`;
const NAME = String.raw`(${IDENT}(?:\s*\.\s*${IDENT})?)`;

/** `"public"."Audit_Log"` → `Audit_Log`; unquoted names fold to lower case, as PostgreSQL folds them. */
function bareName(raw: string): string {
  const last = raw
    .split(/\s*\.\s*(?=(?:"[^"]*"|[^"])*$)/)
    .at(-1)!
    .trim();
  return last.startsWith('"') ? last.slice(1, -1) : last.toLowerCase();
}

/** What is left of a statement to read: comments gone, string and dollar-quoted bodies blanked. */
function readable(statement: string): string {
  return stripComments(statement)
    .replace(/'(?:[^']|'')*'|(\$\w*\$)[\s\S]*?\1/g, "''")
    .replace(/\s+/g, " ")
    .trim();
}

/** The rules a migration breaks, each as a sentence saying what to do instead. */
function checkMigration(migration: MigrationFile): string[] {
  const statements = migration.sql
    .split("--> statement-breakpoint")
    .map(readable)
    .filter((statement) => statement !== "");
  const violations: string[] = [];
  const refuse = (message: string) => violations.push(`${migration.tag}: ${message}`);
  const created = new Set(
    statements.flatMap((statement) =>
      [...statement.matchAll(new RegExp(String.raw`^create table (?:if not exists )?${NAME}`, "gi"))].map((m) =>
        bareName(m[1]!),
      ),
    ),
  );
  const existing = (table: string) => !created.has(table);
  const previousTables = new Map(Object.values(migration.previous.tables).map((table) => [table.name, table]));

  const concurrent = statements.filter(isConcurrent);
  if (concurrent.length > 0 && concurrent.length < statements.length) {
    refuse(
      "CONCURRENTLY statements must be the only statements of their migration (they run outside transactions); move the rest to another migration",
    );
  }
  for (const statement of statements) {
    const index = new RegExp(
      String.raw`^create (?:unique )?index (concurrently )?(?:if not exists )?(?:${IDENT} )?on (?:only )?${NAME}`,
      "i",
    ).exec(statement);
    if (index && !index[1] && existing(bareName(index[2]!))) {
      refuse(
        `CREATE INDEX on the existing table ${bareName(index[2]!)} blocks its writes until built; write CREATE INDEX CONCURRENTLY, in a migration of its own`,
      );
    }
    if (/^drop index (?!concurrently)/i.test(statement)) {
      refuse(
        "DROP INDEX blocks the table's reads and writes while it waits for its lock; write DROP INDEX CONCURRENTLY, in a migration of its own",
      );
    }
    const dropTable = new RegExp(String.raw`^drop table (?:if exists )?(${NAME}(?:\s*,\s*${NAME})*)`, "i").exec(
      statement,
    );
    for (const raw of dropTable ? dropTable[1]!.split(",") : []) {
      const table = bareName(raw);
      if (existing(table) && previousTables.has(table)) {
        refuse(
          `DROP TABLE ${table} in the release that stops using it breaks the previous release, which still reads it; remove it from schema.ts now (delete the generated DROP) and drop it in a later release`,
        );
      }
    }
    const alter = new RegExp(String.raw`^alter table (?:if exists )?(?:only )?${NAME} (.*)$`, "i").exec(statement);
    if (!alter) continue;
    const table = bareName(alter[1]!);
    const actions = alter[2]!;
    if (!existing(table)) continue;
    if (/(^|,\s*)rename (?!constraint\b)/i.test(actions)) {
      refuse(
        `renaming ${table} or one of its columns breaks the previous release, which uses the old name; add the new one, write both, and drop the old one in a later release`,
      );
    }
    for (const drop of actions.matchAll(new RegExp(String.raw`drop (?:column )?(?:if exists )?(${IDENT})`, "gi"))) {
      if (/^constraint$/i.test(drop[1]!) || /^(?:default|not|identity|expression)$/i.test(drop[1]!)) continue;
      const column = bareName(drop[1]!);
      if (previousTables.get(table)?.columns[column] !== undefined) {
        refuse(
          `DROP COLUMN ${table}.${column} in the release that stops using it breaks the previous release, which still reads it; remove it from schema.ts now (delete the generated DROP) and drop it in a later release`,
        );
      }
    }
    if (/alter (?:column )?\S+ (?:set data )?type /i.test(actions)) {
      refuse(
        `changing a column's type in ${table} rewrites the table under an exclusive lock and breaks the previous release; add a column of the new type, fill it, and switch over release by release`,
      );
    }
    for (const add of actions.matchAll(/add (?:column )?(?:if not exists )?(.*?)(?=,\s*(?:add|drop|alter)\b|$)/gi)) {
      if (/\bnot null\b/i.test(add[1]!) && !/\bdefault\b/i.test(add[1]!) && !/\bprimary key\b/i.test(add[1]!)) {
        refuse(
          `a NOT NULL column without a default on ${table} makes the previous release's inserts fail; give it a default, or add it nullable and tighten it in a later release`,
        );
      }
    }
  }
  return violations;
}

function snapshot(idx: number): Snapshot {
  return JSON.parse(
    readFileSync(join(migrationsFolder, "meta", `${String(idx).padStart(4, "0")}_snapshot.json`), "utf8"),
  ) as Snapshot;
}

const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
  entries: { idx: number; tag: string }[];
};

describe("migration rules", () => {
  it("hold for every migration after the baseline", () => {
    const baseline = journal.entries.findIndex((entry) => entry.tag === BASELINE);
    expect(baseline, `the baseline ${BASELINE} is in the journal`).toBeGreaterThanOrEqual(0);
    const later = journal.entries.slice(baseline + 1);
    expect(later.length).toBeGreaterThan(0);
    const violations = later.flatMap((entry) =>
      checkMigration({
        tag: entry.tag,
        sql: readFileSync(join(migrationsFolder, `${entry.tag}.sql`), "utf8"),
        previous: snapshot(entry.idx - 1),
      }),
    );
    expect(violations).toEqual([]);
  });

  // The checker itself, on migrations that break each rule (and ones that keep it).
  const previous: Snapshot = {
    tables: {
      "public.audit_log": { name: "audit_log", columns: { id: {}, occurred_at: {}, ip: {} } },
      "public.events": { name: "events", columns: { id: {} } },
    },
  };
  const check = (sql: string, before: Snapshot = previous) =>
    checkMigration({ tag: "9999_test", sql, previous: before });

  it("refuse a plain index on an existing table, and a plain DROP INDEX", () => {
    expect(check(`CREATE INDEX "audit_log_ip_idx" ON "audit_log" USING btree ("ip");`)).toEqual([
      "9999_test: CREATE INDEX on the existing table audit_log blocks its writes until built; write CREATE INDEX CONCURRENTLY, in a migration of its own",
    ]);
    expect(check(`create unique index if not exists x on public.audit_log (ip)`)).toHaveLength(1);
    expect(check(`DROP INDEX "audit_log_ip_idx";`)).toHaveLength(1);
    expect(
      check(
        `CREATE INDEX CONCURRENTLY "audit_log_ip_idx" ON "audit_log" ("ip");--> statement-breakpoint\nDROP INDEX CONCURRENTLY "old_idx";`,
      ),
    ).toEqual([]);
    // A new table's indexes are built with it: nothing uses it yet.
    expect(
      check(
        `CREATE TABLE "things" ("a" integer);--> statement-breakpoint\nCREATE INDEX "things_a_idx" ON "things" ("a");`,
      ),
    ).toEqual([]);
  });

  it("refuse CONCURRENTLY statements beside others", () => {
    expect(
      check(
        `ALTER TABLE "events" ADD COLUMN "note" text;--> statement-breakpoint\nCREATE INDEX CONCURRENTLY "events_note_idx" ON "events" ("note");`,
      ),
    ).toEqual([
      "9999_test: CONCURRENTLY statements must be the only statements of their migration (they run outside transactions); move the rest to another migration",
    ]);
  });

  it("refuse dropping a table or column the previous release still knew, and allow it a release later", () => {
    expect(check(`ALTER TABLE "audit_log" DROP COLUMN "ip";`)).toEqual([
      "9999_test: DROP COLUMN audit_log.ip in the release that stops using it breaks the previous release, which still reads it; remove it from schema.ts now (delete the generated DROP) and drop it in a later release",
    ]);
    expect(check(`DROP TABLE "events" CASCADE;`)).toHaveLength(1);
    expect(check(`drop table if exists public.events, "audit_log"`)).toHaveLength(2);
    // The previous release's schema no longer had them: they are unused, dropping them is the contract step.
    const contracted: Snapshot = {
      tables: { "public.audit_log": { name: "audit_log", columns: { id: {}, occurred_at: {} } } },
    };
    expect(
      check(
        `ALTER TABLE "audit_log" DROP COLUMN "ip";--> statement-breakpoint\nDROP TABLE "events";--> statement-breakpoint\nDROP TABLE "rate_limits";`,
        contracted,
      ),
    ).toEqual([]);
    // Dropping a constraint or a default is not dropping a column.
    expect(
      check(
        `ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_check";--> statement-breakpoint\nALTER TABLE "audit_log" ALTER COLUMN "ip" DROP DEFAULT;`,
      ),
    ).toEqual([]);
  });

  it("refuse renames and type changes in place", () => {
    expect(check(`ALTER TABLE "audit_log" RENAME COLUMN "ip" TO "address";`)).toEqual([
      "9999_test: renaming audit_log or one of its columns breaks the previous release, which uses the old name; add the new one, write both, and drop the old one in a later release",
    ]);
    expect(check(`ALTER TABLE "events" RENAME TO "happenings";`)).toHaveLength(1);
    expect(check(`ALTER TABLE "events" RENAME CONSTRAINT "a" TO "b";`)).toEqual([]);
    expect(check(`ALTER TABLE "audit_log" ALTER COLUMN "ip" SET DATA TYPE inet USING ip::inet;`)).toHaveLength(1);
    expect(check(`alter table audit_log alter ip type inet`)).toHaveLength(1);
  });

  it("refuse a NOT NULL column without a default on an existing table", () => {
    expect(check(`ALTER TABLE "events" ADD COLUMN "source" text NOT NULL;`)).toEqual([
      "9999_test: a NOT NULL column without a default on events makes the previous release's inserts fail; give it a default, or add it nullable and tighten it in a later release",
    ]);
    expect(
      check(
        `ALTER TABLE "events" ADD COLUMN "source" text DEFAULT 'api' NOT NULL;--> statement-breakpoint\nALTER TABLE "events" ADD COLUMN "note" text;`,
      ),
    ).toEqual([]);
  });

  it("read no rules into comments, strings or function bodies", () => {
    expect(
      check(
        `-- DROP TABLE "events";\nCREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ BEGIN DROP TABLE events; END $$;--> statement-breakpoint\nINSERT INTO "events" (id) VALUES ('DROP TABLE events');`,
      ),
    ).toEqual([]);
  });
});
