// The bodies of the contract that are not JSON, as generated/handlers.ts names them: a multipart
// request body left unread, a file answered, an event stream. Written by hand, not derived from the
// contract: the generated stubs import these types rather than each build writing them again. A
// leaf any room may use.
import type { Readable } from "node:stream";

/** A part of a multipart/form-data body that is a value. */
export interface FieldPart {
  readonly kind: "field";
  readonly name: string;
  readonly value: string;
  /** The value was longer than the limit of a field and was cut. */
  readonly truncated: boolean;
}

/** A part of a multipart/form-data body that is a file. */
export interface FilePart {
  readonly kind: "file";
  readonly name: string;
  /** The name the client gave the file; undefined when it gave none. */
  readonly filename: string | undefined;
  /** The media type the client gave the file (over HTTP, `text/plain` when it gave none). */
  readonly mimeType: string;
  /** The content as it arrives; read it to its end before asking for the next part. */
  readonly content: AsyncIterable<Buffer>;
}

export type FormPart = FieldPart | FilePart;

/**
 * A multipart/form-data request body, left unread so the handler can stream it: its parts, whichever
 * transport brought them (an HTTP body parsed as it arrives, or an MCP tool call's arguments).
 */
export interface MultipartBody {
  /** The parts in order, to be read once. */
  readonly parts: AsyncIterable<FormPart>;
  /** The length of the whole body as the client declared it (HTTP's Content-Length), if it did. */
  readonly declaredBytes: number | undefined;
  /**
   * Set once every part has been read: SHA-256 of the parts (names, filenames, media types and
   * content), however they were framed. Idempotency compares requests by it.
   */
  fingerprint?: string;
}

/**
 * A file answered: its bytes, and its name and media type as data. Over HTTP the name goes into
 * `Content-Disposition` (the contract's `Content-Type` is application/octet-stream); over MCP they
 * name and type the embedded resource.
 */
export interface FileBody {
  readonly content: Uint8Array | Readable;
  /** The file's name: the last segment of its path. */
  readonly filename: string;
  /** The file's media type, without parameters: the stored one when specific, else by extension. */
  readonly mediaType: string;
}

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
