// What every handler receives besides its typed input: the caller, its partition, and the services
// of the running server. The pipeline makes it (src/http/pipeline.ts); the handlers (src/handlers/)
// and the idempotency step read it, so it lives down here with the pipeline, not beside the handlers.
import type { Logger } from "pino";
import type { AppAccess } from "../domain/app-access.ts";
import type { EventStreams } from "../domain/event-stream.ts";
import type { DiffFiles } from "../domain/file-diff.ts";
import type { Principal } from "../domain/keys.ts";
import type { Partition } from "../domain/partition.ts";
import type { WebhookTargets } from "../domain/webhook-targets.ts";
import type { WorkQueue } from "../domain/work-queue.ts";
import type { CursorCodec } from "./cursor.ts";
import type { Database } from "../storage/index.ts";
import type { Effect } from "./request-transaction.ts";

export interface Context {
  readonly db: Database;
  /**
   * The transaction of the request's effect, asked for by name (request-transaction.ts): its last
   * write and, with an Idempotency-Key, its stored answer commit together.
   */
  readonly effect: Effect;
  readonly principal: Principal;
  readonly partition: Partition;
  readonly requestId: string;
  readonly log: Logger;
  readonly cursors: CursorCodec;
  /** Queues agent runs and deployment builds with the transaction that creates them. */
  readonly work: WorkQueue;
  /** Published apps' origins and private-app access tokens. */
  readonly apps: AppAccess;
  /** Which webhook URLs deliveries may go to. */
  readonly webhookTargets: WebhookTargets;
  /** This process's live event streams (GET /v1/events/stream). */
  readonly eventStreams: EventStreams;
  /** Works out a version diff's patches in a thread, never on this event loop. */
  readonly diffFiles: DiffFiles;
}

/** What the server gives every request's context; the pipeline adds the request's effect. */
export type RequestServices = Omit<Context, "effect">;
