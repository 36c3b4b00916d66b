// Deployments: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaDeployment } from "../../generated/schema.d.ts";
import * as deployments from "../domain/deployments.ts";
import type { Context } from "./context.ts";
import { paged } from "./pagination.ts";

type DeploymentHandlers = Pick<Handlers<Context>, "createDeployment" | "listDeployments" | "getDeployment" | "rollbackDeployment">;

const location = (deployment: SchemaDeployment) => `/v1/projects/${deployment.project_id}/deployments/${deployment.id}`;

export const deploymentHandlers: DeploymentHandlers = {
  async createDeployment({ path, body }, { db, partition }) {
    const deployment = await deployments.createDeployment(db, partition, path.project_id, body);
    return { status: 202, headers: { Location: location(deployment) }, body: deployment };
  },

  async listDeployments({ path, query }, context) {
    const filters = { target: query?.target, status: query?.status };
    const list = paged<SchemaDeployment>(context, `deployments:${path.project_id}`, query, filters);
    const page = await deployments.listDeployments(context.db, context.partition, path.project_id, list.request, filters);
    return { status: 200, body: list.body(page) };
  },

  async getDeployment({ path }, { db, partition }) {
    return { status: 200, body: await deployments.getDeployment(db, partition, path.project_id, path.deployment_id) };
  },

  async rollbackDeployment({ path }, { db, partition }) {
    const deployment = await deployments.rollbackDeployment(db, partition, path.project_id, path.deployment_id);
    return { status: 202, headers: { Location: location(deployment) }, body: deployment };
  },
};
