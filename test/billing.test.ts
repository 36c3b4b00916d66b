// Billing usage and invoices over HTTP, end to end, on the embedded database.
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { billingPeriod, closeBillingPeriod } from "../src/domain/billing.ts";
import { PLAN_CREDITS, PLAN_CURRENCY, PLAN_PRICES } from "../src/domain/plans.ts";
import type { Partition } from "../src/domain/partition.ts";
import { PLAN_LIMITS, type Plan } from "../src/http/rate-limit/index.ts";
import { newId } from "../src/storage/ids.ts";
import { agentRuns, invoices } from "../src/storage/schema.ts";
import { expectBody, expectStatus, type ApiClient, type Schemas } from "./support/api-client.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { suiteServer } from "./support/server.ts";

onEmbeddedDatabase("billing", (driver) => {
  const server = suiteServer(driver);

  let workspaces = 0;
  /** A client of a new workspace (so usage starts at zero), with its partition. */
  async function freshWorkspace(plan: Plan = "pro", environment: "live" | "test" = "live") {
    const slug = `billing-${++workspaces}-${plan}`;
    const client = server.as(await server.createKey({ workspace: slug, plan, environment }));
    const key = expectBody(await client.get("/v1/key"), 200);
    const partition: Partition = { workspaceId: key.workspace.id, environment };
    return { client, partition, slug };
  }

  /** A run of `agent` in the client's partition, finished at `at` (default now), that used `credits`. */
  async function insertRun(client: ApiClient, agent: Schemas["Agent"], credits: number, at?: Date) {
    const project = expectBody(await client.post("/v1/projects", { name: "Usage", prompt: "x", agent }), 201);
    // The project's initial run is the one that used the credits.
    await server.storage.db
      .update(agentRuns)
      .set({
        creditsUsed: credits,
        status: "succeeded",
        finishedAt: at ?? new Date(),
        ...(at ? { createdAt: at, startedAt: at } : {}),
      })
      .where(eq(agentRuns.id, project.latest_run_id!));
  }

  it("reports the plan, the current month and no usage for a new workspace", async () => {
    const { client } = await freshWorkspace("pro");
    const usage = await client.get("/v1/billing/usage");
    expect(usage.status).toBe(200);
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    expect(usage.body).toEqual({
      plan: "pro",
      period_start: start.toISOString(),
      period_end: end.toISOString(),
      credits: { included: 5000, used: 0, remaining: 5000 },
      by_agent: [
        { agent: "coding-agent-1", runs: 0, credits_used: 0 },
        { agent: "coding-agent-2", runs: 0, credits_used: 0 },
        { agent: "coding-agent-3", runs: 0, credits_used: 0 },
      ],
      rate_limit: { requests_per_minute: PLAN_LIMITS.pro.perMinute, burst_per_second: PLAN_LIMITS.pro.burst },
    });
  });

  it("includes each plan's credits and rate limit", async () => {
    expect(PLAN_CREDITS).toEqual({ free: 100, pro: 5000, team: 25000, enterprise: 100000 });
    for (const plan of ["free", "pro", "team", "enterprise"] as const) {
      const { client } = await freshWorkspace(plan);
      const usage = expectBody(await client.get("/v1/billing/usage"), 200);
      expect(usage.plan).toBe(plan);
      expect(usage.credits).toEqual({ included: PLAN_CREDITS[plan], used: 0, remaining: PLAN_CREDITS[plan] });
      expect(usage.rate_limit).toEqual({
        requests_per_minute: PLAN_LIMITS[plan].perMinute,
        burst_per_second: PLAN_LIMITS[plan].burst,
      });
    }
  });

  it("sums the credits of this month's runs in the caller's partition, per agent in contract order", async () => {
    const { client, slug } = await freshWorkspace("pro");
    const { period_start, period_end } = expectBody(await client.get("/v1/billing/usage"), 200);
    const start = new Date(period_start);
    await insertRun(client, "coding-agent-3", 40);
    await insertRun(client, "coding-agent-1", 10);
    await insertRun(client, "coding-agent-1", 15, start); // the first instant of the period counts
    await insertRun(client, "coding-agent-3", 0); // a run that used nothing still counts as a run
    await insertRun(client, "coding-agent-2", 1000, new Date(start.getTime() - 1)); // last month
    await insertRun(client, "coding-agent-2", 1000, new Date(period_end)); // next month

    // The same workspace's test partition, and another workspace: not counted here.
    const sandbox = server.as(await server.createKey({ workspace: slug, environment: "test" }));
    await insertRun(sandbox, "coding-agent-1", 500);
    const other = await freshWorkspace("pro");
    await insertRun(other.client, "coding-agent-1", 700);

    const usage = expectBody(await client.get("/v1/billing/usage"), 200);
    expect(usage.credits).toEqual({ included: 5000, used: 65, remaining: 4935 });
    expect(usage.by_agent).toEqual([
      { agent: "coding-agent-1", runs: 2, credits_used: 25 },
      { agent: "coding-agent-2", runs: 0, credits_used: 0 },
      { agent: "coding-agent-3", runs: 2, credits_used: 40 },
    ]);

    // A test key sees its own partition's usage, against the same plan.
    const testUsage = expectBody(await sandbox.get("/v1/billing/usage"), 200);
    expect(testUsage.plan).toBe("pro");
    expect(testUsage.credits).toEqual({ included: 5000, used: 500, remaining: 4500 });
    expect(testUsage.by_agent[0]).toEqual({ agent: "coding-agent-1", runs: 1, credits_used: 500 });
    expect(expectBody(await other.client.get("/v1/billing/usage"), 200).credits.used).toBe(700);
  });

  it("never reports fewer than zero credits remaining", async () => {
    const { client } = await freshWorkspace("free");
    await insertRun(client, "coding-agent-2", 80);
    await insertRun(client, "coding-agent-2", 70);
    const usage = expectBody(await client.get("/v1/billing/usage"), 200);
    expect(usage.credits).toEqual({ included: 100, used: 150, remaining: 0 });
    expect(usage.by_agent[1]).toEqual({ agent: "coding-agent-2", runs: 2, credits_used: 150 });
  });

  it("lists invoices newest first, a page at a time, in the caller's partition only", async () => {
    const { client, partition, slug } = await freshWorkspace("team");
    const base = Date.UTC(2024, 0, 1);
    const rows = Array.from({ length: 25 }, (_, i) => ({
      id: newId("inv"),
      ...partition,
      number: `INV-${String(i + 1).padStart(4, "0")}`,
      status: i === 24 ? ("open" as const) : ("paid" as const),
      currency: "usd",
      amountDue: 4900 + i,
      amountPaid: i === 24 ? 0 : 4900 + i,
      periodStart: new Date(base + i * 30 * 86_400_000),
      periodEnd: new Date(base + (i + 1) * 30 * 86_400_000),
      createdAt: new Date(base + (i + 1) * 30 * 86_400_000),
    }));
    await server.storage.db.insert(invoices).values(rows);

    const first = await client.get("/v1/billing/invoices");
    expectStatus(first, 200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.data[0]).toEqual({
      id: rows[24]!.id,
      number: "INV-0025",
      status: "open",
      currency: "usd",
      amount_due: 4924,
      amount_paid: 0,
      period_start: rows[24]!.periodStart.toISOString(),
      period_end: rows[24]!.periodEnd.toISOString(),
      created_at: rows[24]!.createdAt.toISOString(),
    });
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await client.get(`/v1/billing/invoices?cursor=${encodeURIComponent(first.body.next_cursor!)}`);
    expectStatus(second, 200);
    expect(second.body.data).toHaveLength(5);
    expect(second.body.next_cursor).toBeNull();
    const numbers = [...first.body.data, ...second.body.data].map((invoice: { number: string }) => invoice.number);
    expect(numbers).toEqual(rows.map((row) => row.number).reverse());

    const small = await client.get("/v1/billing/invoices?limit=10");
    expectStatus(small, 200);
    expect(small.body.data).toHaveLength(10);

    // The cursor is bound to this list: another list refuses it.
    const foreign = await client.get(`/v1/webhooks?cursor=${encodeURIComponent(first.body.next_cursor!)}`);
    expect(foreign.status).toBe(400);

    // Test keys see none; nor does another workspace.
    const sandbox = server.as(await server.createKey({ workspace: slug, environment: "test" }));
    expect((await sandbox.get("/v1/billing/invoices")).body).toEqual({ data: [], next_cursor: null });
    const other = await freshWorkspace("team");
    expect((await other.client.get("/v1/billing/invoices")).body).toEqual({ data: [], next_cursor: null });
  });

  it("invoices each workspace's live partition once when a period has closed, at its plan's price", async () => {
    const team = await freshWorkspace("team");
    const sandbox = await freshWorkspace("team", "test");
    const free = await freshWorkspace("free");
    // A month after every workspace above was created, the job closes the month they were made in.
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 3));
    const period = billingPeriod(now);
    const number = `INV-${period.start.getUTCFullYear()}${String(period.start.getUTCMonth() + 1).padStart(2, "0")}`;
    expect(await closeBillingPeriod(server.storage.db, nextMonth)).toBeGreaterThanOrEqual(2);
    expect(await closeBillingPeriod(server.storage.db, nextMonth)).toBe(0);

    const [invoice] = expectBody(await team.client.get("/v1/billing/invoices"), 200).data;
    expect(invoice).toMatchObject({
      number,
      status: "open",
      currency: PLAN_CURRENCY,
      amount_due: PLAN_PRICES.team,
      amount_paid: 0,
      period_start: period.start.toISOString(),
      period_end: period.end.toISOString(),
    });
    expect(expectBody(await free.client.get("/v1/billing/invoices"), 200).data[0]).toMatchObject({
      number,
      status: "paid",
      amount_due: 0,
    });
    expect(expectBody(await sandbox.client.get("/v1/billing/invoices"), 200).data).toEqual([]);
    // A period that has not ended is not invoiced.
    expect(await closeBillingPeriod(server.storage.db, now)).toBe(0);
  });

  it("needs billing:read", async () => {
    const reader = server.as(await server.createKey({ scopes: ["billing:read"] }));
    expect((await reader.get("/v1/billing/usage")).status).toBe(200);
    expect((await reader.get("/v1/billing/invoices")).status).toBe(200);
    const other = server.as(await server.createKey({ scopes: ["projects:read", "webhooks:read"] }));
    for (const refused of [await other.get("/v1/billing/usage"), await other.get("/v1/billing/invoices")]) {
      expectStatus(refused, 401);
      expect(refused.body.error.code).toBe("insufficient_scope");
    }
  });
});
