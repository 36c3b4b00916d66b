// The transaction an idempotent request's effects commit in, together with its stored answer, so
// that a crash can never leave one without the other (the effect done but the key still free, and
// the retry doing it twice).
//
// The handler does not know: it receives `db` as usual and opens its transaction as usual
// (`db.transaction(…)`), typically last, after its checks and any work that must stay outside a
// transaction (an upload's chunks). That transaction is held open when its callback returns; from
// then on everything the handler does on `db` runs in it (another `db.transaction` joins it), and
// the pipeline decides its end: `commit(last)` runs `last` in it (storing the answer) and commits,
// `rollback()` undoes it. A failure inside it rolls it back at once and is rethrown to the handler,
// which may then carry on outside it (an upload deleting its pending row). A handler that opens no
// transaction has nothing held: `commit(last)` runs `last` alone.
//
// Holding the transaction costs no statement (drizzle's BEGIN and COMMIT are sent anyway) and lasts
// only from the handler's last step to its answer, which matters on PGlite, where a transaction
// holds the one connection.
import type { Database, Queryable, Transaction } from "../storage/index.ts";

export interface RequestTransaction {
  /** The database to hand to the handler. */
  readonly db: Database;
  /** Runs `last` in the held transaction and commits (or runs it alone when none was opened). A throw from `last` rolls back. */
  commit<T>(last: (db: Queryable) => Promise<T>): Promise<T>;
  /** Undoes the held transaction, if any. */
  rollback(): Promise<void>;
}

type Ending = { commit: true; last: (tx: Transaction) => Promise<unknown> } | { commit: false };

/** Thrown inside the held transaction to roll it back on the pipeline's word. */
class RolledBack extends Error {}

interface Held {
  readonly tx: Transaction;
  readonly end: (ending: Ending) => void;
  /** Settles when the transaction has committed (with `last`'s result) or rolled back. */
  readonly ended: Promise<unknown>;
}

export function requestTransaction(db: Database): RequestTransaction {
  let opening: Promise<Held> | undefined;
  let held: Held | undefined;
  let closed = false;

  async function open(): Promise<Held> {
    let end!: (ending: Ending) => void;
    const ending = new Promise<Ending>((resolve) => (end = resolve));
    let began = false;
    let ended!: Promise<unknown>;
    const tx = await new Promise<Transaction>((opened, failed) => {
      ended = db.transaction(async (tx) => {
        began = true;
        opened(tx);
        const decided = await ending;
        if (!decided.commit) throw new RolledBack();
        return decided.last(tx);
      });
      // Before it began, a failure is BEGIN's own; after, whoever ends the transaction hears it.
      ended.catch((error: unknown) => {
        if (!began) failed(error);
      });
    });
    held = { tx, end, ended };
    return held;
  }

  async function finish(ending: Ending): Promise<unknown> {
    closed = true;
    const current = held ?? (opening ? await opening.catch(() => undefined) : undefined);
    if (!current) return undefined;
    held = undefined;
    current.end(ending);
    try {
      return await current.ended;
    } catch (error) {
      if (error instanceof RolledBack) return undefined;
      throw error;
    }
  }

  async function join<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    if (closed) return db.transaction(work);
    opening ??= open();
    const { tx } = await opening;
    try {
      return await work(tx);
    } catch (error) {
      await finish({ commit: false });
      throw error;
    }
  }

  const proxy = new Proxy(db, {
    get(target, property) {
      if (property === "transaction") return join;
      const source: object = held && !closed ? held.tx : target;
      const value: unknown = Reflect.get(source, property);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(source) : value;
    },
  });

  return {
    db: proxy,
    async commit<T>(last: (db: Queryable) => Promise<T>): Promise<T> {
      const current = held ?? (opening ? await opening.catch(() => undefined) : undefined);
      if (!current || closed) {
        closed = true;
        return last(db);
      }
      return (await finish({ commit: true, last })) as T;
    },
    async rollback() {
      await finish({ commit: false });
    },
  };
}
