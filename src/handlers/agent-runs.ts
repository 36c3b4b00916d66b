// Agent runs: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import * as runs from "../domain/agent-runs.ts";
import type { Context } from "../http/request-context.ts";
import { listed } from "./pagination.ts";

type AgentRunHandlers = Pick<Handlers<Context>, "triggerAgentRun" | "listAgentRuns" | "getAgentRun" | "cancelAgentRun">;

export const agentRunHandlers: AgentRunHandlers = {
  async triggerAgentRun({ path, body }, { db, work, partition }) {
    const run = await runs.triggerAgentRun(db, work, partition, path.project_id, body);
    return { status: 202, headers: { Location: `/v1/projects/${run.project_id}/runs/${run.id}` }, body: run };
  },

  async listAgentRuns({ path, query }, context) {
    const filters = { status: query?.status };
    return listed(context, `runs:${path.project_id}`, query, filters, (page) =>
      runs.listAgentRuns(context.db, context.partition, path.project_id, page, filters),
    );
  },

  async getAgentRun({ path }, { db, partition }) {
    return { status: 200, body: await runs.getAgentRun(db, partition, path.project_id, path.run_id) };
  },

  async cancelAgentRun({ path }, { db, partition }) {
    return { status: 200, body: await runs.cancelAgentRun(db, partition, path.project_id, path.run_id) };
  },
};
