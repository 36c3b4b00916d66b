// The whole database in one file, so that renaming a column when the contract moves is one edit here
// plus `npx drizzle-kit generate` (which writes the next migration into ./migrations).
//
// Conventions:
// - TypeScript property names are camelCase, SQL column names snake_case and written out, so a
//   reader can grep either.
// - Ids are text: a type prefix and random base62 (see ids.ts), never sequential, never guessable.
// - Times are timestamptz. Enumerated values are text with a CHECK constraint (not pg enums: a
//   CHECK is replaced by a migration in one statement, an enum value cannot be removed).
// - Every workspace resource carries workspace_id and environment ('live' | 'test'): the two
//   partitions a workspace has. List indexes are (workspace_id, environment, created_at desc, id
//   desc), the order of keyset pagination, so a page costs the same however deep it is.
import { sql } from "drizzle-orm";
import type { AnyPgColumn, ExtraConfigColumn } from "drizzle-orm/pg-core";
import type {
  SchemaAgent,
  SchemaAgentRunAttachment,
  SchemaAgentRunStatus,
  SchemaAgentRunTrigger,
  SchemaDeploymentStatus,
  SchemaDeploymentTarget,
  SchemaEnvironment,
  SchemaInvoiceStatus,
  SchemaPlan,
  SchemaProjectStatus,
  SchemaTemplate,
  SchemaVersionSource,
  SchemaVisibility,
  SchemaWebhookDeliveryStatus,
  SchemaWebhookEndpointStatus,
} from "../../generated/schema.d.ts";
import {
  bigint,
  bigserial,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";

export const environments = ["live", "test"] as const;
export type Environment = (typeof environments)[number];

export const plans = ["free", "pro", "team", "enterprise"] as const;
export type Plan = (typeof plans)[number];

export const agents = ["coding-agent-1", "coding-agent-2", "coding-agent-3"] as const;
export const visibilities = ["private", "unlisted", "public"] as const;
export const templates = ["blank", "landing-page", "dashboard", "web-app", "api-service"] as const;
export const projectStatuses = ["queued", "building", "ready", "failed", "canceled"] as const;
export const runTriggers = ["project_created", "api"] as const;
export const runStatuses = ["queued", "running", "succeeded", "failed", "canceled"] as const;
export const deploymentTargets = ["production", "preview"] as const;
export const deploymentStatuses = ["queued", "building", "ready", "failed", "superseded"] as const;
export const versionSources = ["agent_run", "restore", "checkpoint", "fork"] as const;
export const webhookEndpointStatuses = ["enabled", "disabled"] as const;
export const deliveryStatuses = ["pending", "succeeded", "failed"] as const;
export const invoiceStatuses = ["draft", "open", "paid", "void", "uncollectible"] as const;
export const idempotencyStates = ["in_progress", "completed"] as const;
export const memberRoles = ["owner", "admin", "member"] as const;
export type MemberRole = (typeof memberRoles)[number];
export const oauthTokenKinds = ["access", "refresh"] as const;

// The lists above restate the contract's enums, because CHECK constraints need their values at run
// time. The compiler holds each equal to the contract's type: a value added to or dropped from the
// contract fails the type-check here until the list (and a migration) follow.
type SameValues<List extends readonly string[], Contract> = [List[number]] extends [Contract]
  ? [Contract] extends [List[number]]
    ? true
    : never
  : never;
export const valuesFollowTheContract: [
  SameValues<typeof environments, SchemaEnvironment>,
  SameValues<typeof plans, SchemaPlan>,
  SameValues<typeof agents, SchemaAgent>,
  SameValues<typeof visibilities, SchemaVisibility>,
  SameValues<typeof templates, SchemaTemplate>,
  SameValues<typeof projectStatuses, SchemaProjectStatus>,
  SameValues<typeof runTriggers, SchemaAgentRunTrigger>,
  SameValues<typeof runStatuses, SchemaAgentRunStatus>,
  SameValues<typeof deploymentTargets, SchemaDeploymentTarget>,
  SameValues<typeof deploymentStatuses, SchemaDeploymentStatus>,
  SameValues<typeof versionSources, SchemaVersionSource>,
  SameValues<typeof webhookEndpointStatuses, SchemaWebhookEndpointStatus>,
  SameValues<typeof deliveryStatuses, SchemaWebhookDeliveryStatus>,
  SameValues<typeof invoiceStatuses, SchemaInvoiceStatus>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true];

/** A CHECK constraint `<column> in (<values>)`, named `<table>_<column>_check`. */
function oneOf(table: string, column: string, values: readonly string[]) {
  const list = values.map((value) => `'${value}'`).join(", ");
  return check(`${table}_${column}_check`, sql.raw(`"${column}" in (${list})`));
}

/**
 * The columns of keyset pagination, newest first, for the end of an index. NULLS FIRST is what a
 * plain `ORDER BY created_at DESC, id DESC` means; drizzle would otherwise write DESC NULLS LAST,
 * an order the planner cannot read that query from, and every page would sort the whole partition.
 */
function newestFirst(t: { createdAt: ExtraConfigColumn; id: ExtraConfigColumn }) {
  return [t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()] as const;
}

/**
 * What a partitioned table (columns `partitioned()`) has beside its columns: the check on its
 * environment, and the index its list pages read (the partition's rows, newest first).
 */
function partitionPages(
  table: string,
  t: {
    workspaceId: ExtraConfigColumn;
    environment: ExtraConfigColumn;
    createdAt: ExtraConfigColumn;
    id: ExtraConfigColumn;
  },
) {
  return [
    oneOf(table, "environment", environments),
    index(`${table}_page_idx`).on(t.workspaceId, t.environment, ...newestFirst(t)),
  ] as const;
}

// Millisecond precision, as JavaScript dates have: a keyset cursor carries the creation time of the
// last row it returned, and a row stored with microseconds would not equal the time read back.
const createdAt = () => timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const optionalTime = (name: string) => timestamp(name, { withTimezone: true });
const environment = () => text("environment", { enum: environments }).notNull();

/** A reference to the row this one is part of (`parent`'s key): deleting that row deletes this one. */
const belongsTo = <Name extends string>(name: Name, parent: () => AnyPgColumn) =>
  text(name).notNull().references(parent, { onDelete: "cascade" });
/** A reference to a row this one needs (`parent`'s key), which cannot be deleted while it is named. */
const refersTo = <Name extends string>(name: Name, parent: () => AnyPgColumn) =>
  text(name).notNull().references(parent);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

export const workspaces = pgTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    plan: text("plan", { enum: plans }).notNull().default("free"),
    createdAt: createdAt(),
  },
  () => [oneOf("workspaces", "plan", plans)],
);

const workspaceId = () => refersTo("workspace_id", () => workspaces.id);
/** The columns that put a row in one workspace's live or test data (src/domain/partition.ts). */
const partitioned = () => ({ workspaceId: workspaceId(), environment: environment() });

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    environment: environment(),
    scopes: text("scopes")
      .array()
      .notNull()
      .default(sql`'{*}'::text[]`),
    /** SHA-256 hex of the secret. The secret itself is never stored. */
    secretHash: text("secret_hash").notNull().unique(),
    /** The start of the secret, e.g. `svc_live_ab12`, to recognise a key in lists. */
    displayPrefix: text("display_prefix").notNull(),
    last4: text("last4").notNull(),
    createdAt: createdAt(),
    expiresAt: optionalTime("expires_at"),
    revokedAt: optionalTime("revoked_at"),
    lastUsedAt: optionalTime("last_used_at"),
    /** Who created it: a member's user id (`usr_…`), or `pbs` for the operator CLI; null before this was recorded. */
    createdBy: text("created_by"),
  },
  (t) => [
    oneOf("api_keys", "environment", environments),
    index("api_keys_workspace_idx").on(t.workspaceId, ...newestFirst(t)),
  ],
);

/**
 * The audit log. Two kinds of row:
 * - one per API request, written by the HTTP pipeline (failed authentications included): `action`
 *   is null; `key_id` names the API key, or `client_id` the OAuth application, that made it; `tool`
 *   the MCP tool it came as (src/mcp/), if it did;
 * - one per administrative action taken in the settings console or with `pbs` (a key created or
 *   revoked, a webhook changed, a member added, an app authorized or revoked): `action` says what,
 *   `actor` who (a member's user id, or `pbs`), `target` on what. A console action also carries the
 *   request's method, path, status and IP; a `pbs` action has no request, so those are null.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // Milliseconds, as JavaScript dates: a page of the log ends at its last row's time, read back as a Date.
    occurredAt: timestamp("occurred_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    workspaceId: text("workspace_id"),
    keyId: text("key_id"),
    /** The OAuth application whose access token made the request. */
    clientId: text("client_id"),
    method: text("method"),
    /** The contract's path template (e.g. /v1/projects/{project_id}); null for unknown routes. */
    route: text("route"),
    path: text("path"),
    status: integer("status"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    requestId: text("request_id"),
    latencyMs: integer("latency_ms"),
    /** The MCP tool (an operationId) an API request carried out; null for a request over HTTP. */
    tool: text("tool"),
    /** An administrative action, e.g. `api_key.created`; null for an API request. */
    action: text("action"),
    actor: text("actor"),
    target: text("target"),
    /** The requests the row stands for: 1, or the refusals of one address in one window past the pages' limit. */
    count: integer("count").notNull().default(1),
  },
  (t) => [
    index("audit_log_workspace_idx").on(t.workspaceId, t.occurredAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Retention (src/domain/retention.ts) deletes the oldest rows in batches.
    index("audit_log_occurred_at_idx").on(t.occurredAt),
  ],
);

/** Stored responses of creating POSTs, replayed for 24 h (see src/http/idempotency.ts). */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    workspaceId: text("workspace_id").notNull(),
    // Plain text in TypeScript (the CHECK below still holds): the idempotency layer treats the
    // partition as an opaque part of the key.
    environment: text("environment").notNull(),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: idempotencyStates }).notNull(),
    responseStatus: integer("response_status"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.environment, t.key] }),
    oneOf("idempotency_keys", "environment", environments),
    oneOf("idempotency_keys", "state", idempotencyStates),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
  ],
);

export const projects = pgTable(
  "projects",
  {
    id: text("id").primaryKey(),
    ...partitioned(),
    name: text("name").notNull(),
    prompt: text("prompt").notNull(),
    agent: text("agent", { enum: agents }).notNull(),
    visibility: text("visibility", { enum: visibilities }).notNull(),
    template: text("template", { enum: templates }).notNull().default("blank"),
    status: text("status", { enum: projectStatuses }).notNull().default("queued"),
    latestRunId: text("latest_run_id"),
    url: text("url"),
    // Where a fork came from: kept as it was when the source (or its versions) are deleted.
    forkedFromProjectId: text("forked_from_project_id"),
    forkedFromVersionId: text("forked_from_version_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    ...partitionPages("projects", t),
    oneOf("projects", "agent", agents),
    oneOf("projects", "visibility", visibilities),
    oneOf("projects", "template", templates),
    oneOf("projects", "status", projectStatuses),
  ],
);

const projectId = () => belongsTo("project_id", () => projects.id);

export const agentRuns = pgTable(
  "agent_runs",
  {
    id: text("id").primaryKey(),
    projectId: projectId(),
    ...partitioned(),
    agent: text("agent", { enum: agents }).notNull(),
    prompt: text("prompt").notNull(),
    trigger: text("trigger", { enum: runTriggers }).notNull(),
    status: text("status", { enum: runStatuses }).notNull().default("queued"),
    creditsUsed: integer("credits_used").notNull().default(0),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    /** What the agent said it did, once the run succeeded. */
    summary: text("summary"),
    /** The run's turn in the fair queue across tenants (src/domain/fair-share.ts). */
    queueRound: integer("queue_round"),
    /** The version the run recorded, once it succeeded with a change. */
    versionId: text("version_id").references((): AnyPgColumn => versions.id, { onDelete: "set null" }),
    /** The most credits the run may use; null for no limit but the workspace's. */
    maxCredits: integer("max_credits"),
    /** The files given to the agent with the prompt, as they were when the run was triggered. */
    attachments: jsonb("attachments").$type<SchemaAgentRunAttachment[]>().notNull().default([]),
    createdAt: createdAt(),
    startedAt: optionalTime("started_at"),
    finishedAt: optionalTime("finished_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    ...partitionPages("agent_runs", t),
    oneOf("agent_runs", "agent", agents),
    oneOf("agent_runs", "trigger", runTriggers),
    oneOf("agent_runs", "status", runStatuses),
    index("agent_runs_project_idx").on(t.projectId, ...newestFirst(t)),
    // Usage: the credits a partition's runs were charged in a billing period (by finishing time),
    // and what its running runs hold in reserve.
    index("agent_runs_usage_idx").on(t.workspaceId, t.environment, t.finishedAt),
    index("agent_runs_running_idx")
      .on(t.workspaceId, t.environment)
      .where(sql`status = 'running'`),
    // A tenant's last turn among its queued runs, and the queue's depth per tenant.
    index("agent_runs_queued_idx")
      .on(t.workspaceId, t.environment, t.queueRound)
      .where(sql`status = 'queued'`),
  ],
);

export const deployments = pgTable(
  "deployments",
  {
    id: text("id").primaryKey(),
    projectId: projectId(),
    ...partitioned(),
    /** The run that recorded the deployed version; null for a restore's, a checkpoint's or a fork's. */
    runId: text("run_id").references(() => agentRuns.id, { onDelete: "cascade" }),
    /** The deployed version (null only on rows written before versions were recorded). */
    versionId: text("version_id").references((): AnyPgColumn => versions.id, { onDelete: "cascade" }),
    target: text("target", { enum: deploymentTargets }).notNull(),
    status: text("status", { enum: deploymentStatuses }).notNull().default("queued"),
    /** The DNS label of the deployment's own origin (`<label>.localhost`, `<label>.<APPS_DOMAIN>`). */
    label: text("label").unique(),
    url: text("url"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    /** For a rollback, the earlier deployment whose build this one serves again. */
    rollbackOf: text("rollback_of").references((): AnyPgColumn => deployments.id, { onDelete: "set null" }),
    /** The build's turn in the fair queue across tenants (src/domain/fair-share.ts). */
    queueRound: integer("queue_round"),
    createdAt: createdAt(),
    readyAt: optionalTime("ready_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    ...partitionPages("deployments", t),
    oneOf("deployments", "target", deploymentTargets),
    oneOf("deployments", "status", deploymentStatuses),
    index("deployments_project_idx").on(t.projectId, ...newestFirst(t)),
    index("deployments_queued_idx")
      .on(t.workspaceId, t.environment, t.queueRound)
      .where(sql`status = 'queued'`),
  ],
);

/**
 * Each job queue's clock: the turn of the job a worker started last. A tenant that starts queueing
 * takes its first turn here, behind nobody who has waited longer (src/domain/fair-share.ts).
 */
export const workQueueClocks = pgTable("work_queue_clocks", {
  queue: text("queue").primaryKey(),
  round: integer("round").notNull(),
});

/** A file's metadata; its bytes are in file_chunks, so every replica can stream them. */
export const files = pgTable(
  "files",
  {
    id: text("id").primaryKey(),
    projectId: projectId(),
    ...partitioned(),
    path: text("path").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    ...partitionPages("files", t),
    unique("files_project_path_unique").on(t.projectId, t.path),
    index("files_project_idx").on(t.projectId, ...newestFirst(t)),
  ],
);

/** A chunk: its place in the content (`seq`) and its bytes. */
const chunk = () => ({
  seq: integer("seq").notNull(),
  data: bytea("data").notNull(),
});

/** A file's content in order of `seq`; uploads append chunks and downloads read them one by one. */
export const fileChunks = pgTable(
  "file_chunks",
  {
    fileId: belongsTo("file_id", () => files.id),
    ...chunk(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

/**
 * Content-addressed bytes, shared by every build that holds the same content: a run's snapshot and
 * a deployment's published files name blobs by SHA-256, so a file that did not change between two
 * builds is stored once. Unreferenced blobs are removed by housekeeping.
 */
export const blobs = pgTable("blobs", {
  sha256: text("sha256").primaryKey(),
  sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
  createdAt: createdAt(),
});

/** A blob's content in order of `seq`, CHUNK_BYTES each but the last, as file_chunks. */
export const blobChunks = pgTable(
  "blob_chunks",
  {
    sha256: belongsTo("sha256", () => blobs.sha256),
    ...chunk(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.seq] })],
);

/** A build's file tree: path → blob. Immutable once written. */
const treeEntry = () => ({
  path: text("path").notNull(),
  sha256: refersTo("sha256", () => blobs.sha256),
  contentType: text("content_type").notNull(),
  sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
});

/** The snapshot of a project's files taken when a run finished: the run's build, as deployed. */
export const runFiles = pgTable(
  "run_files",
  {
    runId: belongsTo("run_id", () => agentRuns.id),
    ...treeEntry(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.path] }), index("run_files_sha256_idx").on(t.sha256)],
);

/**
 * An immutable snapshot of a project's files, numbered per project without gaps: recorded by a
 * succeeded run that changed something, a restore, a checkpoint or a fork (src/domain/versions.ts).
 */
export const versions = pgTable(
  "versions",
  {
    id: text("id").primaryKey(),
    projectId: projectId(),
    ...partitioned(),
    number: integer("number").notNull(),
    source: text("source", { enum: versionSources }).notNull(),
    agentRunId: text("agent_run_id").references((): AnyPgColumn => agentRuns.id, { onDelete: "set null" }),
    restoredFrom: text("restored_from").references((): AnyPgColumn => versions.id, { onDelete: "set null" }),
    message: text("message"),
    fileCount: integer("file_count").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf("versions", "environment", environments),
    oneOf("versions", "source", versionSources),
    unique("versions_project_number_unique").on(t.projectId, t.number),
    index("versions_project_idx").on(t.projectId, ...newestFirst(t)),
  ],
);

/** A version's file tree: path → blob, as run_files. */
export const versionFiles = pgTable(
  "version_files",
  {
    versionId: belongsTo("version_id", () => versions.id),
    ...treeEntry(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.path] }), index("version_files_sha256_idx").on(t.sha256)],
);

/** What a deployment publishes: its run's snapshot after the build step. */
export const deploymentFiles = pgTable(
  "deployment_files",
  {
    deploymentId: belongsTo("deployment_id", () => deployments.id),
    ...treeEntry(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.path] }), index("deployment_files_sha256_idx").on(t.sha256)],
);

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    ...partitioned(),
    url: text("url").notNull(),
    description: text("description"),
    enabledEvents: text("enabled_events").array().notNull(),
    status: text("status", { enum: webhookEndpointStatuses }).notNull().default("enabled"),
    /** The signing secret; kept in clear because every delivery is signed with it. */
    secret: text("secret").notNull(),
    /** After a rotation, the secret before it, which keeps signing beside the new one until it expires. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: optionalTime("previous_secret_expires_at"),
    /** Why the service disabled the endpoint (410 Gone, failing for days); null otherwise. */
    disabledReason: text("disabled_reason"),
    /** The first failed attempt since the last success: failing for 3 days disables the endpoint. */
    failingSince: optionalTime("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [...partitionPages("webhook_endpoints", t), oneOf("webhook_endpoints", "status", webhookEndpointStatuses)],
);

export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    ...partitioned(),
    type: text("type").notNull(),
    data: jsonb("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [...partitionPages("events", t), index("events_created_at_idx").on(t.createdAt)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookEndpointId: belongsTo("webhook_endpoint_id", () => webhookEndpoints.id),
    eventId: belongsTo("event_id", () => events.id),
    ...partitioned(),
    status: text("status", { enum: deliveryStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: optionalTime("next_attempt_at"),
    lastAttemptAt: optionalTime("last_attempt_at"),
    responseStatus: integer("response_status"),
    lastError: text("last_error"),
    /** The process attempting the delivery now, and until when its claim holds (see src/jobs/webhook-delivery-worker.ts). */
    claimedBy: text("claimed_by"),
    claimedUntil: optionalTime("claimed_until"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    ...partitionPages("webhook_deliveries", t),
    oneOf("webhook_deliveries", "status", deliveryStatuses),
    index("webhook_deliveries_endpoint_idx").on(t.webhookEndpointId, ...newestFirst(t)),
    // The delivery worker's question: which pending deliveries are due?
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    // Retention: the oldest deliveries, and whether an event still has one (also what deleting an
    // event, which cascades to its deliveries, looks up).
    index("webhook_deliveries_created_at_idx").on(t.createdAt),
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);

/** Every attempt of a delivery: what the endpoint answered, or why it could not. */
export const webhookDeliveryAttempts = pgTable(
  "webhook_delivery_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: belongsTo("delivery_id", () => webhookDeliveries.id),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, precision: 3 }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    responseStatus: integer("response_status"),
    /** The start of the answer's body, at most 1,024 characters. */
    responseBody: text("response_body"),
    error: text("error"),
  },
  (t) => [index("webhook_delivery_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt.desc().nullsFirst())],
);

export const invoices = pgTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    ...partitioned(),
    number: text("number").notNull(),
    status: text("status", { enum: invoiceStatuses }).notNull(),
    currency: text("currency").notNull(),
    /** In the currency's smallest unit; bigint since the contract allows up to 10^11. */
    amountDue: bigint("amount_due", { mode: "number" }).notNull(),
    amountPaid: bigint("amount_paid", { mode: "number" }).notNull().default(0),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    ...partitionPages("invoices", t),
    oneOf("invoices", "status", invoiceStatuses),
    unique("invoices_number_unique").on(t.workspaceId, t.number),
  ],
);

/**
 * Secrets every replica must share, created once by whichever replica needs one first (the cursor
 * signing key, say): keeping them in the database spares operators from distributing them.
 */
export const serverSecrets = pgTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

/** A person who signs in to the settings console (and consents to OAuth applications). */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  /** Lowercased; unique across the service: one person, one sign-in, several workspaces. */
  email: text("email").notNull().unique(),
  /** `scrypt$N$r$p$salt$hash` (see src/domain/passwords.ts). */
  passwordHash: text("password_hash").notNull(),
  createdAt: createdAt(),
});

/** Who belongs to which workspace, and with what role. */
export const memberships = pgTable(
  "memberships",
  {
    workspaceId: workspaceId(),
    userId: refersTo("user_id", () => users.id),
    role: text("role", { enum: memberRoles }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    oneOf("memberships", "role", memberRoles),
    index("memberships_user_idx").on(t.userId),
  ],
);

/** Sign-in sessions of the console, server-side so every replica sees them. Only the SHA-256 of the cookie's value is kept. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: refersTo("user_id", () => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Failed sign-ins per subject (`email:<address>` or `ip:<address>`), to slow guessing down on every replica. */
export const signInFailures = pgTable("sign_in_failures", {
  subject: text("subject").primaryKey(),
  failures: integer("failures").notNull(),
  lastFailedAt: timestamp("last_failed_at", { withTimezone: true }).notNull(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

/** Third-party applications, registered by the operator (`pbs oauth-clients create`). */
export const oauthClients = pgTable("oauth_clients", {
  /** The public client id, `pbc_…`. */
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** SHA-256 of the client secret; null for a public client (which must use PKCE). */
  secretHash: text("secret_hash"),
  redirectUris: text("redirect_uris").array().notNull(),
  createdAt: createdAt(),
});

/**
 * One authorization: a member consented to an application acting in one workspace with these
 * scopes. Every code, access token and refresh token issued from it belongs to it, so revoking the
 * grant (an app revoked in the console, a reused code or refresh token, RFC 7009) revokes them all.
 */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    clientId: refersTo("client_id", () => oauthClients.id),
    workspaceId: workspaceId(),
    userId: refersTo("user_id", () => users.id),
    scopes: text("scopes").array().notNull(),
    createdAt: createdAt(),
    revokedAt: optionalTime("revoked_at"),
    lastUsedAt: optionalTime("last_used_at"),
  },
  (t) => [index("oauth_grants_workspace_idx").on(t.workspaceId, t.clientId)],
);

/** Authorization codes (single use, 10 minutes); only their SHA-256 is kept. */
export const oauthCodes = pgTable("oauth_codes", {
  codeHash: text("code_hash").primaryKey(),
  grantId: refersTo("grant_id", () => oauthGrants.id),
  redirectUri: text("redirect_uri").notNull(),
  codeChallenge: text("code_challenge"),
  codeChallengeMethod: text("code_challenge_method"),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: optionalTime("used_at"),
});

/** Access and refresh tokens; only their SHA-256 is kept. A refresh token is used (rotated) once. */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    grantId: refersTo("grant_id", () => oauthGrants.id),
    kind: text("kind", { enum: oauthTokenKinds }).notNull(),
    scopes: text("scopes").array().notNull(),
    /** The start and end of the token in clear, to recognise it (as API keys' prefix and last four). */
    displayPrefix: text("display_prefix").notNull(),
    last4: text("last4").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: optionalTime("used_at"),
  },
  (t) => [
    oneOf("oauth_tokens", "kind", oauthTokenKinds),
    index("oauth_tokens_grant_idx").on(t.grantId),
    index("oauth_tokens_expires_idx").on(t.expiresAt),
  ],
);

export type Workspace = typeof workspaces.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
export type Project = typeof projects.$inferSelect;
export type AgentRun = typeof agentRuns.$inferSelect;
export type Deployment = typeof deployments.$inferSelect;
export type ProjectFile = typeof files.$inferSelect;
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type Event = typeof events.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;
export type Blob = typeof blobs.$inferSelect;
export type User = typeof users.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
export type OAuthClient = typeof oauthClients.$inferSelect;
export type OAuthGrant = typeof oauthGrants.$inferSelect;
