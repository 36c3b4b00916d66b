// A `text/event-stream` answer over HTTP (server-sent events): the response's headers go at once,
// then each event as `id:`/`event:`/`data:` lines and a blank line, and a comment line every
// heartbeat interval so that proxies do not close a quiet connection.
//
// Never buffered without limit: a write is queued in the socket when the reader is slower than its
// events, and once more than `maxBufferedBytes` wait there, the response is destroyed (the client
// resumes with Last-Event-ID). The stream stops when the client leaves, and ends cleanly (the last
// chunk sent) when the server stops.
import type { ServerResponse } from "node:http";
import type { EventStreamBody, ServerSentEvent } from "../stream-bodies.ts";

export interface EventStreamSettings {
  /** A comment line is sent after this long without a write (EVENT_STREAM_HEARTBEAT, e.g. `15s`: the default). */
  readonly heartbeatMs: number;
  /** Bytes a reader may leave unread before it is disconnected (default 1 MiB). */
  readonly maxBufferedBytes: number;
}

export const DEFAULT_EVENT_STREAM_SETTINGS: EventStreamSettings = Object.freeze({
  heartbeatMs: 15_000,
  maxBufferedBytes: 1024 * 1024,
});

export function isEventStream(body: unknown): body is EventStreamBody {
  return typeof (body as EventStreamBody | null)?.follow === "function";
}

/** One message in the format of WHATWG HTML §9.2 (`data` is one line of JSON, so one `data:` line). */
export function formatEvent(event: ServerSentEvent): string {
  return `id: ${event.id}\nevent: ${event.event}\ndata: ${event.data}\n\n`;
}

/**
 * Sends the headers (already set on `response`) and follows the stream until either side ends it.
 * Returns once the headers are written: the stream goes on after.
 */
export function writeEventStream(response: ServerResponse, body: EventStreamBody, settings: EventStreamSettings): void {
  response.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  response.setHeader("Cache-Control", "no-cache, no-transform");
  // nginx buffers responses unless told not to; an event held there is late.
  response.setHeader("X-Accel-Buffering", "no");
  response.flushHeaders();
  // Small writes, sent as soon as written.
  response.socket?.setNoDelay(true);

  let stop: () => void = () => {};
  // Re-armed by every write (refresh()), so it fires only after a full interval without one.
  const heartbeat = setTimeout(() => write(": heartbeat\n\n"), settings.heartbeatMs);
  heartbeat.unref();

  const finish = () => {
    clearTimeout(heartbeat);
    stop();
  };
  response.once("close", finish);

  function write(text: string): boolean {
    if (response.destroyed || response.writableEnded) return false;
    response.write(text);
    heartbeat.refresh();
    if (response.writableLength > settings.maxBufferedBytes) {
      // The reader is too far behind: cut it rather than keep its events in memory.
      response.destroy();
      return false;
    }
    return true;
  }

  stop = body.follow({
    send: (event) => write(formatEvent(event)),
    end: () => {
      clearTimeout(heartbeat);
      if (!response.destroyed && !response.writableEnded) response.end();
    },
  });
  if (response.destroyed) finish();
}
