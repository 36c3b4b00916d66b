import { fetchNextJob } from "pg-boss/dist/plans.js";
import { describe, expect, it } from "vitest";
import { cappedClaimQueue } from "./queue.ts";

describe("cappedClaimQueue", () => {
  const claim = (options: object) =>
    fetchNextJob({ schema: "pgboss", table: "job", name: "agent-run", limit: 1, ...options } as never).text;

  it("names the queue of pg-boss's claim under group concurrency with tiers, the claims it locks", () => {
    expect(cappedClaimQueue(claim({ groupConcurrency: { default: 1, tiers: { free: 1, team: 4 } } }))).toBe(
      "agent-run",
    );
  });

  it("leaves every other statement to run as it is", () => {
    expect(cappedClaimQueue(claim({}))).toBeUndefined();
    expect(cappedClaimQueue("SELECT 1")).toBeUndefined();
  });
});
