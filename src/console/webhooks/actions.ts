// An endpoint's actions (owners and admins): edit, enable or disable, rotate the secret, send a
// test event, redeliver, delete (with its confirmation page). Each records its audit row in the
// transaction of its change, then redirects to the endpoint's page with a notice (or shows it).
import { InvalidInputError } from "../../domain/errors.ts";
import { administers } from "../../domain/members.ts";
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhookEndpoint,
} from "../../domain/webhooks.ts";
import { html } from "../../html/template.ts";
import { redirect } from "../../pages/respond.ts";
import { recordAction, sendConsolePage, sendErrorPage, type WorkspaceContext } from "../context.ts";
import { confirmForm } from "../layout.ts";
import { descriptionOf, enabledEventsOf, invalid } from "./endpoint-form.ts";
import { endpointPage } from "./endpoint-page.ts";
import { envQuery, environmentOf, partitionOf } from "../environment.ts";

export async function updateEndpoint(
  ctx: WorkspaceContext,
  [endpointId]: string[],
  form: URLSearchParams,
): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  try {
    const enabledEvents = enabledEventsOf(form);
    const description = descriptionOf(form);
    const url = await ctx.deps.webhookTargets.check(form.get("url") ?? "");
    await ctx.deps.db.transaction(async (tx) => {
      await updateWebhookEndpoint(tx, ctx.deps.webhookTargets, partitionOf(ctx, environment), endpointId!, {
        url,
        description: description || null,
        enabled_events: enabledEvents,
      });
      await recordAction(tx, ctx, "webhook_endpoint.updated", endpointId!, 303);
    });
    redirect(ctx.response, `${ctx.base}/webhooks/${endpointId}${envQuery(environment, { notice: "updated" })}`);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    await endpointPage(ctx, endpointId!, { status: 400, environment, values: form, error: invalid(error) });
  }
}

export async function setStatus(ctx: WorkspaceContext, [endpointId]: string[], form: URLSearchParams): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  const status = form.get("status");
  if (status !== "enabled" && status !== "disabled")
    throw new InvalidInputError("the status must be enabled or disabled", "status");
  await ctx.deps.db.transaction(async (tx) => {
    await updateWebhookEndpoint(tx, ctx.deps.webhookTargets, partitionOf(ctx, environment), endpointId!, { status });
    await recordAction(tx, ctx, "webhook_endpoint.updated", endpointId!, 303);
  });
  redirect(ctx.response, `${ctx.base}/webhooks/${endpointId}${envQuery(environment, { notice: status })}`);
}

export async function rotateSecret(
  ctx: WorkspaceContext,
  [endpointId]: string[],
  form: URLSearchParams,
): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  const rotated = await ctx.deps.db.transaction(async (tx) => {
    const endpoint = await rotateWebhookSecret(tx, partitionOf(ctx, environment), endpointId!);
    await recordAction(tx, ctx, "webhook_endpoint.secret_rotated", endpointId!, 200);
    return endpoint;
  });
  await endpointPage(ctx, endpointId!, { status: 200, environment, rotatedSecret: rotated.secret });
}

export async function testEndpoint(
  ctx: WorkspaceContext,
  [endpointId]: string[],
  form: URLSearchParams,
): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  await ctx.deps.db.transaction(async (tx) => {
    await sendTestEvent(tx, partitionOf(ctx, environment), endpointId!);
    await recordAction(tx, ctx, "webhook_endpoint.tested", endpointId!, 303);
  });
  redirect(ctx.response, `${ctx.base}/webhooks/${endpointId}${envQuery(environment, { notice: "tested" })}`);
}

export async function redeliverDelivery(
  ctx: WorkspaceContext,
  [endpointId, deliveryId]: string[],
  form: URLSearchParams,
): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  await ctx.deps.db.transaction(async (tx) => {
    await redeliver(tx, partitionOf(ctx, environment), endpointId!, deliveryId!);
    await recordAction(tx, ctx, "webhook_delivery.redelivered", deliveryId!, 303);
  });
  redirect(ctx.response, `${ctx.base}/webhooks/${endpointId}${envQuery(environment, { notice: "redelivered" })}`);
}

export async function confirmDelete(ctx: WorkspaceContext, [endpointId]: string[]): Promise<void> {
  const environment = environmentOf(ctx.url.searchParams.get("environment"));
  const endpoint = await getWebhookEndpoint(ctx.deps.db, partitionOf(ctx, environment), endpointId!);
  if (!administers(ctx.role)) {
    return sendErrorPage(
      ctx,
      403,
      `Only a workspace owner or admin can delete webhook endpoints. Your role is ${ctx.role}.`,
      {
        back: { href: `${ctx.base}/webhooks/${endpoint.id}${envQuery(environment)}`, label: "Back to the endpoint" },
      },
    );
  }
  sendConsolePage(ctx, 200, {
    title: "Delete endpoint",
    heading: "Delete this webhook endpoint?",
    section: "webhooks",
    body: html`<p><code>${endpoint.url}</code> (${environment}) will receive no more events, and its delivery log is deleted with it, pending deliveries included. To pause deliveries instead, disable the endpoint.</p>
${confirmForm({
  action: `${ctx.base}/webhooks/${endpoint.id}/delete`,
  csrf: ctx.visitor.csrf,
  hidden: html`<input type="hidden" name="environment" value="${environment}">`,
  button: "Delete endpoint",
  cancel: `${ctx.base}/webhooks/${endpoint.id}${envQuery(environment)}`,
})}`,
  });
}

export async function deleteEndpoint(
  ctx: WorkspaceContext,
  [endpointId]: string[],
  form: URLSearchParams,
): Promise<void> {
  const environment = environmentOf(form.get("environment"));
  await ctx.deps.db.transaction(async (tx) => {
    await deleteWebhookEndpoint(tx, partitionOf(ctx, environment), endpointId!);
    await recordAction(tx, ctx, "webhook_endpoint.deleted", endpointId!, 303);
  });
  redirect(ctx.response, `${ctx.base}/webhooks${envQuery(environment, { notice: "deleted" })}`);
}
