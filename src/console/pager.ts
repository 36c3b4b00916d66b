// The First page / Next page links under a console list (webhooks, deliveries, audit log, invoices).
import { html, type Html } from "../html/template.ts";

export function pager(next: string | undefined, notFirst: boolean, first: string): Html {
  if (!next && !notFirst) return html``;
  return html`<nav class="pager" aria-label="Pages">
${notFirst ? html`<a href="${first}">First page</a>` : ""}
${next ? html`<a href="${next}" rel="next">Next page</a>` : html`<span class="meta">Last page</span>`}
</nav>`;
}
