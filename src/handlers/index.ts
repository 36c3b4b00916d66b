// Every operation of the contract, one handler each. Typed as the generated `Handlers`, so an
// operation without a handler, or a handler answering what the contract does not declare, fails
// the type-check.
import type { Handlers } from "../../generated/handlers.ts";
import { agentRunHandlers } from "./agent-runs.ts";
import { billingHandlers } from "./billing.ts";
import type { Context } from "../http/request-context.ts";
import { deploymentHandlers } from "./deployments.ts";
import { eventHandlers } from "./events.ts";
import { fileHandlers } from "./files.ts";
import { keyHandlers } from "./keys.ts";
import { projectHandlers } from "./projects.ts";
import { versionDiffHandlers } from "./version-diff.ts";
import { versionHandlers } from "./versions.ts";
import { webhookHandlers } from "./webhooks.ts";

export const handlers: Handlers<Context> = {
  ...keyHandlers,
  ...projectHandlers,
  ...agentRunHandlers,
  ...deploymentHandlers,
  ...versionHandlers,
  ...versionDiffHandlers,
  ...fileHandlers,
  ...billingHandlers,
  ...webhookHandlers,
  ...eventHandlers,
};
