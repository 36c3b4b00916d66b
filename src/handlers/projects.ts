// Projects: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaProject } from "../../generated/schema.d.ts";
import * as projects from "../domain/projects.ts";
import * as versions from "../domain/versions.ts";
import { presentProject } from "./app-urls.ts";
import type { Context } from "../http/request-context.ts";
import { listed } from "./pagination.ts";

type ProjectHandlers = Pick<
  Handlers<Context>,
  "createProject" | "listProjects" | "getProject" | "updateProject" | "deleteProject" | "forkProject"
>;

/** A project created (by create or fork), where it can be read. */
const createdProject = (project: SchemaProject) => ({
  status: 201 as const,
  headers: { Location: `/v1/projects/${project.id}` },
  body: project,
});

export const projectHandlers: ProjectHandlers = {
  createProject: ({ body }, { db, work, partition, effect }) =>
    effect((commit) => projects.createProject(db, work, partition, body, commit), createdProject),

  async listProjects({ query }, context) {
    const filters = { status: query?.status, visibility: query?.visibility };
    return listed(context, "projects", query, filters, async (request) => {
      const page = await projects.listProjects(context.db, context.partition, request, filters);
      return { ...page, items: page.items.map((project) => presentProject(context, project)) };
    });
  },

  async getProject({ path }, context) {
    return {
      status: 200,
      body: presentProject(context, await projects.getProject(context.db, context.partition, path.project_id)),
    };
  },

  async updateProject({ path, body }, context) {
    return {
      status: 200,
      body: presentProject(context, await projects.updateProject(context.db, context.partition, path.project_id, body)),
    };
  },

  async deleteProject({ path }, { db, partition }) {
    await projects.deleteProject(db, partition, path.project_id);
    return { status: 204 };
  },

  forkProject: ({ path, body }, context) =>
    context.effect(
      (commit) => versions.forkProject(context.db, context.partition, path.project_id, body, commit),
      (project: SchemaProject) => createdProject(presentProject(context, project)),
    ),
};
