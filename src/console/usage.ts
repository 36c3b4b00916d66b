// Usage: the plan, the credits of this billing period (used, and left after what running runs hold),
// the breakdown per agent, and the invoices. Shown to the roles that may read billing.
import { creditsLeft, getUsage, listInvoices } from "../domain/billing.ts";
import { html } from "../html/template.ts";
import { environmentOf, environmentSwitch, envQuery, partitionOf } from "./environment.ts";
import { readsBilling, sendConsolePage, sendErrorPage, type WorkspaceContext } from "./context.ts";
import { pageAfter, pageToken } from "./cursor.ts";
import type { WorkspaceRoute } from "./routes.ts";
import { money, table, time } from "./layout.ts";
import { pager } from "./pager.ts";

const INVOICES_PER_PAGE = 12;
const number = new Intl.NumberFormat("en-US");

function day(iso: string): string {
  return iso.slice(0, 10);
}

async function usagePage(ctx: WorkspaceContext): Promise<void> {
  if (!readsBilling(ctx.role)) {
    return sendErrorPage(
      ctx,
      403,
      `Usage and invoices are for the workspace's owners and admins. Your role is ${ctx.role}.`,
    );
  }
  const environment = environmentOf(ctx.url.searchParams.get("environment"));
  const partition = partitionOf(ctx, environment);
  const invoicesList = { name: "invoices", workspaceId: ctx.workspace.id, environment };
  const after = pageAfter(ctx.deps.cursors, invoicesList, ctx.url.searchParams.get("after"));
  const [usage, left, invoices] = await Promise.all([
    getUsage(ctx.deps.db, partition),
    creditsLeft(ctx.deps.db, partition),
    listInvoices(ctx.deps.db, partition, { limit: INVOICES_PER_PAGE, ...(after ? { after } : {}) }),
  ]);
  const held = Math.max(0, usage.credits.remaining - left);
  const base = `${ctx.base}/usage`;
  sendConsolePage(ctx, 200, {
    title: "Usage",
    heading: "Usage and invoices",
    section: "usage",
    body: html`${environmentSwitch(base, environment)}
${environment === "test" ? html`<p class="hint">Runs made with test keys are never charged: their credits are counted here for information only.</p>` : ""}
<dl class="facts">
<dt>Plan</dt><dd class="plan">${usage.plan}</dd>
<dt>Billing period</dt><dd>${day(usage.period_start)} to ${day(usage.period_end)} (UTC, end exclusive)</dd>
<dt>Credits included</dt><dd>${number.format(usage.credits.included)}</dd>
<dt>Credits used</dt><dd>${number.format(usage.credits.used)}</dd>
<dt>Credits left</dt><dd>${number.format(left)}${held > 0 ? html` <span class="meta">(${number.format(held)} held by runs in progress)</span>` : ""}</dd>
<dt>Request rate</dt><dd>${number.format(usage.rate_limit.requests_per_minute)} per minute per key, bursts of ${number.format(usage.rate_limit.burst_per_second)} per second</dd>
</dl>
<p><label for="credits-meter">Credits used this period</label>
<meter id="credits-meter" min="0" max="${usage.credits.included}" value="${usage.credits.used}" high="${Math.round(usage.credits.included * 0.9)}">${number.format(usage.credits.used)} of ${number.format(usage.credits.included)}</meter>
<span class="meta">${number.format(usage.credits.used)} of ${number.format(usage.credits.included)}</span></p>
<h2>By agent</h2>
${table({
  caption: "Runs finished this period and the credits they used, per agent",
  captionHidden: true,
  columns: ["Agent", "Runs", "Credits used"],
  rows: usage.by_agent.map(
    (entry) =>
      html`<tr><th scope="row"><code>${entry.agent}</code></th><td>${number.format(entry.runs)}</td><td>${number.format(entry.credits_used)}</td></tr>`,
  ),
  empty: "No runs this period.",
})}
<h2>Invoices</h2>
${table({
  caption: "Invoices, newest first",
  captionHidden: true,
  columns: ["Number", "Period", "Amount due", "Amount paid", "Status", "Issued"],
  rows: invoices.items.map(
    (invoice) => html`<tr>
<th scope="row">${invoice.number}</th>
<td>${day(invoice.period_start)} to ${day(invoice.period_end)}</td>
<td>${money(invoice.amount_due, invoice.currency)}</td>
<td>${money(invoice.amount_paid, invoice.currency)}</td>
<td><span class="status status-${invoice.status}">${invoice.status}</span></td>
<td>${time(invoice.created_at)}</td>
</tr>`,
  ),
  empty:
    environment === "test"
      ? "The test environment is never invoiced."
      : "No invoices yet: the first is issued after the first billing period ends.",
})}
${pager(invoices.next ? `${base}${envQuery(environment, { after: pageToken(ctx.deps.cursors, invoicesList, invoices.next) })}` : undefined, after !== undefined, `${base}${envQuery(environment)}`)}`,
  });
}

export const usageRoutes: WorkspaceRoute[] = [{ method: "GET", path: /^\/usage$/, handle: usagePage }];
