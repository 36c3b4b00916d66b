// The calling key: HTTP in, the principal out in the contract's ApiKey shape. Authentication has
// already read the key and its workspace (and refreshed last_used_at), so there is nothing to query.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaApiKey, SchemaScope } from "../../generated/schema.d.ts";
import type { Principal } from "../domain/keys.ts";
import { iso, isoOrNull } from "../domain/partition.ts";
import type { Context } from "./context.ts";

type KeyHandlers = Pick<Handlers<Context>, "getCurrentApiKey">;

export function toApiKey({ key, workspace }: Principal): SchemaApiKey {
  return {
    id: key.id,
    name: key.name,
    workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name, plan: workspace.plan },
    environment: key.environment,
    scopes: key.scopes as SchemaScope[],
    display_prefix: key.displayPrefix,
    last4: key.last4,
    created_at: iso(key.createdAt),
    expires_at: isoOrNull(key.expiresAt),
    last_used_at: isoOrNull(key.lastUsedAt),
  };
}

export const keyHandlers: KeyHandlers = {
  async getCurrentApiKey(_input, { principal }) {
    return { status: 200, body: toApiKey(principal) };
  },
};
