// Webhook endpoints and deliveries: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaWebhookDelivery, SchemaWebhookEndpointWithSecret } from "../../generated/schema.d.ts";
import * as webhooks from "../domain/webhooks.ts";
import type { Context } from "../http/request-context.ts";
import { listed } from "./pagination.ts";
import { ok } from "./ok.ts";

type WebhookHandlers = Pick<
  Handlers<Context>,
  | "createWebhookEndpoint"
  | "listWebhookEndpoints"
  | "getWebhookEndpoint"
  | "updateWebhookEndpoint"
  | "deleteWebhookEndpoint"
  | "sendTestWebhookEvent"
  | "listWebhookDeliveries"
  | "getWebhookDelivery"
  | "redeliverWebhookDelivery"
  | "rotateWebhookSecret"
>;

/** A delivery queued, where it can be watched. */
const queued = (delivery: SchemaWebhookDelivery) => ({
  status: 202 as const,
  headers: { Location: `/v1/webhooks/${delivery.webhook_endpoint_id}/deliveries/${delivery.id}` },
  body: delivery,
});

export const webhookHandlers: WebhookHandlers = {
  createWebhookEndpoint: ({ body }, { db, webhookTargets, partition, effect }) =>
    effect(
      (commit) => webhooks.createWebhookEndpoint(db, webhookTargets, partition, body, commit),
      (endpoint: SchemaWebhookEndpointWithSecret) => ({
        status: 201,
        headers: { Location: `/v1/webhooks/${endpoint.id}` },
        body: endpoint,
      }),
    ),

  async listWebhookEndpoints({ query }, context) {
    return listed(context, "webhooks", query, {}, (page) =>
      webhooks.listWebhookEndpoints(context.db, context.partition, page),
    );
  },

  getWebhookEndpoint: ({ path }, { db, partition }) =>
    ok(webhooks.getWebhookEndpoint(db, partition, path.webhook_endpoint_id)),

  updateWebhookEndpoint: ({ path, body }, { db, webhookTargets, partition }) =>
    ok(webhooks.updateWebhookEndpoint(db, webhookTargets, partition, path.webhook_endpoint_id, body)),

  rotateWebhookSecret: ({ path }, { db, partition, effect }) =>
    effect(
      (commit) => webhooks.rotateWebhookSecret(db, partition, path.webhook_endpoint_id, commit),
      (endpoint: SchemaWebhookEndpointWithSecret) => ({ status: 200, body: endpoint }),
    ),

  async deleteWebhookEndpoint({ path }, { db, partition }) {
    await webhooks.deleteWebhookEndpoint(db, partition, path.webhook_endpoint_id);
    return { status: 204 };
  },

  sendTestWebhookEvent: ({ path }, { db, partition, effect }) =>
    effect((commit) => webhooks.sendTestEvent(db, partition, path.webhook_endpoint_id, commit), queued),

  async listWebhookDeliveries({ path, query }, context) {
    const filters = { status: query?.status };
    return listed(context, `deliveries:${path.webhook_endpoint_id}`, query, filters, (page) =>
      webhooks.listWebhookDeliveries(context.db, context.partition, path.webhook_endpoint_id, page, filters),
    );
  },

  getWebhookDelivery: ({ path }, { db, partition }) =>
    ok(webhooks.getWebhookDelivery(db, partition, path.webhook_endpoint_id, path.delivery_id)),

  redeliverWebhookDelivery: ({ path }, { db, partition, effect }) =>
    effect((commit) => webhooks.redeliver(db, partition, path.webhook_endpoint_id, path.delivery_id, commit), queued),
};
