// Billing: the plan usage of a partition in the current calendar month (UTC), and its invoices.
// Agent runs consume credits; a test key's partition has its own usage, never charged.
import { and, count, eq, gte, lt, sql } from "drizzle-orm";
import type { SchemaAgentUsage, SchemaInvoice, SchemaUsage } from "../../generated/schema.d.ts";
import { PLAN_CREDITS, PLAN_LIMITS } from "./plans.ts";
import type { Database } from "../storage/index.ts";
import { agentRuns, agents, invoices, workspaces } from "../storage/schema.ts";
import { NotFoundError } from "./errors.ts";
import { inPartition, iso, keyset, toPage, type Page, type PageRequest, type Partition } from "./partition.ts";

/** The billing period containing `now`: its calendar month in UTC, [first of the month, first of the next). */
export function billingPeriod(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

export async function getUsage(db: Database, partition: Partition, now = new Date()): Promise<SchemaUsage> {
  const [workspace] = await db.select({ plan: workspaces.plan }).from(workspaces).where(eq(workspaces.id, partition.workspaceId));
  if (!workspace) throw new NotFoundError(`No workspace ${partition.workspaceId}.`);
  const { start, end } = billingPeriod(now);
  const rows = await db
    .select({
      agent: agentRuns.agent,
      runs: count(),
      credits: sql<number>`coalesce(sum(${agentRuns.creditsUsed}), 0)`.mapWith(Number),
    })
    .from(agentRuns)
    .where(and(inPartition(agentRuns, partition), gte(agentRuns.createdAt, start), lt(agentRuns.createdAt, end)))
    .groupBy(agentRuns.agent);
  const byAgent: SchemaAgentUsage[] = agents.map((agent) => {
    const row = rows.find((r) => r.agent === agent);
    return { agent, runs: row?.runs ?? 0, credits_used: row?.credits ?? 0 };
  });
  const included = PLAN_CREDITS[workspace.plan];
  const used = byAgent.reduce((total, entry) => total + entry.credits_used, 0);
  const limits = PLAN_LIMITS[workspace.plan];
  return {
    plan: workspace.plan,
    period_start: iso(start),
    period_end: iso(end),
    credits: { included, used, remaining: Math.max(0, included - used) },
    by_agent: byAgent,
    rate_limit: { requests_per_minute: limits.perMinute, burst_per_second: limits.burst },
  };
}

type InvoiceRow = typeof invoices.$inferSelect;

export function toInvoice(row: InvoiceRow): SchemaInvoice {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    currency: row.currency,
    amount_due: row.amountDue,
    amount_paid: row.amountPaid,
    period_start: iso(row.periodStart),
    period_end: iso(row.periodEnd),
    created_at: iso(row.createdAt),
  };
}

/** The partition's invoices, newest first (a test partition normally has none). */
export async function listInvoices(db: Database, partition: Partition, page: PageRequest): Promise<Page<SchemaInvoice>> {
  const { after, orderBy, limit } = keyset(invoices, page);
  const rows = await db
    .select()
    .from(invoices)
    .where(and(inPartition(invoices, partition), after))
    .orderBy(...orderBy)
    .limit(limit);
  return toPage(rows, page, toInvoice);
}
