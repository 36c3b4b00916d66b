// A fair share of the workers across tenants. A tenant is one environment of a workspace, so test
// runs never hold up live ones. Agent runs and deployment builds are dispatched by start-time fair
// queuing: each queued job takes a turn (its round), one past its tenant's last queued turn and
// never before the queue's clock, the turn of the job a worker started last. Workers claim the
// lowest turn first and, within a turn, the job that has waited longest; so tenants with work queued
// take free slots in turn, each in its own first-in-first-out order, however many jobs one of them
// queued. The claim itself is pg-boss's (src/jobs/queue.ts): the turn becomes the job's priority,
// and the tenant's cap by plan its group concurrency.
import { sql } from "drizzle-orm";
import type { Database, Queryable } from "../storage/index.ts";
import { placeholder, preparedSql } from "../storage/prepared.ts";
import { agentRuns, deployments, workQueueClocks, workspaces, type Environment } from "../storage/schema.ts";
import type { Plan } from "./plans.ts";

/** The two kinds of queued work, each in a queue (and with a clock) of its own. */
export type WorkKind = "agent_run" | "deployment_build";

/** Where a job stands in its queue: whose it is, the cap its plan sets, and its turn. */
export interface Placement {
  /** `<workspace_id>:<environment>`. */
  readonly tenant: string;
  readonly plan: Plan;
  readonly round: number;
}

const tables = { agent_run: agentRuns, deployment_build: deployments } as const;

const placements = {
  agent_run: placementSql("agent_run"),
  deployment_build: placementSql("deployment_build"),
};

/**
 * Gives the queued run or deployment `id` its turn, in the caller's transaction (the one that
 * queues it): one statement, which also reads the tenant's plan.
 */
export async function placeInQueue(tx: Queryable, kind: WorkKind, id: string): Promise<Placement> {
  const { rows } = await placements[kind](tx).execute({ id });
  const row = rows[0] as { round: number; plan: Plan; workspace_id: string; environment: Environment } | undefined;
  if (!row) throw new Error(`no queued ${kind} ${id} to place`);
  return { tenant: `${row.workspace_id}:${row.environment}`, plan: row.plan, round: row.round };
}

function placementSql(kind: WorkKind) {
  const t = tables[kind];
  // The max reads the statement's snapshot, where this row's round is still NULL. Two jobs of one
  // tenant placed at once may share a turn; within it the older is claimed first.
  return preparedSql(`place_${kind}`, () => {
    return sql`update ${t} as queued set queue_round = greatest(
        coalesce((select ${workQueueClocks.round} from ${workQueueClocks} where ${workQueueClocks.queue} = ${kind}), 0),
        coalesce((select max(q.queue_round) + 1 from ${t} as q
                  where q.workspace_id = queued.workspace_id and q.environment = queued.environment
                    and q.status = 'queued'), 0))
      from ${workspaces}
      where queued.id = ${placeholder("id")} and ${workspaces.id} = queued.workspace_id
      returning queued.queue_round as round, ${workspaces.plan} as plan, queued.workspace_id, queued.environment`;
  });
}

/** A worker started a job of turn `round`: the queue's clock moves up to it (never back). */
export async function advanceQueueClock(db: Queryable, kind: WorkKind, round: number): Promise<void> {
  await db
    .insert(workQueueClocks)
    .values({ queue: kind, round })
    .onConflictDoUpdate({
      target: workQueueClocks.queue,
      set: { round: sql`greatest(${workQueueClocks.round}, excluded.round)` },
    });
}

/** A tenant's work waiting and in progress, for operators (`pbs queue`). */
export interface TenantQueue {
  readonly workspace: string;
  readonly environment: Environment;
  readonly plan: Plan;
  readonly runsQueued: number;
  readonly runsRunning: number;
  readonly buildsQueued: number;
  readonly buildsBuilding: number;
}

/** Every tenant with work queued or in progress, the deepest queue first. */
export async function queueDepths(db: Database): Promise<TenantQueue[]> {
  const { rows } = await db.execute(sql`
    with work as (
      select workspace_id, environment,
             count(*) filter (where status = 'queued')::int as runs_queued,
             count(*) filter (where status = 'running')::int as runs_running,
             0 as builds_queued, 0 as builds_building
        from ${agentRuns} where status in ('queued', 'running') group by workspace_id, environment
      union all
      select workspace_id, environment, 0, 0,
             count(*) filter (where status = 'queued')::int,
             count(*) filter (where status = 'building')::int
        from ${deployments} where status in ('queued', 'building') group by workspace_id, environment
    )
    select w.slug as workspace, work.environment, w.plan,
           sum(runs_queued)::int as runs_queued, sum(runs_running)::int as runs_running,
           sum(builds_queued)::int as builds_queued, sum(builds_building)::int as builds_building
      from work join ${workspaces} w on w.id = work.workspace_id
     group by w.slug, work.environment, w.plan
     order by sum(runs_queued) + sum(builds_queued) desc, w.slug, work.environment`);
  return rows.map((row) => ({
    workspace: row.workspace as string,
    environment: row.environment as Environment,
    plan: row.plan as Plan,
    runsQueued: row.runs_queued as number,
    runsRunning: row.runs_running as number,
    buildsQueued: row.builds_queued as number,
    buildsBuilding: row.builds_building as number,
  }));
}
