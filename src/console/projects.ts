// Projects: a partition's projects, a page at a time, and a project's page: its versions (number,
// source, message, time) and what one of them changed against the version before, as a unified
// diff with added and removed lines marked (<ins>, <del>) and coloured by the stylesheet.
//
// The patches are tenant content: every line goes through `html`, which escapes it, and is read
// with string splits and a class by its first character, never a regular expression. A page shows
// at most PATCH_CHARS_PER_PAGE of patches; the API's diff has the rest.
import type { SchemaVersion, SchemaVersionDiffFile } from "../../generated/schema.d.ts";
import { getProject, listProjects } from "../domain/projects.ts";
import { getVersionDiff } from "../domain/version-diff.ts";
import { getVersion, listVersions } from "../domain/versions.ts";
import { html, type Html } from "../html/template.ts";
import { sendConsolePage, type WorkspaceContext } from "./context.ts";
import { pageAfter, pageToken } from "./cursor.ts";
import { environmentOf, environmentSwitch, envQuery, partitionOf } from "./environment.ts";
import { message, none, table, time } from "./layout.ts";
import { pager } from "./pager.ts";
import type { WorkspaceRoute } from "./routes.ts";

const PROJECTS_PER_PAGE = 20;
const VERSIONS_PER_PAGE = 20;
/** Patch text one page shows at most: a browser lays out a few hundred KiB of lines quickly. */
const PATCH_CHARS_PER_PAGE = 256 * 1024;

const SOURCES: Record<SchemaVersion["source"], string> = {
  agent_run: "Agent run",
  restore: "Restore",
  checkpoint: "Checkpoint",
  fork: "Fork",
};

async function projectsPage(ctx: WorkspaceContext): Promise<void> {
  const environment = environmentOf(ctx.url.searchParams.get("environment"));
  const projectsList = { name: "projects", workspaceId: ctx.workspace.id, environment };
  const after = pageAfter(ctx.deps.cursors, projectsList, ctx.url.searchParams.get("after"));
  const page = await listProjects(
    ctx.deps.db,
    partitionOf(ctx, environment),
    { limit: PROJECTS_PER_PAGE, ...(after ? { after } : {}) },
    {},
  );
  const base = `${ctx.base}/projects`;
  sendConsolePage(ctx, 200, {
    title: "Projects",
    section: "projects",
    body: html`${environmentSwitch(base, environment)}
<p>The projects of the <strong>${environment}</strong> environment. Open one for its versions and what each changed.</p>
${table({
  caption: `Projects (${environment})`,
  columns: ["Project", "Status", "Created", "Updated"],
  rows: page.items.map(
    (project) => html`<tr>
<th scope="row"><a href="${base}/${project.id}${envQuery(environment)}">${project.name}</a><br><code class="meta nowrap">${project.id}</code></th>
<td><span class="status status-${project.status}">${project.status}</span></td>
<td>${time(project.created_at)}</td>
<td>${time(project.updated_at)}</td>
</tr>`,
  ),
  empty: `No projects in the ${environment} environment yet.`,
})}
${pager(page.next ? `${base}${envQuery(environment, { after: pageToken(ctx.deps.cursors, projectsList, page.next) })}` : undefined, after !== undefined, `${base}${envQuery(environment)}`)}`,
  });
}

async function projectPage(ctx: WorkspaceContext, [projectId]: string[]): Promise<void> {
  const environment = environmentOf(ctx.url.searchParams.get("environment"));
  const partition = partitionOf(ctx, environment);
  const { db, cursors, diffFiles } = ctx.deps;
  const project = await getProject(db, partition, projectId!);
  const versionsList = { name: `versions:${project.id}`, workspaceId: ctx.workspace.id, environment };
  const after = pageAfter(cursors, versionsList, ctx.url.searchParams.get("after"));
  const page = await listVersions(db, partition, project.id, {
    limit: VERSIONS_PER_PAGE,
    ...(after ? { after } : {}),
  });
  // The version asked for, or the newest of the page.
  const chosen = ctx.url.searchParams.get("version");
  const shown = chosen ? await getVersion(db, partition, project.id, chosen) : page.items[0];
  const diff = shown ? await getVersionDiff(db, diffFiles, partition, project.id, shown.id) : undefined;
  const base = `${ctx.base}/projects/${project.id}`;
  const link = (extra: Record<string, string> = {}) => `${base}${envQuery(environment, extra)}`;
  const pageQuery: Record<string, string> = after ? { after: ctx.url.searchParams.get("after")! } : {};

  const rows = page.items.map((version) => {
    const current = version.id === shown?.id;
    return html`<tr${current ? html` class="highlight"` : ""}>
<th scope="row"><a href="${link({ ...pageQuery, version: version.id })}#changes"${current ? html` aria-current="true"` : ""}>Version ${version.number}</a></th>
<td>${SOURCES[version.source]}</td>
<td>${version.message ?? none()}</td>
<td>${version.file_count} ${version.file_count === 1 ? "file" : "files"}</td>
<td>${time(version.created_at)}</td>
</tr>`;
  });
  sendConsolePage(ctx, 200, {
    title: `${project.name} · Versions`,
    heading: project.name,
    section: "projects",
    body: html`<p><a href="${ctx.base}/projects${envQuery(environment)}">All projects</a> · <code class="meta">${project.id}</code> · <span class="status status-${project.status}">${project.status}</span> · ${environment} environment</p>
<h2>Versions</h2>
${table({
  caption: "Versions of the project, newest first",
  captionHidden: true,
  columns: ["Version", "Source", "Message", "Files", "Recorded"],
  rows,
  empty: "No versions yet: the project's first successful run records version 1.",
})}
${pager(page.next ? link({ after: pageToken(cursors, versionsList, page.next) }) : undefined, after !== undefined, link())}
${shown && diff ? changes(shown, diff.base_version_id === null, diff.files, diff.truncated) : ""}`,
  });
}

/** What a version changed against the one before it. */
function changes(
  version: SchemaVersion,
  first: boolean,
  files: readonly SchemaVersionDiffFile[],
  truncated: boolean,
): Html {
  let room = PATCH_CHARS_PER_PAGE;
  const shown = files.map((file, index) => {
    const fits = file.patch !== null && file.patch.length <= room;
    if (fits) room -= file.patch!.length;
    return fileChanges(file, index, fits);
  });
  const against = first ? "the empty project" : `version ${version.number - 1}`;
  return html`<section class="changes" id="changes" aria-labelledby="changes-heading">
<h2 id="changes-heading">Changes in version ${version.number}</h2>
<p class="meta">Against ${against}: ${files.length} ${files.length === 1 ? "file" : "files"} changed.</p>
${truncated ? message("notice", "Some files' changes are not shown line by line: a file over 1 MiB, or a diff too long or too slow to work out.") : ""}
${files.length === 0 ? html`<p class="empty">No file changed.</p>` : shown}
</section>`;
}

function fileChanges(file: SchemaVersionDiffFile, index: number, fits: boolean): Html {
  const why = file.binary
    ? "Binary file: no line diff."
    : file.patch === null
      ? "Too large to show line by line."
      : "Not shown here: this page holds enough already. The API's diff of this version has it.";
  return html`<section class="diff-file" aria-labelledby="diff-file-${index}">
<h3 id="diff-file-${index}"><code>${file.path}</code> <span class="diff-status diff-status-${file.status}">${file.status}</span>${
    file.patch === null
      ? ""
      : html` <span class="diff-stat"><span class="diff-stat-add">+${file.additions}</span> <span class="diff-stat-del">−${file.deletions}</span></span>`
  }</h3>
${fits ? patchLines(file.patch!) : html`<p class="meta">${why}</p>`}
</section>`;
}

/**
 * A patch as lines with their old and new numbers (after its `---`/`+++` headers): context, removed
 * (<del>), added (<ins>), hunk headers and "\ No newline at end of file".
 */
function patchLines(patch: string): Html {
  const lines = patch.split("\n").slice(2);
  if (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) return html`<p class="meta">An empty file.</p>`;
  let [oldNumber, newNumber] = [0, 0];
  const numbers = (old: number | "", next: number | "") =>
    html`<span class="diff-num" aria-hidden="true">${old}</span><span class="diff-num" aria-hidden="true">${next}</span>`;
  const out = lines.map((line) => {
    switch (line.charAt(0)) {
      case "@": {
        // A hunk header, written by file-diff.ts: `@@ -a,b +c,d @@`.
        const [oldRange = "", newRange = ""] = line.split(" ").slice(1, 3);
        oldNumber = Number(oldRange.slice(1).split(",")[0]);
        newNumber = Number(newRange.slice(1).split(",")[0]);
        return html`<span class="diff-line diff-hunk">${numbers("", "")}<span class="diff-text">${line}</span></span>`;
      }
      case "-":
        return html`<del class="diff-line diff-del">${numbers(oldNumber++, "")}<span class="diff-text">${line}</span></del>`;
      case "+":
        return html`<ins class="diff-line diff-add">${numbers("", newNumber++)}<span class="diff-text">${line}</span></ins>`;
      case "\\":
        return html`<span class="diff-line diff-note">${numbers("", "")}<span class="diff-text">${line}</span></span>`;
      default:
        return html`<span class="diff-line">${numbers(oldNumber++, newNumber++)}<span class="diff-text">${line}</span></span>`;
    }
  });
  return html`<pre class="diff"><code>${out}</code></pre>`;
}

const PROJECT = "(prj_[0-9A-Za-z]{8,64})";

export const projectRoutes: WorkspaceRoute[] = [
  { method: "GET", path: /^\/projects$/, handle: projectsPage },
  { method: "GET", path: new RegExp(`^/projects/${PROJECT}$`), handle: projectPage },
];
