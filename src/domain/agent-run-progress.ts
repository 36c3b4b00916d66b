// `agent_run.progress`: what a running run just did (a file written, a tool called) and the paths it
// has written so far, recorded as an event like any other, so it is on the live stream and in
// GET /v1/events. It is chatty, so unlike other events it goes by webhook only to endpoints that name
// it in their enabled events: `*` does not include it (the README, "Webhooks", says so).
import { sql } from "drizzle-orm";
import type { SchemaAgentRunProgress } from "../../generated/schema.d.ts";
import type { Database } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import type { Partition } from "./partition.ts";

/** The longest message kept (the contract's bound). */
const MAX_MESSAGE_CHARS = 200;

export async function recordRunProgress(db: Database, partition: Partition, progress: SchemaAgentRunProgress): Promise<void> {
  const message = [...progress.message].length > MAX_MESSAGE_CHARS ? `${[...progress.message].slice(0, MAX_MESSAGE_CHARS - 1).join("")}…` : progress.message;
  const object: SchemaAgentRunProgress = { ...progress, message };
  await db.execute(sql`
    with recorded as (
      insert into events (id, workspace_id, environment, type, data, created_at)
      values (${newId("evt")}, ${partition.workspaceId}, ${partition.environment}, 'agent_run.progress', ${JSON.stringify(object)}::jsonb, ${new Date().toISOString()}::timestamptz)
      returning id, created_at)
    insert into webhook_deliveries (id, webhook_endpoint_id, event_id, workspace_id, environment, next_attempt_at)
    select 'dlv_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), endpoint.id, recorded.id,
      endpoint.workspace_id, endpoint.environment, recorded.created_at
    from recorded
    join webhook_endpoints endpoint
      on endpoint.workspace_id = ${partition.workspaceId}
     and endpoint.environment = ${partition.environment}
     and endpoint.status = 'enabled'
     and 'agent_run.progress' = any(endpoint.enabled_events)`);
}
