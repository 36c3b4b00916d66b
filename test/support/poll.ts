// Waiting on the API for work that finishes after a request returns (runs, deployments).
import { expect } from "vitest";
import type { ApiClient, ApiResponse, BodyAt, ResponseTo } from "./api-client.ts";

/** What a GET of `P` answers when it succeeds. */
type Read<P extends string> = BodyAt<ResponseTo<"GET", P>, 200>;

/** Polls `path` until `done` holds for its body (or fails after `timeoutMs`). */
export async function pollUntil<P extends string>(
  client: ApiClient,
  path: P,
  done: (body: Read<P>) => boolean,
  timeoutMs = 20_000,
): Promise<Read<P>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body }: ApiResponse = await client.get(path);
    expect(status).toBe(200);
    if (done(body as Read<P>)) return body as Read<P>;
    if (Date.now() > deadline) throw new Error(`timed out waiting on ${path}: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A run's or deployment's status is final (neither queued nor in progress). */
export const final = (body: { status: string }) => !["queued", "building", "running"].includes(body.status);
