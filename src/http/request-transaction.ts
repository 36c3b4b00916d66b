// The transaction of a request's effect, asked for by name where the handler runs:
//   effect((commit) => domain.create(db, …, commit), (created) => ({ status: 201, body: created }))
// `write` calls the domain, which runs its last write through `commit` (its own `db.transaction`
// when given none); `answer` makes the handler's answer of what that write returned, inside the same
// transaction, and whatever must commit with the effect is written there before it commits.
//
// That is the stored answer of a request with an Idempotency-Key (idempotent-call.ts): effect and
// answer commit together or not at all, so a crash never leaves the effect done with the key still
// free (the retry would do it again) nor an answer stored for an effect undone, and a retry is
// answered once. Without a key nothing more is written; the handler runs the same code either way.
// Work that must stay outside a transaction (an upload's chunks, the DNS check of a webhook's URL)
// comes before the last write, and the transaction ends once the answer is stored: it lasts no
// longer than the domain's own would and costs no statement more (its BEGIN and COMMIT are sent
// anyway), which matters on PGlite, where a transaction holds the one connection.
import type { Commit, Database, Transaction } from "../storage/index.ts";

/** What a handler answers: its status, the headers it sets, and its body. */
export interface HandlerResult {
  status: number;
  headers?: Record<string, unknown>;
  body?: unknown;
}

/**
 * Carries out a request's effect: `write` makes it, its last write committing through `commit`;
 * `answer` turns what the write returned into the handler's answer, made in the same transaction.
 * Once per request, and `commit` once per effect.
 */
export type Effect = <R, A extends HandlerResult>(
  write: (commit: Commit<R>) => Promise<R>,
  answer: (result: R) => A,
) => Promise<A>;

/** What must commit with the effect: given the answer, in the effect's transaction. */
export type WithAnswer = (tx: Transaction, answer: HandlerResult) => Promise<void>;

export interface RequestEffect {
  readonly effect: Effect;
  /** The answer that committed with the effect; undefined when none did (no write, or it failed). */
  committed(): HandlerResult | undefined;
}

/** The effect of one request on `db`, with `withAnswer` (if any) in its transaction. */
export function requestEffect(db: Database, withAnswer?: WithAnswer): RequestEffect {
  let used = false;
  let committed: HandlerResult | undefined;
  const effect: Effect = async <R, A extends HandlerResult>(
    write: (commit: Commit<R>) => Promise<R>,
    answer: (result: R) => A,
  ) => {
    if (used) throw new Error("a request has one effect");
    used = true;
    let commits = 0;
    let answered: A | undefined;
    const result = await write(async (last) => {
      if (commits++ > 0) throw new Error("an effect commits once");
      let made: A | undefined;
      const written = await db.transaction(async (tx) => {
        const value = await last(tx);
        made = answer(value);
        await withAnswer?.(tx, made);
        return value;
      });
      answered = committed = made;
      return written;
    });
    // A write that returned without committing (it had nothing to write) is answered all the same.
    return answered ?? answer(result);
  };
  return { effect, committed: () => committed };
}
