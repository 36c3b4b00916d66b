// `agent_run.progress`: what a running run just did (a file written, a tool called) and the paths it
// has written so far, recorded as an event like any other, so it is on the live stream and in
// GET /v1/events. It is chatty, so unlike other events it goes by webhook only to endpoints that name
// it in their enabled events: `*` does not include it (events.ts, NAMED_ONLY; docs/webhooks.md).
import type { SchemaAgentRunProgress } from "../../generated/schema.d.ts";
import type { Queryable } from "../storage/index.ts";
import { recordEvent } from "./events.ts";
import type { Partition } from "./partition.ts";

/** The longest message kept (the contract's bound). */
const MAX_MESSAGE_CHARS = 200;

export async function recordRunProgress(
  db: Queryable,
  partition: Partition,
  progress: SchemaAgentRunProgress,
): Promise<void> {
  const characters = [...progress.message];
  const message =
    characters.length > MAX_MESSAGE_CHARS
      ? `${characters.slice(0, MAX_MESSAGE_CHARS - 1).join("")}…`
      : progress.message;
  await recordEvent(db, partition, "agent_run.progress", { ...progress, message } satisfies SchemaAgentRunProgress);
}
