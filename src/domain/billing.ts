// Billing: the plan usage of a partition in the current calendar month (UTC), and its invoices.
// Agent runs consume credits, charged when they finish: a run counts in the period it finished in.
// A test key's partition is never charged (its runs cost 0) and never invoiced.
import { and, count, eq, gte, lt, sql } from "drizzle-orm";
import type { SchemaAgentUsage, SchemaInvoice, SchemaUsage } from "../../generated/schema.d.ts";
import { PLAN_CREDITS, PLAN_CURRENCY, PLAN_LIMITS, PLAN_PRICES, type Plan } from "./plans.ts";
import { newId } from "../storage/ids.ts";
import type { Database, Queryable } from "../storage/index.ts";
import { agentRuns, agents, invoices, workspaces } from "../storage/schema.ts";
import { NotFoundError } from "./errors.ts";
import { contractFields } from "./contract-fields.ts";
import { inPartition, iso, listPage, type Page, type PageRequest, type Partition } from "./partition.ts";

/** The billing period containing `now`: its calendar month in UTC, [first of the month, first of the next). */
export function billingPeriod(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The credits each agent's runs that finished in [start, end) were charged, and how many runs. */
async function usageByAgent(db: Queryable, partition: Partition, start: Date, end: Date): Promise<SchemaAgentUsage[]> {
  const rows = await db
    .select({
      agent: agentRuns.agent,
      runs: count(),
      credits: sql<number>`coalesce(sum(${agentRuns.creditsUsed}), 0)`.mapWith(Number),
    })
    .from(agentRuns)
    .where(and(inPartition(agentRuns, partition), gte(agentRuns.finishedAt, start), lt(agentRuns.finishedAt, end)))
    .groupBy(agentRuns.agent);
  return agents.map((agent) => {
    const row = rows.find((r) => r.agent === agent);
    return { agent, runs: row?.runs ?? 0, credits_used: row?.credits ?? 0 };
  });
}

async function workspacePlan(db: Queryable, workspaceId: string): Promise<Plan> {
  const [workspace] = await db.select({ plan: workspaces.plan }).from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw new NotFoundError(`No workspace ${workspaceId}.`);
  return workspace.plan;
}

/**
 * Credits the partition has left in the period containing `now`: what its plan includes, less what
 * finished runs were charged and what running runs hold in reserve.
 */
export async function creditsLeft(db: Queryable, partition: Partition, now = new Date()): Promise<number> {
  const { start, end } = billingPeriod(now);
  const plan = await workspacePlan(db, partition.workspaceId);
  const used = (await usageByAgent(db, partition, start, end)).reduce((total, entry) => total + entry.credits_used, 0);
  const [running] = await db
    .select({ reserved: sql<number>`coalesce(sum(${agentRuns.creditsUsed}), 0)`.mapWith(Number) })
    .from(agentRuns)
    .where(and(inPartition(agentRuns, partition), eq(agentRuns.status, "running")));
  return Math.max(0, PLAN_CREDITS[plan] - used - (running?.reserved ?? 0));
}

export async function getUsage(db: Database, partition: Partition, now = new Date()): Promise<SchemaUsage> {
  const plan = await workspacePlan(db, partition.workspaceId);
  const { start, end } = billingPeriod(now);
  const byAgent = await usageByAgent(db, partition, start, end);
  const included = PLAN_CREDITS[plan];
  const used = byAgent.reduce((total, entry) => total + entry.credits_used, 0);
  const limits = PLAN_LIMITS[plan];
  return {
    plan,
    period_start: iso(start),
    period_end: iso(end),
    credits: { included, used, remaining: Math.max(0, included - used) },
    by_agent: byAgent,
    rate_limit: { requests_per_minute: limits.perMinute, burst_per_second: limits.burst },
  };
}

type InvoiceRow = typeof invoices.$inferSelect;

export function toInvoice(row: InvoiceRow): SchemaInvoice {
  return contractFields(row, [
    "id",
    "number",
    "status",
    "currency",
    "amountDue",
    "amountPaid",
    "periodStart",
    "periodEnd",
    "createdAt",
  ]);
}

/** The partition's invoices, newest first (a test partition normally has none). */
export async function listInvoices(
  db: Database,
  partition: Partition,
  page: PageRequest,
): Promise<Page<SchemaInvoice>> {
  return listPage(db, invoices, inPartition(invoices, partition), page, toInvoice);
}

/**
 * Writes the invoice of every workspace's live partition for the billing period before the one
 * containing `now`, unless it exists: a scheduled job calls this often, so a period is invoiced
 * soon after it ends even if no server ran at that moment, and never twice (the number is unique
 * per workspace). Returns how many invoices were written.
 */
export async function closeBillingPeriod(db: Database, now = new Date()): Promise<number> {
  const current = billingPeriod(now);
  const previous = billingPeriod(new Date(current.start.getTime() - 1));
  const number = `INV-${previous.start.getUTCFullYear()}${String(previous.start.getUTCMonth() + 1).padStart(2, "0")}`;
  const due = await db
    .select({ id: workspaces.id, plan: workspaces.plan })
    .from(workspaces)
    .where(lt(workspaces.createdAt, previous.end));
  let written = 0;
  for (const workspace of due) {
    const amount = PLAN_PRICES[workspace.plan];
    const inserted = await db
      .insert(invoices)
      .values({
        id: newId("inv"),
        workspaceId: workspace.id,
        environment: "live",
        number,
        status: amount === 0 ? "paid" : "open",
        currency: PLAN_CURRENCY,
        amountDue: amount,
        amountPaid: 0,
        periodStart: previous.start,
        periodEnd: previous.end,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: invoices.id });
    written += inserted.length;
  }
  return written;
}
