// Webhook endpoints and deliveries: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaWebhookDelivery } from "../../generated/schema.d.ts";
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

/** Where a queued delivery can be watched. */
const deliveryPath = (delivery: SchemaWebhookDelivery) =>
  `/v1/webhooks/${delivery.webhook_endpoint_id}/deliveries/${delivery.id}`;

export const webhookHandlers: WebhookHandlers = {
  async createWebhookEndpoint({ body }, { db, webhookTargets, partition }) {
    const endpoint = await webhooks.createWebhookEndpoint(db, webhookTargets, partition, body);
    return { status: 201, headers: { Location: `/v1/webhooks/${endpoint.id}` }, body: endpoint };
  },

  async listWebhookEndpoints({ query }, context) {
    return listed(context, "webhooks", query, {}, (page) =>
      webhooks.listWebhookEndpoints(context.db, context.partition, page),
    );
  },

  getWebhookEndpoint: ({ path }, { db, partition }) =>
    ok(webhooks.getWebhookEndpoint(db, partition, path.webhook_endpoint_id)),

  updateWebhookEndpoint: ({ path, body }, { db, webhookTargets, partition }) =>
    ok(webhooks.updateWebhookEndpoint(db, webhookTargets, partition, path.webhook_endpoint_id, body)),

  rotateWebhookSecret: ({ path }, { db, partition }) =>
    ok(webhooks.rotateWebhookSecret(db, partition, path.webhook_endpoint_id)),

  async deleteWebhookEndpoint({ path }, { db, partition }) {
    await webhooks.deleteWebhookEndpoint(db, partition, path.webhook_endpoint_id);
    return { status: 204 };
  },

  async sendTestWebhookEvent({ path }, { db, partition }) {
    const delivery = await webhooks.sendTestEvent(db, partition, path.webhook_endpoint_id);
    return { status: 202, headers: { Location: deliveryPath(delivery) }, body: delivery };
  },

  async listWebhookDeliveries({ path, query }, context) {
    const filters = { status: query?.status };
    return listed(context, `deliveries:${path.webhook_endpoint_id}`, query, filters, (page) =>
      webhooks.listWebhookDeliveries(context.db, context.partition, path.webhook_endpoint_id, page, filters),
    );
  },

  getWebhookDelivery: ({ path }, { db, partition }) =>
    ok(webhooks.getWebhookDelivery(db, partition, path.webhook_endpoint_id, path.delivery_id)),

  async redeliverWebhookDelivery({ path }, { db, partition }) {
    const delivery = await webhooks.redeliver(db, partition, path.webhook_endpoint_id, path.delivery_id);
    return { status: 202, headers: { Location: deliveryPath(delivery) }, body: delivery };
  },
};
