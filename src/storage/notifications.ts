// Change notifications from the database itself (LISTEN/NOTIFY), for caches that must forget at once
// what another writer changed: triggers (migration 0005) announce every change to a credential on
// the channel `principal_changes`, whoever made it — this process, another replica, `pbs`, or SQL.
//
// Ordering, which the caches' correctness rests on:
// - A session hears its own notifications at commit, before the COMMIT's answer reaches the caller
//   (measured on both drivers). So on PostgreSQL every pooled connection LISTENs too, and passes on
//   what it made itself: a change this process commits has reached its listeners before the code that
//   made it carries on, and a request that follows it can never meet a stale cache entry here.
// - Other processes hear a change as soon as PostgreSQL delivers it to their own listening connection,
//   a dedicated one that survives pool churn. While that connection is down nothing can be trusted:
//   the feed reports a gap (on losing it and again on regaining it) and caches drop everything and
//   stop caching until `connected` is true again.
// PGlite is one process on one connection: it hears everything, always.
//
// A second channel, `events_recorded` (migration 0011), wakes the live event streams
// (src/domain/event-stream.ts) when a partition records events; a gap tells them to read anyway.
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export const PRINCIPAL_CHANGES = "principal_changes";
export const EVENTS_RECORDED = "events_recorded";
const CHANNELS = [PRINCIPAL_CHANGES, EVENTS_RECORDED] as const;
export type Channel = (typeof CHANNELS)[number];

export interface ChangeSubscriber {
  /** A change was committed; the payload says which (see migration 0005). */
  changed(payload: string): void;
  /** Changes may have been missed (the feed's connection was lost or has just come back). */
  gap(): void;
}

export interface ChangeFeed {
  /** True while every committed change is heard. */
  readonly connected: boolean;
  /** Starts delivering `channel`'s changes (default: credentials') to `subscriber`; returns the function that stops it. */
  subscribe(subscriber: ChangeSubscriber, channel?: Channel): () => void;
  close(): Promise<void>;
}

class Subscribers {
  readonly #byChannel = new Map<string, Set<ChangeSubscriber>>(CHANNELS.map((channel) => [channel, new Set()]));
  add(subscriber: ChangeSubscriber, channel: Channel = PRINCIPAL_CHANGES): () => void {
    const subscribers = this.#byChannel.get(channel)!;
    subscribers.add(subscriber);
    return () => void subscribers.delete(subscriber);
  }
  changed(channel: string, payload: string): void {
    for (const subscriber of this.#byChannel.get(channel) ?? []) subscriber.changed(payload);
  }
  gap(): void {
    for (const subscribers of this.#byChannel.values()) for (const subscriber of subscribers) subscriber.gap();
  }
}

export async function pgliteChangeFeed(client: PGlite): Promise<ChangeFeed> {
  const subscribers = new Subscribers();
  const unlisten = await Promise.all(
    CHANNELS.map((channel) => client.listen(channel, (payload) => subscribers.changed(channel, payload))),
  );
  return {
    connected: true,
    subscribe: (subscriber, channel) => subscribers.add(subscriber, channel),
    close: () => Promise.all(unlisten.map((stop) => stop().catch(() => {}))).then(() => {}),
  };
}

/** How long to wait before each attempt to reconnect the feed's own connection. */
const RECONNECT_DELAYS_MS = [100, 250, 500, 1000, 2000, 5000];

export interface PostgresChangeFeed extends ChangeFeed {
  /** The pool's `onConnect` hook: makes each pooled connection hear this process's own changes. */
  listenOn(client: pg.ClientBase): Promise<void>;
}

/** A feed over `url`; its own connection opens on the first subscription. */
export function postgresChangeFeed(url: string): PostgresChangeFeed {
  const subscribers = new Subscribers();
  let connected = false;
  let closed = false;
  let started = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  // Each change is delivered once: by the pooled connection that made it (at its commit), or by the
  // feed's own connection when another process made it.
  const pooledBackends = new Set<number>();
  const deliver = (message: pg.Notification) => {
    subscribers.changed(message.channel, message.payload ?? "*");
  };
  const onNotification = (message: pg.Notification) => {
    if (!pooledBackends.has(message.processId)) deliver(message);
  };

  async function connect(attempt: number): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      client.end().catch(() => {});
      if (listener === client) {
        listener = undefined;
        connected = false;
        subscribers.gap();
      }
      if (!closed) scheduleConnect(attempt + 1);
    };
    client.on("error", onLost);
    client.on("end", onLost);
    client.on("notification", onNotification);
    try {
      await client.connect();
      for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
    } catch {
      onLost();
      return;
    }
    if (closed || lost) return void client.end().catch(() => {});
    listener = client;
    connected = true;
    // What changed while nobody listened is unknown: subscribers start afresh.
    if (attempt > 0) subscribers.gap();
  }

  function scheduleConnect(attempt: number) {
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    retry = setTimeout(() => void connect(attempt), delay);
    retry.unref();
  }

  return {
    get connected() {
      return connected;
    },
    subscribe(subscriber, channel) {
      if (!started) {
        started = true;
        void connect(0);
      }
      return subscribers.add(subscriber, channel);
    },
    async listenOn(client) {
      const backend = (client as pg.ClientBase & { processID: number }).processID;
      pooledBackends.add(backend);
      client.on("end", () => pooledBackends.delete(backend));
      client.on("notification", (message) => {
        if (message.processId === backend) deliver(message);
      });
      for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      connected = false;
      await listener?.end().catch(() => {});
      listener = undefined;
    },
  };
}
