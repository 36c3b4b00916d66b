// One delivery in an endpoint's log: its status, every attempt, and the redeliver button.
import type { SchemaWebhookDelivery } from "../../../generated/schema.d.ts";
import { html, type Html } from "../../html/template.ts";
import { none, table, time } from "../layout.ts";

export function deliveryBlock(here: string, hidden: Html, delivery: SchemaWebhookDelivery, admin: boolean): Html {
  const headingId = `delivery-${delivery.id}`;
  const attempts = delivery.attempt_log ?? [];
  return html`<article class="delivery" aria-labelledby="${headingId}">
<h3 id="${headingId}"><code>${delivery.event_type}</code> <span class="status status-${delivery.status}">${delivery.status}</span></h3>
<p class="meta">Delivery <code>${delivery.id}</code> of event <code>${delivery.event_id}</code> · queued ${time(delivery.created_at)} · ${delivery.attempts} ${delivery.attempts === 1 ? "attempt" : "attempts"}${
    delivery.next_attempt_at ? html` · next attempt ${time(delivery.next_attempt_at)}` : ""
  }</p>
${table({
  caption: html`Attempts of delivery <code>${delivery.id}</code>, newest first`,
  captionHidden: true,
  columns: ["Attempted", "Duration", "Response", "Detail"],
  rows: attempts.map(
    (attempt) => html`<tr>
<td>${time(attempt.attempted_at)}</td>
<td>${attempt.duration_ms} ms</td>
<td>${attempt.response_status ?? none()}</td>
<td>${attempt.error ? html`<span class="error-text">${attempt.error}</span>` : attempt.response_body ? html`<code class="body">${attempt.response_body.slice(0, 200)}</code>` : none()}</td>
</tr>`,
  ),
  empty: delivery.status === "pending" ? "Not attempted yet." : "No attempts recorded.",
})}
${
  admin
    ? html`<form method="post" action="${here}/deliveries/${delivery.id}/redeliver">${hidden}<button type="submit" aria-label="Redeliver ${delivery.event_type} (${delivery.id})">Redeliver</button></form>`
    : ""
}
</article>`;
}
