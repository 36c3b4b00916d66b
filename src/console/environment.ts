// Which partition a page shows (webhooks, usage): live by default, test with `?environment=test`
// (a form posts it as the field `environment`), and the switch between the two.
import { environments, type Environment, type Partition } from "../domain/partition.ts";
import { html, type Html } from "../html/template.ts";
import type { WorkspaceContext } from "./context.ts";

export function environmentOf(value: string | null): Environment {
  return (environments as readonly string[]).includes(value ?? "") ? (value as Environment) : "live";
}

export function partitionOf(ctx: WorkspaceContext, environment: Environment): Partition {
  return { workspaceId: ctx.workspace.id, environment };
}

/** `?environment=test` for the test partition, nothing for live. */
export function envQuery(environment: Environment, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(environment === "test" ? { environment } : {}), ...extra }).toString();
  return query ? `?${query}` : "";
}

/** Links to the page at `path` in each environment, the current one marked. */
export function environmentSwitch(path: string, environment: Environment): Html {
  return html`<nav class="switcher" aria-label="Environment">
<ul>${environments.map(
    (env) =>
      html`<li><a href="${path}${envQuery(env)}"${env === environment ? html` aria-current="page"` : ""}>${env === "live" ? "Live" : "Test"}</a></li>`,
  )}</ul>
</nav>`;
}
