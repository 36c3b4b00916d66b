// Events: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import * as events from "../domain/events.ts";
import type { Context } from "../http/request-context.ts";
import { listed } from "./pagination.ts";
import { ok } from "./ok.ts";

type EventHandlers = Pick<Handlers<Context>, "listEvents" | "getEvent" | "streamEvents">;

export const eventHandlers: EventHandlers = {
  async listEvents({ query }, context) {
    const filters = { type: query?.type };
    return listed(context, "events", query, filters, (page) =>
      events.listEvents(context.db, context.partition, page, filters),
    );
  },

  getEvent: ({ path }, { db, partition }) => ok(events.getEvent(db, partition, path.event_id)),

  async streamEvents({ query, header }, { eventStreams, partition, principal }) {
    // The header is what EventSource sends when it reconnects; the query is for a first connection.
    const fromHeader = header?.["Last-Event-ID"];
    const lastEventId = fromHeader
      ? { id: fromHeader, param: "Last-Event-ID" }
      : query?.last_event_id
        ? { id: query.last_event_id, param: "last_event_id" }
        : undefined;
    const body = await eventStreams.open({
      partition,
      keyId: principal.key.id,
      scopes: principal.key.scopes,
      projectId: query?.project_id,
      types: query?.types,
      lastEventId,
    });
    return { status: 200, body };
  },
};
