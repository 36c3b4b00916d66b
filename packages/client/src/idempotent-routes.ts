// Generated from the contract (openapi.yaml) by scripts/packages.ts. Do not edit: change spec/ and run `npm run build`.

/** `METHOD /path/{template}` of every operation that takes an Idempotency-Key: the client adds one to these. */
export const idempotentRoutes: ReadonlySet<string> = new Set([
  "POST /v1/projects",
  "POST /v1/projects/{project_id}/deployments",
  "POST /v1/projects/{project_id}/deployments/{deployment_id}/rollback",
  "POST /v1/projects/{project_id}/files",
  "POST /v1/projects/{project_id}/fork",
  "POST /v1/projects/{project_id}/runs",
  "POST /v1/projects/{project_id}/versions",
  "POST /v1/projects/{project_id}/versions/{version_id}/restore",
  "POST /v1/webhooks",
  "POST /v1/webhooks/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver",
  "POST /v1/webhooks/{webhook_endpoint_id}/rotate-secret",
  "POST /v1/webhooks/{webhook_endpoint_id}/test",
]);
