// Vitest global setup: hands the reliability suites a file to append their results to (one JSON
// line per check, see support/summary.ts) and, when the run ends, prints what they tried and
// checked as one table, also written to RELIABILITY_SUMMARY (default: the OS temp directory) so
// that a report can quote the last run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { summaryTable, type ReliabilityResult } from "./support/summary.ts";

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "pbs-reliability-"));
  const results = join(dir, "results.jsonl");
  writeFileSync(results, "");
  project.provide("reliabilityResults", results);
  return () => {
    const rows = readFileSync(results, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ReliabilityResult);
    rmSync(dir, { recursive: true, force: true });
    if (rows.length === 0) return;
    const table = summaryTable(rows);
    const target = process.env.RELIABILITY_SUMMARY?.trim() || join(tmpdir(), "pbs-reliability-summary.md");
    writeFileSync(target, `${table}\n`);
    console.log(`\nReliability suite (also in ${target}):\n\n${table}\n`);
  };
}
