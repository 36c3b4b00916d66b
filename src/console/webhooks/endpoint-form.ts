// The endpoint's fields (URL, description, events), shared by the register and edit forms: reading
// them from a post, and showing them with the value and error of a refused one.
import type { SchemaWebhookEndpoint } from "../../../generated/schema.d.ts";
import { InvalidInputError } from "../../domain/errors.ts";
import { EVENT_TYPES } from "../../domain/events.ts";
import { html, type Html } from "../../html/template.ts";
import { describedBy, fieldError, sentence } from "../layout.ts";

type EnabledEvents = SchemaWebhookEndpoint["enabled_events"];

export function eventsSummary(list: readonly string[]): string {
  return list.includes("*") ? "All events" : list.join(", ");
}

export function enabledEventsOf(form: URLSearchParams): EnabledEvents {
  const chosen = form.getAll("enabled_events");
  const unknown = chosen.filter((type) => type !== "*" && !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) throw new InvalidInputError(`unknown event type ${unknown.join(", ")}`, "enabled_events");
  return chosen as EnabledEvents;
}

/** The contract bounds a description to 500 characters (the API checks it against the contract; the console here). */
export function descriptionOf(form: URLSearchParams): string {
  const description = (form.get("description") ?? "").trim();
  if (description.length > 500)
    throw new InvalidInputError("the description must be at most 500 characters", "description");
  return description;
}

export interface FormState {
  readonly values?: URLSearchParams;
  readonly error?: { field: string; message: string };
}

const FIELD_OF_PARAM: Record<string, string> = {
  url: "url",
  description: "description",
  enabled_events: "enabled_events",
};

export function invalid(error: InvalidInputError): { field: string; message: string } {
  return { field: FIELD_OF_PARAM[error.param ?? ""] ?? "url", message: sentence(error.message) };
}

/** The url, description and events fields, shared by the register and edit forms. */
export function endpointFields(prefix: string, state: FormState, current?: SchemaWebhookEndpoint): Html {
  const values = state.values;
  const errorOf = (field: string) => (state.error?.field === field ? state.error.message : undefined);
  const events = values ? values.getAll("enabled_events") : (current?.enabled_events ?? ["*"]);
  return html`<div class="field">
<label for="${prefix}-url">Endpoint URL</label>
<input id="${prefix}-url" name="url" type="url" required maxlength="2048" inputmode="url" placeholder="https://example.com/webhooks" value="${values?.get("url") ?? current?.url ?? ""}"${describedBy(`${prefix}-url`, errorOf("url"), true)}>
<p class="hint" id="${prefix}-url-hint">An https address on the public internet. Deliveries are POST requests signed with the endpoint's secret.</p>
${fieldError(`${prefix}-url`, errorOf("url"))}
</div>
<div class="field">
<label for="${prefix}-description">Description <span class="optional">(optional)</span></label>
<input id="${prefix}-description" name="description" type="text" maxlength="500" value="${values?.get("description") ?? current?.description ?? ""}"${describedBy(`${prefix}-description`, errorOf("description"))}>
${fieldError(`${prefix}-description`, errorOf("description"))}
</div>
<fieldset${describedBy(`${prefix}-events`, errorOf("enabled_events"), true)}>
<legend>Events to send</legend>
<p class="hint" id="${prefix}-events-hint">All events is the default, and includes event types added later.</p>
<div class="choice"><input type="checkbox" id="${prefix}-event-all" name="enabled_events" value="*"${events.includes("*") ? html` checked` : ""}> <label for="${prefix}-event-all">All events</label></div>
<div class="columns">${EVENT_TYPES.map(
    (type, index) =>
      html`<div class="choice"><input type="checkbox" id="${prefix}-event-${index}" name="enabled_events" value="${type}"${events.includes(type) ? html` checked` : ""}> <label for="${prefix}-event-${index}"><code>${type}</code></label></div>`,
  )}</div>
${fieldError(`${prefix}-events`, errorOf("enabled_events"))}
</fieldset>`;
}
