// The console's page shell and the small pieces every page uses: the skip link, the header with the
// signed-in person and sign-out, the workspace nav, messages, the one-time secret box, tables and
// time formatting. Everything interpolated goes through `html`, which escapes it.
import type { Workspace } from "../storage/schema.ts";
import type { User } from "../storage/schema.ts";
import type { MemberRole } from "../domain/members.ts";
import { csrfField } from "../pages/csrf.ts";
import { html, type Html } from "../html/template.ts";
import { pageDocument } from "../pages/shell.ts";

/** The pages of a workspace, in nav order. */
export const sections = [
  { id: "keys", label: "API keys" },
  { id: "projects", label: "Projects" },
  { id: "webhooks", label: "Webhooks" },
  { id: "audit", label: "Audit log" },
  { id: "usage", label: "Usage" },
  { id: "apps", label: "Connected apps" },
  { id: "members", label: "Members" },
] as const;
export type SectionId = (typeof sections)[number]["id"];

export interface ShellOptions {
  readonly title: string;
  /** The page's one <h1>; defaults to the title. */
  readonly heading?: string;
  /** The signed-in person, for the header (and its sign-out form). */
  readonly user?: User;
  readonly csrf: string;
  /** The workspace whose nav to show, and which of its sections this page is. */
  readonly workspace?: {
    readonly workspace: Workspace;
    readonly role: MemberRole;
    readonly current?: SectionId;
    readonly sections?: readonly SectionId[];
  };
  readonly body: Html;
}

export function workspaceBase(workspace: Workspace): string {
  return `/settings/w/${encodeURIComponent(workspace.slug)}`;
}

/** The page around a body: the signed-in person and sign-out in the masthead, the workspace's navigation. */
export function shell(options: ShellOptions): Html {
  const ws = options.workspace;
  const base = ws ? workspaceBase(ws.workspace) : "";
  const visible = ws ? sections.filter((section) => !ws.sections || ws.sections.includes(section.id)) : [];
  return pageDocument({
    title: `${options.title}${ws ? ` · ${ws.workspace.name}` : ""}`,
    site: "Project Builder settings",
    heading: options.heading ?? options.title,
    script: true,
    masthead: html`<p class="brand"><a href="/settings">Project Builder settings</a></p>
${
  options.user
    ? html`<div class="whoami"><span class="email">${options.user.email}</span>
<form method="post" action="/settings/sign-out" class="inline">${csrfField(options.csrf)}<button type="submit" class="link-button">Sign out</button></form></div>`
    : ""
}`,
    ...(ws
      ? {
          nav: html`<nav class="wrap sections" aria-label="Workspace ${ws.workspace.name}">
<p class="workspace-name">${ws.workspace.name} <span class="role">(${ws.role})</span></p>
<ul>${visible.map(
            (section) =>
              html`<li><a href="${base}/${section.id}"${section.id === ws.current ? html` aria-current="page"` : ""}>${section.label}</a></li>`,
          )}</ul>
</nav>`,
        }
      : {}),
    body: options.body,
  });
}

/** A message for the whole page: `role="alert"` for errors (read out at once), `status` for notices. */
export function message(kind: "error" | "notice", text: string | Html): Html {
  return kind === "error"
    ? html`<div class="message error" role="alert"><p>${text}</p></div>`
    : html`<div class="message notice" role="status"><p>${text}</p></div>`;
}

/** An error about one field, placed next to it and named by its aria-describedby. */
export function fieldError(id: string, text: string | undefined): Html {
  return text ? html`<p class="field-error" id="${id}-error">${text}</p>` : html``;
}

export function describedBy(id: string, error: string | undefined, hint?: boolean): Html {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return ids ? html` aria-describedby="${ids}"${error ? html` aria-invalid="true"` : ""}` : html``;
}

/**
 * A secret shown once: selectable in a read-only input without JavaScript; console.js adds the
 * Copy button (navigator.clipboard).
 */
export function secretOnce(options: {
  heading: string;
  label: string;
  secret: string;
  explanation: string | Html;
}): Html {
  return html`<section class="secret-once" aria-labelledby="secret-heading">
<h2 id="secret-heading">${options.heading}</h2>
<p>${options.explanation}</p>
<label for="secret-value">${options.label}</label>
<div class="copy-row">
<input id="secret-value" class="secret-value" type="text" readonly value="${options.secret}" autocomplete="off" spellcheck="false" aria-describedby="secret-warning">
<button type="button" class="copy-button" data-copy-target="secret-value" hidden>Copy</button>
</div>
<p class="hint" id="secret-warning">It will not be shown again. Store it somewhere safe, such as a secrets manager.</p>
<p class="copy-status" role="status" aria-live="polite"></p>
</section>`;
}

/** A confirmation page's form: the one dangerous button, posted with the CSRF token (and `hidden` fields), and the way back. */
export function confirmForm(options: {
  action: string;
  csrf: string;
  button: string;
  cancel: string;
  hidden?: Html;
}): Html {
  return html`<form method="post" action="${options.action}" class="actions">
${csrfField(options.csrf)}${options.hidden ?? ""}
<button type="submit" class="danger">${options.button}</button>
<a href="${options.cancel}">Cancel</a>
</form>`;
}
/** A date as `2025-06-01 14:03 UTC` in a <time>; an em dash for none. */
export function time(date: Date | string | null | undefined): Html {
  if (!date) return html`<span class="none">—</span>`;
  const value = typeof date === "string" ? new Date(date) : date;
  const text = `${value.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return html`<time datetime="${value.toISOString()}">${text}</time>`;
}

export function none(): Html {
  return html`<span class="none">—</span>`;
}

/** A table with a caption and column headers (`scope="col"`); rows are given as cells. */
export function table(options: {
  caption: string | Html;
  columns: readonly string[];
  rows: readonly Html[];
  empty: string;
  captionHidden?: boolean;
}): Html {
  if (options.rows.length === 0) return html`<p class="empty">${options.empty}</p>`;
  return html`<div class="table-scroll"><table>
<caption${options.captionHidden ? html` class="visually-hidden"` : ""}>${options.caption}</caption>
<thead><tr>${options.columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
<tbody>${options.rows}</tbody>
</table></div>`;
}

/** Amount in a currency's smallest unit, e.g. 2000 usd → `$20.00`. */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);
  } catch {
    return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** A wait in words: `45 seconds`, `2 minutes`. */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** A domain message as a sentence: capitalised, with a full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
