// The calling key: HTTP in, the principal out in the contract's ApiKey shape. Authentication has
// already read the key and its workspace (and refreshed last_used_at), so there is nothing to query.
import type { Handlers } from "../../generated/handlers.ts";
import { toApiKey } from "../domain/keys.ts";
import type { Context } from "../http/request-context.ts";

type KeyHandlers = Pick<Handlers<Context>, "getCurrentApiKey">;

export const keyHandlers: KeyHandlers = {
  async getCurrentApiKey(_input, { principal }) {
    return { status: 200, body: toApiKey(principal) };
  },
};
