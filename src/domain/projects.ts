// Projects: an app built from a prompt. Creating one queues its initial agent run in the same
// transaction and returns at once; the project's status mirrors its most recent run.
import { and, eq, sql, type Column, type SQL } from "drizzle-orm";
import type {
  SchemaCreateProjectRequest,
  SchemaProject,
  SchemaProjectStatus,
  SchemaUpdateProjectRequest,
  SchemaVisibility,
} from "../../generated/schema.d.ts";
import { inTransaction, type Commit, type Database, type Queryable, type Transaction } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { placeholder, prepared, preparedSql } from "../storage/prepared.ts";
import { agentRuns, projects } from "../storage/schema.ts";
import { NotFoundError } from "./errors.ts";
import { contractFields } from "./contract-fields.ts";
import { eventRows, recordEvent, recordingSql } from "./events.ts";
import { projectStatusOf, toAgentRun } from "./agent-run-shape.ts";
import { inPartition, type Page, type PageRequest, type Partition } from "./partition.ts";
import type { WorkQueue } from "./work-queue.ts";

type ProjectRow = typeof projects.$inferSelect;
type AgentRunRow = typeof agentRuns.$inferSelect;

export function toProject(row: ProjectRow): SchemaProject {
  return {
    ...contractFields(row, ["id", "name", "prompt", "agent", "visibility", "template", "status", "latestRunId"]),
    ...(row.url ? { url: row.url } : {}),
    forked_from: forkedFrom(row.forkedFromProjectId, row.forkedFromVersionId),
    ...contractFields(row, ["createdAt", "updatedAt"]),
  };
}

function forkedFrom(projectId: string | null, versionId: string | null): SchemaProject["forked_from"] {
  return projectId && versionId ? { project_id: projectId, version_id: versionId } : null;
}

export async function createProject(
  db: Database,
  work: WorkQueue,
  partition: Partition,
  input: SchemaCreateProjectRequest,
  commit: Commit<SchemaProject> = inTransaction(db),
): Promise<SchemaProject> {
  const now = new Date();
  const project: ProjectRow = {
    id: newId("prj"),
    ...partition,
    name: input.name,
    prompt: input.prompt,
    agent: input.agent ?? "coding-agent-1",
    visibility: input.visibility ?? "private",
    template: (input.template ?? "blank") as ProjectRow["template"],
    status: projectStatusOf.queued,
    latestRunId: null,
    url: null,
    forkedFromProjectId: null,
    forkedFromVersionId: null,
    createdAt: now,
    updatedAt: now,
  };
  const run: AgentRunRow = {
    id: newId("run"),
    projectId: project.id,
    ...partition,
    agent: project.agent,
    prompt: project.prompt,
    trigger: "project_created",
    status: "queued",
    creditsUsed: 0,
    errorCode: null,
    errorMessage: null,
    summary: null,
    queueRound: null,
    versionId: null,
    maxCredits: input.max_credits ?? null,
    attachments: [],
    createdAt: now,
    startedAt: null,
    finishedAt: null,
    updatedAt: now,
  };
  project.latestRunId = run.id;
  const created = toProject(project);
  const { params: recorded } = eventRows(
    partition,
    [
      { type: "project.created", object: created },
      { type: "agent_run.queued", object: toAgentRun(run) },
    ],
    now,
  );
  return commit(async (tx) => {
    await insertProjectWithRunAndEvents(tx).execute({
      ...recorded,
      projectId: project.id,
      runId: run.id,
      name: project.name,
      prompt: project.prompt,
      agent: project.agent,
      visibility: project.visibility,
      template: project.template,
      status: project.status,
      trigger: run.trigger,
      runStatus: run.status,
      maxCredits: run.maxCredits,
    });
    // pg-boss's own statement: its job insert (queue policies, singletons, partitions) is pg-boss's
    // to write, not copied into this statement where a pg-boss upgrade would silently break it.
    await work.queueAgentRun(tx, run.id);
    return created;
  });
}

// The project, its first run, the two events and their deliveries in one statement: the run's
// foreign key is checked at the statement's end, when the project is there. (An embedded query
// comes in parentheses, as a CTE needs; the events' statement adds the deliveries' INSERT.)
const insertProjectWithRunAndEvents = preparedSql("insert_project_with_run_and_events", (db: Queryable) => {
  const shared = {
    workspaceId: placeholder("workspaceId"),
    environment: placeholder("environment"),
    agent: placeholder("agent"),
    prompt: placeholder("prompt"),
  };
  const project = db.insert(projects).values({
    id: placeholder("projectId"),
    ...shared,
    name: placeholder("name"),
    visibility: placeholder("visibility"),
    template: placeholder("template"),
    status: placeholder("status"),
    latestRunId: placeholder("runId"),
    createdAt: placeholder("createdAt"),
    updatedAt: placeholder("createdAt"),
  });
  const run = db.insert(agentRuns).values({
    id: placeholder("runId"),
    projectId: placeholder("projectId"),
    ...shared,
    trigger: placeholder("trigger"),
    status: placeholder("runStatus"),
    maxCredits: placeholder("maxCredits"),
    createdAt: placeholder("createdAt"),
    updatedAt: placeholder("createdAt"),
  });
  return recordingSql(db, 2, sql`project as ${project}, run as ${run},`);
});

export async function getProject(db: Database, partition: Partition, id: string): Promise<SchemaProject> {
  return toProject(await findProject(db, partition, id));
}

/** Another partition's project does not exist for this caller: the same answer as a missing one. */
export const projectNotFound = (id: string) => new NotFoundError(`No project ${id} in this workspace.`, "project_id");

/**
 * The project row, or projectNotFound. With `lock`, the row stays locked until the transaction
 * ends, so that changes to the project's runs or deployments queue up behind each other.
 */
export async function findProject(
  db: Queryable,
  partition: Partition,
  id: string,
  { lock = false } = {},
): Promise<ProjectRow> {
  const [row] = lock
    ? await db
        .select()
        .from(projects)
        .where(and(inPartition(projects, partition), eq(projects.id, id)))
        .for("update")
    : await projectById(db).execute({ id });
  if (!row || row.workspaceId !== partition.workspaceId || row.environment !== partition.environment)
    throw projectNotFound(id);
  return row;
}

/**
 * Runs `work` in `commit`'s transaction, holding the project's row lock: what changes a project's
 * runs and deployments (a trigger, a cancel, a deploy, a rollback) happens one request at a time.
 */
export function withProjectLocked<T>(
  commit: Commit<T>,
  partition: Partition,
  projectId: string,
  work: (tx: Transaction, project: ProjectRow) => Promise<T>,
): Promise<T> {
  return commit(async (tx) => work(tx, await findProject(tx, partition, projectId, { lock: true })));
}

/**
 * `row`, a project's resource looked up by its id; when there is none, the not-found error names what
 * is missing: the project, when the partition has no such project, else the resource (`missing`).
 */
export async function foundInProject<Row>(
  db: Queryable,
  partition: Partition,
  projectId: string,
  row: Row | undefined,
  missing: () => NotFoundError,
): Promise<Row> {
  if (row) return row;
  await findProject(db, partition, projectId);
  throw missing();
}

// By primary key alone, the partition checked on the row: a prepared statement is planned once for
// any parameters, and with the partition in its WHERE clause a planner whose statistics still
// describe a young table picks the partition's page index and walks every project of the workspace
// (measured: 10,000 projects, a fifth of the throughput) until the next ANALYZE.
const projectById = prepared((db) =>
  db
    .select()
    .from(projects)
    .where(eq(projects.id, placeholder("id")))
    .prepare("project_by_id"),
);

/** Who may see the project's published app. */
export async function projectVisibility(db: Queryable, partition: Partition, id: string): Promise<SchemaVisibility> {
  const [row] = await db
    .select({ visibility: projects.visibility })
    .from(projects)
    .where(and(inPartition(projects, partition), eq(projects.id, id)));
  if (!row) throw projectNotFound(id);
  return row.visibility;
}

export interface ProjectFilters {
  status?: SchemaProjectStatus;
  visibility?: SchemaVisibility;
}

/**
 * A page of the partition's projects, newest first: one prepared statement per set of filters (and
 * with or without a position to start after), each planned once per connection. Its rows come as
 * the driver returns them, in the contract's names, and go straight into the contract's shape,
 * without the query builder's mapping of each row.
 */
export async function listProjects(
  db: Database,
  partition: Partition,
  page: PageRequest,
  filters: ProjectFilters,
): Promise<Page<SchemaProject>> {
  const { rows } = await projectPage(
    filters,
    page.after !== undefined,
  )(db).execute({
    workspaceId: partition.workspaceId,
    environment: partition.environment,
    status: filters.status,
    visibility: filters.visibility,
    afterCreatedAt: page.after?.created_at,
    afterId: page.after?.id,
    limit: page.limit + 1,
  });
  const items = rows as unknown as PageRow[];
  const more = items.length > page.limit;
  if (more) items.length = page.limit;
  const data = items.map(pageItem);
  const last = data.at(-1);
  return { items: data, next: more && last ? { created_at: last.created_at, id: last.id } : undefined };
}

/** A row of projectPage: the contract's names and values (timestamps as the contract writes them). */
interface PageRow {
  id: string;
  name: string;
  prompt: string;
  agent: SchemaProject["agent"];
  visibility: SchemaVisibility;
  template: SchemaProject["template"];
  status: SchemaProjectStatus;
  latest_run_id: string | null;
  url: string | null;
  forked_from_project_id: string | null;
  forked_from_version_id: string | null;
  created_at: string;
  updated_at: string;
}

/** toProject's object (its members in its order) from a row already in the contract's terms. */
function pageItem(row: PageRow): SchemaProject {
  const { id, name, prompt, agent, visibility, template, status, latest_run_id, url, created_at, updated_at } = row;
  const forked_from = forkedFrom(row.forked_from_project_id, row.forked_from_version_id);
  return url
    ? { id, name, prompt, agent, visibility, template, status, latest_run_id, url, forked_from, created_at, updated_at }
    : { id, name, prompt, agent, visibility, template, status, latest_run_id, forked_from, created_at, updated_at };
}

/**
 * A timestamp as Date.prototype.toISOString spells it (UTC, milliseconds, `Z`), whatever the
 * session's time zone: written by the database, it is neither parsed into a Date nor formatted here.
 */
const utcIso = (column: Column) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const projectPages = new Map<string, ReturnType<typeof preparedSql<Queryable, Record<string, unknown>>>>();

/** The page statement of one variant; `(created_at, id) < (…)` as keyset() writes it (see there why a row comparison). */
function projectPage(filters: ProjectFilters, after: boolean) {
  const variant = `${filters.status ? "s" : ""}${filters.visibility ? "v" : ""}${after ? "a" : ""}`;
  let statement = projectPages.get(variant);
  if (!statement) {
    statement = preparedSql(`project_page_${variant || "all"}`, () => {
      const t = projects;
      const conditions = [
        sql`${t.workspaceId} = ${placeholder("workspaceId")}`,
        sql`${t.environment} = ${placeholder("environment")}`,
      ];
      if (filters.status) conditions.push(sql`${t.status} = ${placeholder("status")}`);
      if (filters.visibility) conditions.push(sql`${t.visibility} = ${placeholder("visibility")}`);
      if (after)
        conditions.push(
          sql`(${t.createdAt}, ${t.id}) < (${placeholder("afterCreatedAt")}::timestamptz, ${placeholder("afterId")})`,
        );
      return sql`select ${t.id} as id, ${t.name} as name, ${t.prompt} as prompt, ${t.agent} as agent, ${t.visibility} as visibility,
          ${t.template} as template, ${t.status} as status, ${t.latestRunId} as latest_run_id, ${t.url} as url,
          ${t.forkedFromProjectId} as forked_from_project_id, ${t.forkedFromVersionId} as forked_from_version_id,
          ${utcIso(t.createdAt)} as created_at, ${utcIso(t.updatedAt)} as updated_at
        from ${t} where ${sql.join(conditions, sql` and `)}
        order by ${t.createdAt} desc, ${t.id} desc limit ${placeholder("limit")}`;
    });
    projectPages.set(variant, statement);
  }
  return statement;
}

/**
 * A project's updated_at for a write that locks its row: `now`, but never earlier than the time the
 * row already holds. Writers read the clock before they queue on the row's lock, so the last to
 * commit may hold the earliest reading; updated_at would then go back in time, and a client asking
 * what changed since a moment would miss the updates in between.
 */
export function touchedAt(now: Date): SQL {
  return sql`greatest(${now.toISOString()}::timestamptz, ${projects.updatedAt})`;
}

export async function updateProject(
  db: Database,
  partition: Partition,
  id: string,
  changes: SchemaUpdateProjectRequest,
): Promise<SchemaProject> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(projects)
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.agent !== undefined ? { agent: changes.agent } : {}),
        ...(changes.visibility !== undefined ? { visibility: changes.visibility } : {}),
        updatedAt: touchedAt(new Date()),
      })
      .where(and(inPartition(projects, partition), eq(projects.id, id)))
      .returning();
    if (!row) throw projectNotFound(id);
    const updated = toProject(row);
    await recordEvent(tx, partition, "project.updated", updated);
    return updated;
  });
}

/** Deletes the project; its runs, deployments and files go with it (ON DELETE CASCADE). */
export async function deleteProject(db: Database, partition: Partition, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(projects)
      .where(and(inPartition(projects, partition), eq(projects.id, id)))
      .returning();
    if (!row) throw projectNotFound(id);
    await recordEvent(tx, partition, "project.deleted", toProject(row));
  });
}
