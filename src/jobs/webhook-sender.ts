// One delivery attempt over HTTP: POST the event's JSON with its signature headers to the endpoint,
// connecting only to an address the target policy checked, within a time limit, reading at most a
// small part of the answer, following no redirect. Whatever happens, it answers what happened and
// never throws: the worker records every attempt.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { signWebhook } from "../domain/webhook-signature.ts";
import type { WebhookTargets } from "../domain/webhook-targets.ts";

export const ATTEMPT_TIMEOUT_MS = 10_000;
const USER_AGENT = "ProjectBuilder-Webhooks/1.0";
/** What is read of an answer: enough for the excerpt kept with the attempt, never a whole large body. */
const MAX_RESPONSE_BYTES = 16 * 1024;
const EXCERPT_CHARS = 1024;

export interface AttemptResult {
  readonly durationMs: number;
  /** The endpoint's HTTP status; undefined when it gave no answer. */
  readonly status?: number;
  readonly responseBody?: string;
  /** Why there was no (acceptable) answer; undefined when one came. */
  readonly error?: string;
  /** The attempt was given up before an answer, by its signal: it is not an attempt to record. */
  readonly abandoned?: boolean;
}

/**
 * The headers of one delivery attempt of an event: Standard Webhooks' `webhook-id` (the event id),
 * `webhook-timestamp` (now) and `webhook-signature` (also as `X-Svc-Signature`), signed with each
 * secret (two during a rotation), beside the JSON body's type. The one way deliveries are signed:
 * the delivery worker's and `pbs listen`'s.
 */
export function deliveryHeaders(
  eventId: string,
  body: string,
  secrets: readonly string[],
  timestamp = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const signature = secrets.map((secret) => signWebhook({ id: eventId, timestamp, body, secret })).join(" ");
  return {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
    "webhook-id": eventId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signature,
    "X-Svc-Signature": signature,
  };
}

export async function sendWebhook(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  targets: WebhookTargets;
  timeoutMs?: number;
  /** Abandons the attempt (the process is stopping): it then answers `{ abandoned: true }`. */
  signal?: AbortSignal;
}): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return { durationMs: 0, error: "the endpoint's url is not valid" };
  }
  // node:http does not look up an IP literal: check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  const refusal = isIP(literal) ? options.targets.refusal(literal) : undefined;
  if (refusal) return { durationMs: 0, error: `refused: ${refusal}` };
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { durationMs: 0, error: `refused: ${url.protocol} is not http(s)` };

  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve({ durationMs: elapsed(), ...result });
    };
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const body = Buffer.from(options.body);
    const outgoing = send(url, {
      method: "POST",
      lookup: options.targets.lookup,
      headers: { ...options.headers, "Content-Length": String(body.length) },
      agent: false,
    });
    const timer = setTimeout(
      () => finish({ error: `timed out after ${Math.round(timeoutMs / 1000)} s without an answer` }),
      timeoutMs,
    );
    if (options.signal?.aborted) finish({ abandoned: true });
    options.signal?.addEventListener("abort", () => finish({ abandoned: true }), { once: true });
    outgoing.on("error", (error: NodeJS.ErrnoException) => finish({ error: describeError(error) }));
    outgoing.on("response", (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let received = 0;
      const done = () => {
        const text = Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_CHARS);
        const redirect =
          status >= 300 && status < 400
            ? {
                error: `redirected (${status}) to ${response.headers.location ?? "nowhere"}; redirects are not followed`,
              }
            : {};
        finish({ status, responseBody: text || undefined, ...redirect });
      };
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received >= MAX_RESPONSE_BYTES) done();
      });
      response.on("end", done);
      response.on("error", done);
    });
    outgoing.end(body);
  });
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error.name === "RefusedAddressError") return `refused: ${error.message}`;
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the endpoint's host could not be resolved";
    case "ECONNRESET":
      return "the connection was reset";
    default:
      return (error.message || String(error.code)).slice(0, 500);
  }
}
