// The live event stream (GET /v1/events/stream), without HTTP: which events a stream may carry (its
// key's scopes, its filters), where it starts (now, or right after a Last-Event-ID), and the reads
// that feed it. The transport gives each stream a sink and writes what it is sent.
//
// Reads are shared: the open streams of one partition (workspace and environment) form a feed, and a
// wake-up costs that feed one query (event-positions.ts), whatever the number of its streams. A
// stream joining the feed first catches up alone from its own position, then follows the feed's.
// Wake-ups come from the database: every replica hears `events_recorded` (migration 0011,
// storage/notifications.ts) for each partition that recorded events, whichever replica recorded
// them. Events not yet passable (an older transaction is still open) are read again within 100 ms;
// while the change feed is down (every second), and every 30 s regardless, every feed reads anyway,
// so a lost notification delays an event but never loses it.
//
// Bounded: at most `perKey` streams open per key in this process (429 beyond). A reader too slow for
// its events is cut by its transport (the sink refuses), and resumes with Last-Event-ID.
import type { Logger } from "pino";
import type { EventStreamBody, EventStreamSink, ServerSentEvent } from "../stream-bodies.ts";
import type { SchemaEvent, SchemaEventType } from "../../generated/schema.d.ts";
import { EVENTS_RECORDED, type ChangeFeed } from "../storage/notifications.ts";
import type { Database } from "../storage/index.ts";
import { InvalidInputError, ScopeError, StoppingError, TooManyStreamsError } from "./errors.ts";
import { EVENT_READ_SCOPES, EVENT_TYPES } from "./events.ts";
import {
  comparePositions,
  currentPosition,
  eventsAfter,
  positionOf,
  type Position,
  type PositionedEvent,
  type StartingPoint,
} from "./event-positions.ts";
import type { Partition } from "./partition.ts";

export const DEFAULT_EVENT_STREAMS_PER_KEY = 5;

/** Events read per query; a feed further behind reads again at once. */
const BATCH = 200;
/**
 * The waits before reading again events an open transaction holds back, one after another, the last
 * repeated: what the transaction adds to an event's delay is at most 100 ms, for at most ten reads a
 * second of a feed that waits on it. (Any open transaction of the cluster holds xmin back.)
 */
const PENDING_RETRY_MS = [5, 10, 20, 40, 80, 100];
/** The wait before reading again after a read failed (the database unreachable). */
const FAILED_RETRY_MS = 1000;
/** How often every feed reads while the change feed is down (it may be missing notifications). */
const GAP_POLL_MS = 1000;
/** How often every feed reads regardless: the safety net under the notifications. */
const DEFAULT_POLL_MS = 30_000;
/** What a client refused for too many streams is told to wait. */
const RETRY_AFTER_SECONDS = 5;

export interface EventStreamsOptions {
  readonly db: Database;
  readonly changes: ChangeFeed;
  readonly logger: Logger;
  /** Streams a key may have open at once in this process (EVENT_STREAMS_PER_KEY). */
  readonly perKey?: number;
  /** How often every feed reads regardless of notifications (default 30 s). */
  readonly pollMs?: number;
}

export interface StreamRequest {
  readonly partition: Partition;
  readonly keyId: string;
  readonly scopes: readonly string[];
  readonly projectId?: string | undefined;
  readonly types?: readonly SchemaEventType[] | undefined;
  /** Resume right after this event; `param` names where it came from, for a refusal. */
  readonly lastEventId?: { readonly id: string; readonly param: string } | undefined;
}

export interface EventStreams {
  /** A stream for the request, checked (scopes, Last-Event-ID) and counted against its key; not yet following. */
  open(request: StreamRequest): Promise<EventStreamBody>;
  /** Streams open in this process. */
  readonly size: number;
  /** Ends every stream (their clients reconnect elsewhere) and opens none from now on. */
  close(): void;
}

export function createEventStreams(options: EventStreamsOptions): EventStreams {
  const { db, logger } = options;
  const perKey = options.perKey ?? DEFAULT_EVENT_STREAMS_PER_KEY;
  const feeds = new Map<string, PartitionFeed>();
  const openPerKey = new Map<string, number>();
  const streams = new Set<Stream>();
  let closed = false;

  const wakeAll = () => {
    for (const feed of feeds.values()) feed.wake();
  };
  const unsubscribe = options.changes.subscribe(
    { changed: (partition) => feeds.get(partition)?.wake(), gap: wakeAll },
    EVENTS_RECORDED,
  );
  const gapPoll = setInterval(() => {
    if (!options.changes.connected) wakeAll();
  }, GAP_POLL_MS);
  const poll = setInterval(wakeAll, options.pollMs ?? DEFAULT_POLL_MS);
  gapPoll.unref();
  poll.unref();

  function feedOf(partition: Partition): PartitionFeed {
    const key = `${partition.workspaceId}:${partition.environment}`;
    let feed = feeds.get(key);
    if (!feed) {
      const created: PartitionFeed = new PartitionFeed(db, partition, logger, () => {
        if (feeds.get(key) === created) feeds.delete(key);
      });
      feeds.set(key, created);
      feed = created;
    }
    return feed;
  }

  function release(keyId: string) {
    const count = (openPerKey.get(keyId) ?? 1) - 1;
    if (count > 0) openPerKey.set(keyId, count);
    else openPerKey.delete(keyId);
  }

  return {
    async open(request) {
      if (closed) throw new StoppingError("This server is stopping; reconnect (with Last-Event-ID) in a few seconds.");
      const types = readableTypes(request.scopes, request.types);
      let position: Position;
      let now: StartingPoint | undefined;
      if (request.lastEventId) {
        const found = await positionOf(db, request.partition, request.lastEventId.id);
        if (!found) {
          throw new InvalidInputError(
            `No event ${request.lastEventId.id} in this workspace and environment: it never was one, or it is past the events' retention. Catch up with GET /v1/events and reconnect without it.`,
            request.lastEventId.param,
          );
        }
        position = found;
      } else {
        now = await currentPosition(db);
        position = now.position;
      }
      if ((openPerKey.get(request.keyId) ?? 0) >= perKey) {
        throw new TooManyStreamsError(
          `This key already has ${perKey} event streams open, as many as it may; close one first.`,
          RETRY_AFTER_SECONDS,
        );
      }
      openPerKey.set(request.keyId, (openPerKey.get(request.keyId) ?? 0) + 1);
      const stream = new Stream(
        position,
        now,
        (event) => types.has(event.type) && (!request.projectId || projectOf(event) === request.projectId),
        () => {
          streams.delete(stream);
          release(request.keyId);
        },
      );
      streams.add(stream);
      return {
        follow(sink) {
          if (closed) {
            stream.stop();
            sink.end();
            return () => {};
          }
          stream.start(sink, feedOf(request.partition));
          return () => stream.stop();
        },
        abandon: () => stream.stop(),
      };
    },
    get size() {
      return streams.size;
    },
    close() {
      closed = true;
      unsubscribe();
      clearInterval(gapPoll);
      clearInterval(poll);
      for (const stream of [...streams]) stream.end();
    },
  };
}

/** The event types the scopes may read, narrowed to those asked for; ScopeError for any asked for beyond them. */
export function readableTypes(
  scopes: readonly string[],
  asked: readonly SchemaEventType[] | undefined,
): Set<SchemaEventType> {
  const may = (type: SchemaEventType) => scopes.includes("*") || scopes.includes(EVENT_READ_SCOPES[type]);
  if (asked && asked.length > 0) {
    const refused = asked.find((type) => !may(type));
    if (refused)
      throw new ScopeError(
        `This key lacks the scope ${EVENT_READ_SCOPES[refused]} that reading ${refused} events requires.`,
        "types",
      );
    return new Set(asked);
  }
  const readable = EVENT_TYPES.filter(may);
  if (readable.length === 0) {
    throw new ScopeError(
      "This key can read no event type: it needs one of projects:read, deployments:read, files:read or webhooks:read.",
    );
  }
  return new Set(readable);
}

/** The project an event concerns: the project itself, or its run's, deployment's or file's. */
function projectOf(event: SchemaEvent): string | undefined {
  const object = event.data.object as { id?: string; project_id?: string };
  return event.type.startsWith("project.") ? object.id : object.project_id;
}

function messageOf(event: SchemaEvent): ServerSentEvent {
  return { id: event.id, event: event.type, data: JSON.stringify(event) };
}

/** One client's stream: where it stands, what it wants, where it writes. */
class Stream {
  position: Position;
  /** A stream opened without Last-Event-ID: what had already happened then, passed unsent; dropped once behind it. */
  #openedAt: StartingPoint | undefined;
  #sink: EventStreamSink | undefined;
  #feed: PartitionFeed | undefined;
  #stopped = false;
  readonly #wants: (event: SchemaEvent) => boolean;
  readonly #onStop: () => void;

  constructor(
    position: Position,
    openedAt: StartingPoint | undefined,
    wants: (event: SchemaEvent) => boolean,
    onStop: () => void,
  ) {
    this.position = position;
    this.#openedAt = openedAt;
    this.#wants = wants;
    this.#onStop = onStop;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  start(sink: EventStreamSink, feed: PartitionFeed): void {
    if (this.#stopped) return;
    this.#sink = sink;
    this.#feed = feed;
    feed.join(this);
  }

  /** Passes the event if it lies after this stream's position; sends it if wanted. */
  offer(entry: PositionedEvent, message: () => ServerSentEvent): void {
    if (this.#stopped || comparePositions(entry.position, this.position) <= 0) return;
    this.position = entry.position;
    if (this.#openedAt) {
      if (entry.position.txid >= this.#openedAt.xmax) this.#openedAt = undefined;
      else if (this.#openedAt.endedBefore(entry.position.txid)) return;
    }
    if (this.#wants(entry.event) && !this.#sink!.send(message())) this.stop();
  }

  /** The server ends it: the client is told, by the stream's end, to reconnect. */
  end(): void {
    const sink = this.#sink;
    this.stop();
    sink?.end();
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#feed?.leave(this);
    this.#onStop();
  }
}

/** The streams of one partition, and the reads they share. Reads run one at a time. */
class PartitionFeed {
  readonly #members = new Set<Stream>();
  /** Every event up to here has been offered to every member. */
  #head: Position | undefined;
  #queue: Promise<void> = Promise.resolve();
  #wakeQueued = false;
  #retry: NodeJS.Timeout | undefined;
  #retries = 0;
  #joining = 0;

  private readonly db: Database;
  private readonly partition: Partition;
  private readonly logger: Logger;
  private readonly onEmpty: () => void;

  constructor(db: Database, partition: Partition, logger: Logger, onEmpty: () => void) {
    this.db = db;
    this.partition = partition;
    this.logger = logger;
    this.onEmpty = onEmpty;
  }

  join(stream: Stream): void {
    this.#joining += 1;
    this.#enqueue(async () => {
      try {
        await this.#catchUp(stream);
      } finally {
        this.#joining -= 1;
        this.#forgetIfEmpty();
      }
    });
  }

  leave(stream: Stream): void {
    this.#members.delete(stream);
    this.#forgetIfEmpty();
  }

  wake(): void {
    if (this.#wakeQueued) return;
    this.#wakeQueued = true;
    this.#enqueue(async () => {
      this.#wakeQueued = false;
      await this.#readShared();
    });
  }

  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error: unknown) => {
      this.logger.warn(
        { err: error, workspace_id: this.partition.workspaceId },
        "event stream read failed; reading again shortly",
      );
      this.#readAgainSoon(true);
    });
  }

  /** A stream reads alone up to the present, then follows the shared reads (which skip what it has passed). */
  async #catchUp(stream: Stream): Promise<void> {
    for (;;) {
      if (stream.stopped) return;
      const read = await eventsAfter(this.db, this.partition, stream.position, BATCH);
      for (const entry of read.events) stream.offer(entry, () => messageOf(entry.event));
      if (read.events.length === BATCH) continue;
      if (stream.stopped) return;
      // Everything passable is read, so everything up to the feed's head too (read earlier, when
      // less was passable): the shared reads from the head offer it nothing it has not passed.
      this.#head ??= stream.position;
      this.#members.add(stream);
      if (read.pending) this.#readAgainSoon();
      return;
    }
  }

  async #readShared(): Promise<void> {
    for (;;) {
      if (this.#members.size === 0 || !this.#head) return;
      const read = await eventsAfter(this.db, this.partition, this.#head, BATCH);
      for (const entry of read.events) {
        this.#head = entry.position;
        let message: ServerSentEvent | undefined;
        for (const member of this.#members) member.offer(entry, () => (message ??= messageOf(entry.event)));
      }
      if (read.events.length === BATCH) continue;
      if (read.pending) this.#readAgainSoon();
      else this.#retries = 0;
      return;
    }
  }

  /** Reads again after a short wait, longer each time in a row: an open transaction holds events back, or a read failed. */
  #readAgainSoon(failed = false): void {
    if (this.#retry) return;
    const delay = failed ? FAILED_RETRY_MS : PENDING_RETRY_MS[Math.min(this.#retries, PENDING_RETRY_MS.length - 1)]!;
    this.#retries += 1;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.wake();
    }, delay);
    this.#retry.unref();
  }

  #forgetIfEmpty(): void {
    if (this.#members.size > 0 || this.#joining > 0) return;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#head = undefined;
    this.onEmpty();
  }
}
