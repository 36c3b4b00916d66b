// Vitest global setup: where this run's slices of ports start (test/support/net.ts). Chosen at
// random per run, so that two runs on one machine (two checkouts, say) mostly use different slices,
// as their workers (numbered 1, 2, … in each run) would otherwise pick from the same ones.
import { randomInt } from "node:crypto";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Added to a worker's number to find its slice of ports. */
    portSliceOffset: number;
  }
}

export default function setup(project: TestProject): void {
  project.provide("portSliceOffset", randomInt(1_000_000));
}
