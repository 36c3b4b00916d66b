// Projects: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaProject } from "../../generated/schema.d.ts";
import * as projects from "../domain/projects.ts";
import type { Context } from "./context.ts";
import { paged } from "./pagination.ts";

type ProjectHandlers = Pick<Handlers<Context>, "createProject" | "listProjects" | "getProject" | "updateProject" | "deleteProject">;

export const projectHandlers: ProjectHandlers = {
  async createProject({ body }, { db, partition }) {
    const project = await projects.createProject(db, partition, body);
    return { status: 201, headers: { Location: `/v1/projects/${project.id}` }, body: project };
  },

  async listProjects({ query }, context) {
    const filters = { status: query?.status, visibility: query?.visibility };
    const list = paged<SchemaProject>(context, "projects", query, filters);
    return { status: 200, body: list.body(await projects.listProjects(context.db, context.partition, list.request, filters)) };
  },

  async getProject({ path }, { db, partition }) {
    return { status: 200, body: await projects.getProject(db, partition, path.project_id) };
  },

  async updateProject({ path, body }, { db, partition }) {
    return { status: 200, body: await projects.updateProject(db, partition, path.project_id, body) };
  },

  async deleteProject({ path }, { db, partition }) {
    await projects.deleteProject(db, partition, path.project_id);
    return { status: 204 };
  },
};
