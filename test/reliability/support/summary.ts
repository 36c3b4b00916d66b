// What each reliability check tried and verified, for the table printed at the end of the run
// (summary-setup.ts). A check records its counts before it asserts, so a failing run still shows
// what was lost or duplicated.
import { appendFileSync } from "node:fs";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The JSON-lines file the reliability suites append their results to. */
    reliabilityResults: string;
  }
}

export interface ReliabilityResult {
  /** The check, e.g. "crash [pglite]". */
  readonly check: string;
  /** Requests or generated inputs sent. */
  readonly cases: number;
  /** Faults injected: kills, cuts, slow or abusive connections. */
  readonly faults: number;
  /** Writes the server acknowledged (2xx) and that were looked for afterwards. */
  readonly acknowledged: number;
  /** Acknowledged writes not found afterwards. */
  readonly lost: number;
  /** Resources found twice where one was asked for (an idempotency key that gave two). */
  readonly duplicated: number;
}

/** Appends one check's counts to this run's results. */
export function recordResult(result: ReliabilityResult): void {
  appendFileSync(inject("reliabilityResults"), `${JSON.stringify(result)}\n`);
}

/** Markdown table: one row per check (counts of the same check added up) and a total. */
export function summaryTable(results: readonly ReliabilityResult[]): string {
  const columns = ["cases", "faults", "acknowledged", "lost", "duplicated"] as const;
  const byCheck = new Map<string, Record<(typeof columns)[number], number>>();
  for (const result of results) {
    const row = byCheck.get(result.check) ?? { cases: 0, faults: 0, acknowledged: 0, lost: 0, duplicated: 0 };
    for (const column of columns) row[column] += result[column];
    byCheck.set(result.check, row);
  }
  const total = { cases: 0, faults: 0, acknowledged: 0, lost: 0, duplicated: 0 };
  for (const row of byCheck.values()) for (const column of columns) total[column] += row[column];
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [
    line(["check", "cases tried", "faults injected", "acknowledged writes checked", "lost", "duplicated"]),
    line(["---", "---:", "---:", "---:", "---:", "---:"]),
    ...[...byCheck]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([check, row]) => line([check, ...columns.map((column) => row[column])])),
    line(["**total**", ...columns.map((column) => `**${total[column]}**`)]),
  ].join("\n");
}
