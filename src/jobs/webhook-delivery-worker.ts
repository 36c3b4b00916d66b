// Sends webhook deliveries. The deliveries are the outbox: recordEvent writes one pending row per
// subscribed endpoint in the transaction of the change itself, and this loop, in every replica,
// claims due rows with FOR UPDATE SKIP LOCKED and a lease (claimDueDeliveries), so a delivery is
// attempted by one process at a time, and again by another when its claimant dies. It is the one
// path of every delivery: events, test events and redeliveries alike.
//
// At least once: a receiver may see a delivery again (a claimant that died after sending, before
// recording), always with the same `webhook-id` (the event id) to de-duplicate with.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "pino";
import {
  claimDueDeliveries,
  recordDeliveryAttempt,
  releaseDeliveryClaims,
  RETRY_SCHEDULE_MS,
  type ClaimedDelivery,
} from "../domain/webhook-sending.ts";
import type { WebhookTargets } from "../domain/webhook-targets.ts";
import type { Database } from "../storage/index.ts";
import { ATTEMPT_TIMEOUT_MS, deliveryHeaders, sendWebhook } from "./webhook-sender.ts";

export interface DeliveryWorkerOptions {
  readonly db: Database;
  readonly targets: WebhookTargets;
  readonly logger: Logger;
  /** Attempts in flight at once in this process (WEBHOOK_CONCURRENCY). */
  readonly concurrency: number;
  /** The waits between attempts (default: the contract's schedule); tests shorten it. */
  readonly retrySchedule?: readonly number[];
  /** How often an idle worker looks for due deliveries (WEBHOOK_POLL_INTERVAL; default 250 ms). */
  readonly pollMs?: number;
  /** The longest an attempt may take (WEBHOOK_ATTEMPT_TIMEOUT; default 10 s). */
  readonly attemptTimeoutMs?: number;
  /**
   * This process owns the database alone (the embedded default): claims found at start were left
   * by a process that died, and are released at once instead of when their lease ends.
   */
  readonly soleOwner?: boolean;
}

export interface DeliveryWorker {
  /**
   * Stops claiming and waits for the attempts in flight, at most `graceMs` (default 5 s); those
   * still waiting then are abandoned unrecorded and their claims released, to be attempted again.
   */
  stop(graceMs?: number): Promise<void>;
}

/**
 * How long a claim holds: past an attempt's time limit and the recording after it, so it never
 * lapses under a live attempt; a dead claimant's deliveries are attempted again once it ends.
 */
const leaseMs = (attemptTimeoutMs: number) => attemptTimeoutMs + Math.min(5_000, attemptTimeoutMs);

export async function startDeliveryWorker(options: DeliveryWorkerOptions): Promise<DeliveryWorker> {
  const { db, logger } = options;
  const claimant = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const pollMs = options.pollMs ?? 250;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const inFlight = new Set<Promise<void>>();
  /** Aborts the attempts still in flight when a stop's grace period ends. */
  const abandon = new AbortController();
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const body = JSON.stringify(delivery.event);
    const attemptedAt = new Date();
    const result = await sendWebhook({
      url: delivery.url,
      timeoutMs: attemptTimeoutMs,
      body,
      targets: options.targets,
      signal: abandon.signal,
      headers: deliveryHeaders(delivery.event.id, body, delivery.secrets),
    });
    if (result.abandoned) {
      // The process is stopping: another claimant (or this one, restarted) attempts it again.
      await releaseDeliveryClaims(db, claimant, delivery.id);
      return;
    }
    const status = await recordDeliveryAttempt(
      db,
      delivery.id,
      claimant,
      { attemptedAt, ...result },
      options.retrySchedule ?? RETRY_SCHEDULE_MS,
    );
    logger.debug(
      { delivery_id: delivery.id, status, response_status: result.status, error: result.error },
      "webhook attempt",
    );
  }

  let polling = false;
  let pollAgain = false;

  async function poll(): Promise<void> {
    timer = undefined;
    if (stopping) return;
    polling = true;
    let claimed: ClaimedDelivery[] = [];
    const free = options.concurrency - inFlight.size;
    if (free > 0) {
      try {
        claimed = await claimDueDeliveries(db, claimant, free, leaseMs(attemptTimeoutMs));
      } catch (error) {
        logger.warn({ err: error }, "could not claim webhook deliveries");
      }
    }
    for (const delivery of claimed) {
      const running: Promise<void> = attempt(delivery)
        .catch((error: unknown) =>
          logger.error({ err: error, delivery_id: delivery.id }, "webhook attempt failed to record"),
        )
        .finally(() => {
          inFlight.delete(running);
          // A slot freed: look again at once rather than at the next tick.
          schedule(0);
        });
      inFlight.add(running);
    }
    polling = false;
    // A full claim means more may be due; so may a slot freed while this pass ran.
    const soon = pollAgain || (claimed.length > 0 && claimed.length === free);
    pollAgain = false;
    schedule(soon ? 0 : pollMs);
  }

  /** The next pass in `delayMs`, or sooner; one pass runs at a time. */
  function schedule(delayMs: number): void {
    if (stopping) return;
    if (polling) {
      if (delayMs === 0) pollAgain = true;
      return;
    }
    if (timer) {
      if (delayMs > 0) return;
      clearTimeout(timer);
    }
    timer = setTimeout(() => void poll(), delayMs);
  }

  if (options.soleOwner) {
    const released = await releaseDeliveryClaims(db);
    if (released > 0)
      logger.info({ deliveries: released }, "released webhook deliveries claimed by a previous process");
  }
  schedule(0);
  return {
    async stop(graceMs = 5_000) {
      stopping = true;
      if (timer) clearTimeout(timer);
      const grace = setTimeout(() => abandon.abort(), graceMs);
      await Promise.allSettled([...inFlight]);
      clearTimeout(grace);
    },
  };
}
