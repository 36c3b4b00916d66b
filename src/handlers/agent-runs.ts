// Agent runs: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaAgentRun } from "../../generated/schema.d.ts";
import * as runs from "../domain/agent-runs.ts";
import type { Context } from "../http/request-context.ts";
import { listed } from "./pagination.ts";
import { ok } from "./ok.ts";

type AgentRunHandlers = Pick<Handlers<Context>, "triggerAgentRun" | "listAgentRuns" | "getAgentRun" | "cancelAgentRun">;

export const agentRunHandlers: AgentRunHandlers = {
  triggerAgentRun: ({ path, body }, { db, work, partition, effect }) =>
    effect(
      (commit) => runs.triggerAgentRun(db, work, partition, path.project_id, body, commit),
      (run: SchemaAgentRun) => ({
        status: 202,
        headers: { Location: `/v1/projects/${run.project_id}/runs/${run.id}` },
        body: run,
      }),
    ),

  async listAgentRuns({ path, query }, context) {
    const filters = { status: query?.status };
    return listed(context, `runs:${path.project_id}`, query, filters, (page) =>
      runs.listAgentRuns(context.db, context.partition, path.project_id, page, filters),
    );
  },

  getAgentRun: ({ path }, { db, partition }) => ok(runs.getAgentRun(db, partition, path.project_id, path.run_id)),

  cancelAgentRun: ({ path }, { db, partition }) => ok(runs.cancelAgentRun(db, partition, path.project_id, path.run_id)),
};
