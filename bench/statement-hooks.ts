// The driver methods every database statement goes through, hooked to see each one before the
// driver sends it: pg's Client.prototype.query, and PGlite's query, exec and transaction. The
// bench's counter (count-statements.ts) and test/statement-counts.test.ts count with it, so that
// the test pins the figures the bench reports.
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/** What is known of a statement at the driver: its text, and whether it goes as a named (prepared) one. */
export type OnStatement = (text: string, named: boolean) => void;

/** What a PGlite transaction counts as (bench/RESULTS.md lists it): it sends its BEGIN itself, through neither query nor exec. */
const PGLITE_TRANSACTION = "BEGIN (pglite transaction)";

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Hooks the drivers' methods until the function returned is called. */
export function hookStatements(onStatement: OnStatement): () => void {
  const sending = (original: Method): Method =>
    function (this: unknown, ...args: unknown[]) {
      const statement = args[0] as { text?: unknown; name?: unknown } | string | null | undefined;
      const text =
        typeof statement === "string" ? statement : typeof statement?.text === "string" ? statement.text : "?";
      onStatement(text, typeof statement !== "string" && typeof statement?.name === "string");
      return original.apply(this, args);
    };
  // The transaction object PGlite hands its callback has a query and exec of its own.
  const transaction = (original: Method): Method =>
    function (this: unknown, ...args: unknown[]) {
      onStatement(PGLITE_TRANSACTION, false);
      const work = args[0] as (tx: object) => unknown;
      args[0] = (tx: object) => {
        replaceMethod(tx, "query", sending);
        replaceMethod(tx, "exec", sending);
        return work(tx);
      };
      return original.apply(this, args);
    };
  const restore = [
    replaceMethod(pg.Client.prototype, "query", sending),
    replaceMethod(PGlite.prototype, "query", sending),
    replaceMethod(PGlite.prototype, "exec", sending),
    replaceMethod(PGlite.prototype, "transaction", transaction),
  ];
  return () => {
    for (const undo of restore.splice(0).reverse()) undo();
  };
}

/** Puts `replacement(original)` in the place of `target[name]`; returns what puts the original back. */
function replaceMethod(target: object, name: string, replacement: (original: Method) => Method): () => void {
  const methods = target as Record<string, Method>;
  const original = methods[name];
  if (typeof original !== "function") return () => {};
  methods[name] = replacement(original);
  return () => {
    methods[name] = original;
  };
}
