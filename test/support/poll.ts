// Waiting on the API for work that finishes after a request returns (runs, deployments).
import { expect } from "vitest";
import type { ApiClient } from "./api-client.ts";

/** Polls `path` until `done` holds for its body (or fails after `timeoutMs`). */
export async function pollUntil<T>(
  client: ApiClient,
  path: string,
  done: (body: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await client.get<T>(path);
    expect(status).toBe(200);
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`timed out waiting on ${path}: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A run's or deployment's status is final (neither queued nor in progress). */
export const final = (body: { status: string }) => !["queued", "building", "running"].includes(body.status);
