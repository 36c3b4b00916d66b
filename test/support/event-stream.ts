// A reader of GET /v1/events/stream for tests: the raw server-sent events as they arrive (messages and
// comment lines), over its own connection so a test can leave it unread, close it, or see it end.
import { request, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { PoolClient } from "pg";
import type { components } from "../../generated/schema.d.ts";
import { findWorkspaceBySlug } from "../../src/domain/workspaces.ts";
import type { TestServer } from "./server.ts";

type Event = components["schemas"]["Event"];

export interface StreamMessage<E extends Event = Event> {
  readonly id: string;
  readonly event: string;
  readonly data: E;
}

export interface OpenedStream {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Every message so far, in order. */
  readonly messages: StreamMessage[];
  /** Every comment line so far (without the leading colon). */
  readonly comments: string[];
  /** Resolves with the messages once `done` holds for them (rejects after `timeoutMs`). */
  until(done: (messages: StreamMessage[]) => boolean, timeoutMs?: number): Promise<StreamMessage[]>;
  /** Resolves once a comment has arrived. */
  nextComment(timeoutMs?: number): Promise<string>;
  /** Resolves when the server ended the stream: `end` when it finished cleanly, `aborted` when cut. */
  readonly ended: Promise<"end" | "aborted">;
  /** The body of a refusal (not a stream). */
  readonly body: Promise<unknown>;
  close(): void;
  readonly response: IncomingMessage;
}

export async function openStream(
  baseUrl: string,
  key: string,
  query = "",
  headers: Record<string, string> = {},
): Promise<OpenedStream> {
  const url = new URL(`/v1/events/stream${query}`, baseUrl);
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = request(
      url,
      { agent: false, headers: { Authorization: `Bearer ${key}`, Accept: "text/event-stream", ...headers } },
      resolve,
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
  const messages: StreamMessage[] = [];
  const comments: string[] = [];
  let waiters: (() => void)[] = [];
  const notify = () => {
    const current = waiters;
    waiters = [];
    for (const waiter of current) waiter();
  };
  const streaming =
    response.statusCode === 200 && String(response.headers["content-type"]).startsWith("text/event-stream");
  let raw = "";
  let buffer = "";
  response.setEncoding("utf8");
  const ended = new Promise<"end" | "aborted">((resolve) => {
    response.on("end", () => resolve("end"));
    response.on("aborted", () => resolve("aborted"));
    response.on("error", () => resolve("aborted"));
    response.on("close", () => resolve(response.complete ? "end" : "aborted"));
  });
  response.on("data", (chunk: string) => {
    if (!streaming) return void (raw += chunk);
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields: Record<string, string> = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) comments.push(line.slice(1).trim());
        else {
          const colon = line.indexOf(":");
          fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, "");
        }
      }
      if (fields.data !== undefined)
        messages.push({ id: fields.id!, event: fields.event!, data: JSON.parse(fields.data) });
    }
    notify();
  });
  const waitFor = async <T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = check();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`timed out waiting for ${what}; messages so far: ${messages.map((m) => m.event).join(", ")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  let commentsSeen = 0;
  return {
    status: response.statusCode!,
    headers: response.headers,
    messages,
    comments,
    response,
    ended,
    body: ended.then((): unknown => (raw ? JSON.parse(raw) : undefined)),
    until: (done, timeoutMs = 15_000) =>
      waitFor(() => (done(messages) ? messages : undefined), timeoutMs, "the messages expected"),
    nextComment: (timeoutMs = 5_000) =>
      waitFor(() => comments[commentsSeen++] ?? ((commentsSeen -= 1), undefined), timeoutMs, "a comment"),
    close: () => response.destroy(),
  };
}

/** The events of a type, in order. */
export const ofType = <T extends Event["type"]>(messages: StreamMessage[], type: T) =>
  messages.filter((message): message is StreamMessage<Extract<Event, { type: T }>> => message.event === type);

/** The fields of an event's object that tests pick from, whichever of them its type has. */
export const objectOf = (message: StreamMessage): { id?: string; project_id?: string; webhook_endpoint_id?: string } =>
  message.data.data.object;

/**
 * PostgreSQL only: a transaction that has recorded a `webhook.test` event in the workspace with this
 * slug (its id `eventId`, its object's webhook_endpoint_id `endpointId`) and stays open, keeping every
 * snapshot's xmin at its id, until the test commits it. Release it in a `finally`.
 */
export async function openOlderTransaction(
  server: TestServer,
  workspaceSlug: string,
  eventId: string,
  endpointId: string,
): Promise<PoolClient> {
  if (server.storage.driver !== "postgres") throw new Error("PostgreSQL only");
  const workspace = await findWorkspaceBySlug(server.storage.db, workspaceSlug);
  if (!workspace) throw new Error(`no workspace ${workspaceSlug}`);
  const older = await server.storage.pool.connect();
  try {
    await older.query("begin");
    await older.query(
      `insert into events (id, workspace_id, environment, type, data, created_at) values ($1, $2, 'live', 'webhook.test', $3, now())`,
      [eventId, workspace.id, JSON.stringify({ message: "older", webhook_endpoint_id: endpointId })],
    );
    return older;
  } catch (error) {
    older.release();
    throw error;
  }
}
