// The Idempotency-Key step of the pipeline (pipeline.ts calls it for a creating request that carries
// one): claim the key, replay a stored answer, or run the handler and store its answer in the
// transaction of its effect (request-transaction.ts). The key's table and its rules: idempotency.ts.
import type { Logger } from "pino";
import type { OperationId } from "../../generated/handlers.ts";
import type { MultipartBody } from "../stream-bodies.ts";
import type { RequestServices } from "./request-context.ts";
import type { Database, Queryable } from "../storage/index.ts";
import { BodyError, HttpError, errorBody, toHttpError } from "./errors.ts";
import * as idempotency from "./idempotency.ts";
import { fingerprintOf } from "./multipart.ts";
import { requestEffect, type Effect, type HandlerResult } from "./request-transaction.ts";

/**
 * How an operation's successful answer is stored for its Idempotency-Key when it carries a secret
 * (the handlers' answerSeals, src/handlers/stored-answers.ts): sealed when stored, opened on replay.
 */
export interface AnswerSeal {
  /** The body to store in place of a successful answer's body. */
  seal(body: unknown): unknown;
  /** The body to replay from a stored one; HttpError when it cannot be given again. */
  open(stored: unknown, context: RequestServices): Promise<unknown>;
}

/** What the step needs of the pipeline's dependencies. */
export interface IdempotentCallDeps {
  readonly idempotencyDb: Database;
  readonly answerSeals: Partial<Record<OperationId, AnswerSeal>>;
  readonly idempotencyOptions?: idempotency.IdempotencyOptions;
  readonly logger: Logger;
}

export interface IdempotentCall {
  readonly operationId: OperationId;
  readonly context: RequestServices;
  /** The handler, with the effect it is to make its writes through. */
  readonly run: (effect: Effect) => Promise<HandlerResult>;
  readonly scope: Omit<idempotency.BeginInput, "requestHash">;
  /** The parsed JSON body, or the multipart body still to be read. */
  readonly body: unknown;
}

/**
 * Runs a creating request at most once per Idempotency-Key and replays its stored answer after. The
 * handler's effect and its stored answer commit in one transaction (request-transaction.ts); an
 * answer made without an effect (a refusal) is stored alone. While the handler runs, its claim is
 * renewed, so a long upload keeps it. Not stored: server errors, and refusals of a body that could
 * not be received (cut short, malformed, too large) — the retry then runs again. A multipart body
 * is told apart by its fingerprint (its parts' content, hashed while read), so its hash is compared
 * once it has been read.
 */
export async function idempotently(deps: IdempotentCallDeps, call: IdempotentCall): Promise<HandlerResult> {
  const { idempotencyDb: db, answerSeals, idempotencyOptions: options } = deps;
  const { method, path } = call.scope;
  const multipart = isMultipart(call.body) ? call.body : undefined;
  const hashOf = (body: unknown) => idempotency.requestHash({ method, path, body });
  const seal = answerSeals[call.operationId];

  const claim = await idempotency.begin(
    db,
    { ...call.scope, requestHash: multipart ? null : hashOf(call.body) },
    options,
  );
  switch (claim.kind) {
    case "replay": {
      if (multipart && hashOf({ multipart: await fingerprintOf(multipart) }) !== claim.requestHash) throw keyReused();
      const body = seal && claim.status < 300 ? await seal.open(claim.body, call.context) : claim.body;
      return {
        status: claim.status,
        headers: { ...claim.headers, [idempotency.IDEMPOTENT_REPLAYED_HEADER]: "true" },
        body,
      };
    }
    case "in_use":
      throw keyInUse();
    case "mismatch":
      throw keyReused();
  }

  const { lease } = claim;
  /** Stores `answer` for the key on `on`; LeaseLost when the key is no longer this request's. */
  const store = async (on: Queryable, answer: HandlerResult) => {
    if (multipart && multipart.fingerprint === undefined)
      throw new Error("an upload's answer was made before its body had been read to the end");
    const stored = {
      status: answer.status,
      headers: stringHeaders(answer.headers),
      body: seal && answer.status < 300 ? seal.seal(answer.body) : answer.body,
    };
    const requestHash = multipart ? hashOf({ multipart: multipart.fingerprint }) : undefined;
    if (!(await idempotency.complete(on, lease, stored, { ...options, requestHash }))) throw new LeaseLost();
  };
  const work = requestEffect(db, store);
  const renewal = keepClaimed(db, lease, deps.logger, options);
  let result: HandlerResult;
  try {
    result = await call.run(work.effect);
  } catch (error) {
    // Held past its lease, the key went to a retry, which carries the request out instead of this one.
    if (error instanceof LeaseLost) throw keyInUse();
    const failure = toHttpError(error);
    if (!failure || failure.status >= 500 || failure instanceof BodyError) {
      await release(db, lease);
      throw error;
    }
    result = {
      status: failure.status,
      headers: failure.headers,
      body: errorBody(failure.code, failure.message, failure.param, call.context.requestId),
    };
  } finally {
    renewal.stop();
  }
  if (work.committed()) return result;
  if (result.status >= 500 || (multipart && multipart.fingerprint === undefined)) {
    await release(db, lease);
    return result;
  }
  try {
    await store(db, result);
  } catch (error) {
    if (error instanceof LeaseLost) throw keyInUse();
    await release(db, lease);
    throw error;
  }
  return result;
}

class LeaseLost extends Error {}

/**
 * Frees the key of a request that stored nothing, so a retry may run at once. Best effort: when the
 * database cannot be reached, the claim frees itself when its lease runs out.
 */
async function release(db: Database, lease: idempotency.IdempotencyLease): Promise<void> {
  await idempotency.abandon(db, lease).catch(() => undefined);
}

const keyInUse = () =>
  new HttpError(
    409,
    "idempotency_key_in_use",
    "A request with this Idempotency-Key is still being processed; retry later.",
    "Idempotency-Key",
  );

const keyReused = () =>
  new HttpError(
    422,
    "idempotency_key_reused",
    "This Idempotency-Key was used with a different request in the last 24 hours; use a new key.",
    "Idempotency-Key",
  );

function isMultipart(body: unknown): body is MultipartBody {
  const parts = (body as Partial<MultipartBody> | null | undefined)?.parts;
  return typeof parts?.[Symbol.asyncIterator] === "function";
}

/**
 * Renews a claim every third of its lock timeout until stopped; a renewal that fails is tried again
 * at the next. Not awaited: on PGlite a renewal waits while the effect's transaction holds the connection.
 */
function keepClaimed(
  db: Database,
  lease: idempotency.IdempotencyLease,
  logger: Logger,
  options: idempotency.IdempotencyOptions = {},
) {
  const timer = setInterval(
    () =>
      void idempotency
        .renew(db, lease, options)
        .catch((error: unknown) => logger.warn({ err: error }, "idempotency claim not renewed")),
    (options.lockTimeoutMs ?? idempotency.IDEMPOTENCY_LOCK_TIMEOUT_MS) / 3,
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Header values as the transports write them: strings, the undefined ones left out. */
export function stringHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
}
