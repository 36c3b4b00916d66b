// How an agent run looks from outside: its contract object, and the status it gives its project.
// Apart from agent-runs.ts so that projects.ts, which shows a project's latest run, need not import
// the runs' rules (which look projects up): no circle between the two.
import type { SchemaAgentRun, SchemaAgentRunStatus, SchemaProjectStatus } from "../../generated/schema.d.ts";
import type { agentRuns } from "../storage/schema.ts";
import { contractFields, errorOf } from "./contract-fields.ts";
import { NotFoundError } from "./errors.ts";

export type AgentRunRow = typeof agentRuns.$inferSelect;

/** The project has no run with this id. */
export const runNotFound = (projectId: string, runId: string) =>
  new NotFoundError(`No agent run ${runId} in project ${projectId}.`, "run_id");

/** The statuses of a run that is not final: a project has at most one such run. */
export const activeStatuses: SchemaAgentRunStatus[] = ["queued", "running"];

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
    ...contractFields(row, ["id", "projectId", "agent", "prompt", "trigger", "status", "creditsUsed"]),
    error: errorOf(row),
    ...contractFields(row, ["summary", "versionId", "attachments", "maxCredits"]),
    ...contractFields(row, ["createdAt", "startedAt", "finishedAt", "updatedAt"]),
  };
}
