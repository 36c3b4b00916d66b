// How an agent run looks from outside: its contract object, and the status it gives its project.
// Apart from agent-runs.ts so that projects.ts, which shows a project's latest run, need not import
// the runs' rules (which look projects up): no circle between the two.
import type { SchemaAgentRun, SchemaAgentRunStatus, SchemaProjectStatus } from "../../generated/schema.d.ts";
import type { agentRuns } from "../storage/schema.ts";
import { iso, isoOrNull } from "./partition.ts";

export type AgentRunRow = typeof agentRuns.$inferSelect;

/** The project status that mirrors a run's status. */
export const projectStatusOf: Record<SchemaAgentRunStatus, SchemaProjectStatus> = {
  queued: "queued",
  running: "building",
  succeeded: "ready",
  failed: "failed",
  canceled: "canceled",
};

export function toAgentRun(row: AgentRunRow): SchemaAgentRun {
  return {
    id: row.id,
    project_id: row.projectId,
    agent: row.agent,
    prompt: row.prompt,
    trigger: row.trigger,
    status: row.status,
    credits_used: row.creditsUsed,
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "" } : null,
    summary: row.summary,
    created_at: iso(row.createdAt),
    started_at: isoOrNull(row.startedAt),
    finished_at: isoOrNull(row.finishedAt),
    updated_at: iso(row.updatedAt),
  };
}
