// Published apps' addresses as the API answers them: a private project's `url` fields carry a fresh
// signed access token on every read (src/domain/app-access.ts); stored records and events keep the
// bare origin, which serves a private app to nobody.
import type { SchemaDeployment, SchemaProject } from "../../generated/schema.d.ts";
import { projectVisibility } from "../domain/projects.ts";
import type { Context } from "../http/request-context.ts";

export function presentProject(context: Context, project: SchemaProject): SchemaProject {
  return project.url ? { ...project, url: context.apps.present(project.url, project.id, project.visibility) } : project;
}

/** The deployments of one project, their urls presented for that project's visibility. */
export async function presentDeployments<T extends SchemaDeployment | SchemaDeployment[]>(
  context: Context,
  projectId: string,
  deployments: T,
): Promise<T> {
  const list: SchemaDeployment[] = Array.isArray(deployments) ? deployments : [deployments];
  if (!list.some((deployment) => deployment.url)) return deployments;
  const visibility = await projectVisibility(context.db, context.partition, projectId);
  const presented = list.map((deployment) =>
    deployment.url ? { ...deployment, url: context.apps.present(deployment.url, projectId, visibility) } : deployment,
  );
  return (Array.isArray(deployments) ? presented : presented[0]) as T;
}
