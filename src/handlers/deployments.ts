// Deployments: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaDeployment } from "../../generated/schema.d.ts";
import * as deployments from "../domain/deployments.ts";
import { presentDeployments } from "./app-urls.ts";
import type { Context } from "../http/request-context.ts";
import { listed } from "./pagination.ts";

type DeploymentHandlers = Pick<
  Handlers<Context>,
  "createDeployment" | "listDeployments" | "getDeployment" | "rollbackDeployment"
>;

/** A deployment queued, where it can be watched. */
const accepted = (deployment: SchemaDeployment) => ({
  status: 202 as const,
  headers: { Location: `/v1/projects/${deployment.project_id}/deployments/${deployment.id}` },
  body: deployment,
});

export const deploymentHandlers: DeploymentHandlers = {
  createDeployment: ({ path, body }, { db, work, partition, effect }) =>
    effect((commit) => deployments.createDeployment(db, work, partition, path.project_id, body, commit), accepted),

  async listDeployments({ path, query }, context) {
    const filters = { target: query?.target, status: query?.status };
    return listed(context, `deployments:${path.project_id}`, query, filters, async (request) => {
      const page = await deployments.listDeployments(context.db, context.partition, path.project_id, request, filters);
      return { ...page, items: await presentDeployments(context, path.project_id, page.items) };
    });
  },

  async getDeployment({ path }, context) {
    const deployment = await deployments.getDeployment(
      context.db,
      context.partition,
      path.project_id,
      path.deployment_id,
    );
    return { status: 200, body: await presentDeployments(context, path.project_id, deployment) };
  },

  rollbackDeployment: ({ path }, { db, work, partition, effect }) =>
    effect(
      (commit) => deployments.rollbackDeployment(db, work, partition, path.project_id, path.deployment_id, commit),
      accepted,
    ),
};
