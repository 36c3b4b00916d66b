// The bodies of the contract that are not JSON, as generated/handlers.ts names them: a multipart
// request body left unread, a binary response body, an event stream. Written by hand, not derived
// from the contract: the generated stubs import these types rather than each build writing them
// again. A leaf any room may use.
import type { Readable } from "node:stream";

/** A multipart/form-data request body, left unread so the handler can stream it. */
export interface MultipartBody {
  contentType: string;
  stream: Readable;
  /**
   * Set by the reader once the whole body has been read: SHA-256 of its parts (names, filenames,
   * media types and content), whatever boundary the client chose. Idempotency compares requests by it.
   */
  fingerprint?: string;
}

/** A binary response body: bytes, or a stream of them. */
export type BinaryBody = Uint8Array | Readable;

/** One server-sent event: its `id`, its `event` type and its `data` (one line of JSON). */
export interface ServerSentEvent {
  id: string;
  event: string;
  data: string;
}

/** Where a `text/event-stream` body writes, given by the transport. */
export interface EventStreamSink {
  /** Sends one event; false once the reader has fallen too far behind and the transport closed it. */
  send(event: ServerSentEvent): boolean;
  /** Ends the stream from the server's side (the server is stopping). */
  end(): void;
}

/** A `text/event-stream` response body: sends events to the sink until either side ends it. */
export interface EventStreamBody {
  /** Starts sending; the function it returns stops (the reader left, or the transport closed it). */
  follow(sink: EventStreamSink): () => void;
  /** The transport will not follow it (the client left first): frees what it holds. */
  abandon(): void;
}
