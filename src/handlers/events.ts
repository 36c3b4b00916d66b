// Events: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaEvent } from "../../generated/schema.d.ts";
import * as events from "../domain/events.ts";
import type { Context } from "./context.ts";
import { paged } from "./pagination.ts";

type EventHandlers = Pick<Handlers<Context>, "listEvents" | "getEvent">;

export const eventHandlers: EventHandlers = {
  async listEvents({ query }, context) {
    const filters = { type: query?.type };
    const list = paged<SchemaEvent>(context, "events", query, filters);
    return { status: 200, body: list.body(await events.listEvents(context.db, context.partition, list.request, filters)) };
  },

  async getEvent({ path }, { db, partition }) {
    return { status: 200, body: await events.getEvent(db, partition, path.event_id) };
  },
};
