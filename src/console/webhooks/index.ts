// Webhooks in the console: a partition's endpoints (live by default, test with `?environment=test`),
// registering one with its signing secret shown once, and per endpoint: edit, enable/disable, rotate
// the secret (shown once), send a test event, delete, and the delivery log with every attempt and
// redelivery. Owners and admins change things; members read. One module per page or job:
// list.ts, registration.ts, endpoint-page.ts, delivery-log.ts, actions.ts; the shared form fields
// (endpoint-form.ts) and notices (notices.ts); the partition shown is ../environment.ts.
import type { WorkspaceRoute } from "../routes.ts";
import {
  confirmDelete,
  deleteEndpoint,
  redeliverDelivery,
  rotateSecret,
  setStatus,
  testEndpoint,
  updateEndpoint,
} from "./actions.ts";
import { endpointPage } from "./endpoint-page.ts";
import { environmentOf } from "../environment.ts";
import { listPage } from "./list.ts";
import { registerEndpoint } from "./registration.ts";

const ENDPOINT = "(we_[A-Za-z0-9]{1,64})";

export const webhookRoutes: WorkspaceRoute[] = [
  {
    method: "GET",
    path: /^\/webhooks$/,
    handle: (ctx) =>
      listPage(ctx, { status: 200, environment: environmentOf(ctx.url.searchParams.get("environment")) }),
  },
  { method: "POST", path: /^\/webhooks$/, admin: "register webhook endpoints", handle: registerEndpoint },
  {
    method: "GET",
    path: new RegExp(`^/webhooks/${ENDPOINT}$`),
    handle: (ctx, [id]) =>
      endpointPage(ctx, id!, { status: 200, environment: environmentOf(ctx.url.searchParams.get("environment")) }),
  },
  {
    method: "POST",
    path: new RegExp(`^/webhooks/${ENDPOINT}/update$`),
    admin: "change webhook endpoints",
    handle: updateEndpoint,
  },
  {
    method: "POST",
    path: new RegExp(`^/webhooks/${ENDPOINT}/status$`),
    admin: "enable or disable webhook endpoints",
    handle: setStatus,
  },
  {
    method: "POST",
    path: new RegExp(`^/webhooks/${ENDPOINT}/rotate$`),
    admin: "rotate webhook secrets",
    handle: rotateSecret,
  },
  { method: "POST", path: new RegExp(`^/webhooks/${ENDPOINT}/test$`), admin: "send test events", handle: testEndpoint },
  { method: "GET", path: new RegExp(`^/webhooks/${ENDPOINT}/delete$`), handle: confirmDelete },
  {
    method: "POST",
    path: new RegExp(`^/webhooks/${ENDPOINT}/delete$`),
    admin: "delete webhook endpoints",
    handle: deleteEndpoint,
  },
  {
    method: "POST",
    path: new RegExp(`^/webhooks/${ENDPOINT}/deliveries/(dlv_[A-Za-z0-9]{1,64})/redeliver$`),
    admin: "redeliver webhook events",
    handle: redeliverDelivery,
  },
];
