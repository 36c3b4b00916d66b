// An app spec rendered as files: index.html (its markup server-rendered, so the prompt's words are
// on the page before any script runs), style.css and app.js (the spec, the shared runtime and the
// archetype's script). Served under `Content-Security-Policy: default-src 'self'`: nothing inline.
import { readFileSync } from "node:fs";
import type { SchemaAgent } from "../../../generated/schema.d.ts";
import { html, Html } from "../../html/template.ts";
import type { Archetype } from "./archetype.ts";
import { specJson, type AppSpec, type Field } from "./spec.ts";
import { capitalize, fnv1a, slug } from "./words.ts";

const RUNTIME = readFileSync(new URL("client/runtime.js", import.meta.url), "utf8");

/** The files an app is made of; app.json is the spec they were rendered from. */
export interface AppFiles {
  readonly "index.html": string;
  readonly "style.css": string;
  readonly "app.js": string;
  readonly "app.json": string;
}

export function renderApp(spec: AppSpec, archetype: Archetype): AppFiles {
  const files = {
    "index.html": page(spec, archetype),
    "style.css": styleCss(spec, archetype),
    "app.js": appJs(spec, archetype),
  };
  return { ...files, "app.json": specJson(spec, fingerprint(files)) };
}

function page(spec: AppSpec, archetype: Archetype): string {
  const body = html`<header class="topbar">
<h1>${spec.title}</h1>
<p class="lead">${spec.tagline}</p>
${(spec.images ?? []).map(
  (image) => html`<figure class="app-figure"><img src="${image.path}" alt="${image.alt}"></figure>
`,
)}</header>
<main>
${archetype.body(spec)}
${spec.features.chart && archetype.accepts.has("chart") ? chartPanel() : ""}
${spec.sections.map(
  (section) => html`<section class="panel text-section" id="${section.id}">
<h2>${section.title}</h2>
<p>${section.text}</p>
</section>
`,
)}</main>
<footer class="muted">Built by the built-in agent of Project Builder. Your ${spec.noun.many} are kept in this browser.</footer>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${html`${spec.tagline}`.value}">
<title>${html`${spec.title}`.value}</title>
<link rel="stylesheet" href="style.css">
<script src="app.js" defer></script>
</head>
<body class="app-${spec.archetype}">
${body.value.replace(/\n{2,}/g, "\n")}
</body>
</html>
`;
}

/** The form that adds a record: one labelled control per field, the first required. */
export function addForm(
  spec: AppSpec,
  options: { submit?: string; fields?: readonly Field[]; legend?: string | Html } = {},
): Html {
  const fields = options.fields ?? spec.fields;
  return html`<form id="add-form" class="add-form">
${options.legend ? html`<h2>${options.legend}</h2>` : ""}
<div class="fields">
${fields.map((field, i) => control(field, i === 0))}
</div>
<button type="submit" class="button">${options.submit ?? `Add ${spec.noun.one}`}</button>
</form>`;
}

function control(field: Field, required: boolean): Html {
  const id = `field-${field.key}`;
  const label = html`<label for="${id}">${field.label}</label>`;
  const common = { id, name: field.key };
  let input: Html;
  if (field.type === "select") {
    input = html`<select id="${common.id}" name="${common.name}">${(field.options ?? []).map((option) => html`<option>${option}</option>`)}</select>`;
  } else if (field.type === "textarea") {
    input = html`<textarea id="${common.id}" name="${common.name}" rows="3" maxlength="5000"${required ? html` required` : ""}></textarea>`;
  } else {
    const type = field.type === "money" ? "number" : field.type;
    const step = field.type === "money" ? html` step="0.01" min="0"` : field.type === "number" ? html` step="any"` : "";
    input = html`<input id="${common.id}" name="${common.name}" type="${type}"${step} autocomplete="off" maxlength="500"${required ? html` required` : ""}>`;
  }
  return html`<div class="field field-${field.type}">${label}${input}</div>
`;
}

/** Search and sort above a list, when the spec has them. */
export function toolbar(spec: AppSpec): Html {
  const { search, sort } = spec.features;
  if (!search && !sort) return html``;
  const sortable = spec.fields.filter((field) => field.type !== "textarea");
  return html`<div class="toolbar">
${search ? html`<div class="field"><label for="search">Search ${spec.noun.many}</label><input id="search" type="search" autocomplete="off"></div>` : ""}
${
  sort
    ? html`<div class="field"><label for="sort">Sort by</label><select id="sort">
<option value="">Order added</option>
<option value="created"${sort === "created" ? html` selected` : ""}>Newest first</option>
${sortable.map((field) => html`<option value="${field.key}"${sort === field.key ? html` selected` : ""}>${field.label}</option>`)}
</select></div>`
    : ""
}
</div>`;
}

/** The list of records with its count, as most archetypes show it. */
export function recordList(spec: AppSpec, heading = `Your ${spec.noun.many}`): Html {
  return html`<section class="panel" aria-labelledby="records-heading">
<h2 id="records-heading">${capitalize(heading)}</h2>
${toolbar(spec)}
<ul id="records" class="records" aria-live="polite"></ul>
<p id="count" class="muted"></p>
</section>`;
}

function chartPanel(): Html {
  return html`<section class="panel" id="chart-panel" aria-labelledby="chart-heading">
<h2 id="chart-heading">Chart</h2>
<div id="chart" class="chart-box"></div>
</section>
`;
}

function appJs(spec: AppSpec, archetype: Archetype): string {
  const app = { ...spec, storage: `pb:${slug(spec.title) || "app"}:${spec.archetype}` };
  // JSON is valid JavaScript, and a .js file is never parsed as HTML, so the spec needs no escaping.
  return `"use strict";
// Written by the built-in agent of Project Builder from app.json; run it again to change the app.
(() => {
const APP = ${JSON.stringify(app)};
${RUNTIME}
${archetype.script}
})();
`;
}

// ——— Styles ———

interface Look {
  readonly accent: string;
  readonly font: string;
  readonly radius: string;
}

// Each agent value has its own look, so runs with different agents are told apart at a glance.
const LOOKS: Record<SchemaAgent, Look> = {
  "coding-agent-1": {
    accent: "#2563eb",
    font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    radius: "8px",
  },
  "coding-agent-2": { accent: "#047857", font: 'Georgia, "Times New Roman", serif', radius: "2px" },
  "coding-agent-3": { accent: "#7c3aed", font: '"Trebuchet MS", Verdana, sans-serif', radius: "16px" },
};

export const ACCENTS: Record<string, string> = {
  red: "#dc2626",
  orange: "#ea580c",
  yellow: "#ca8a04",
  green: "#16a34a",
  teal: "#0d9488",
  blue: "#2563eb",
  purple: "#7c3aed",
  pink: "#db2777",
};

/** The colour schemes' custom properties, for a `:root` rule (page-edit.ts uses them too). */
export const SCHEMES = {
  light:
    "color-scheme: light; --bg: #f8fafc; --surface: #ffffff; --text: #0f172a; --muted: #64748b; --border: #e2e8f0;",
  dark: "color-scheme: dark; --bg: #0f172a; --surface: #1e293b; --text: #e2e8f0; --muted: #94a3b8; --border: #334155;",
};

function styleCss(spec: AppSpec, archetype: Archetype): string {
  // An agent value added to the contract later gets the first look rather than a crash.
  const look = LOOKS[spec.agent] ?? LOOKS["coding-agent-1"];
  const accent = (spec.theme.accent && ACCENTS[spec.theme.accent]) || look.accent;
  return `:root {
  ${SCHEMES[spec.theme.scheme]}
  --accent: ${accent};
  --accent-text: #ffffff;
  --radius: ${look.radius};
  --font: ${look.font};
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font-family: var(--font); background: var(--bg); color: var(--text); line-height: 1.5; }
main, .topbar, footer { max-width: 960px; margin: 0 auto; padding: 1rem 1.5rem; }
h1 { margin: 0 0 0.25rem; font-size: 2rem; }
h2 { margin: 0 0 0.75rem; font-size: 1.2rem; }
.lead { margin: 0; font-size: 1.1rem; color: var(--muted); }
.muted { color: var(--muted); }
.panel { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1rem 1.25rem; margin-bottom: 1rem; }
.button { display: inline-block; padding: 0.55rem 1.1rem; border: 0; border-radius: var(--radius); background: var(--accent); color: var(--accent-text); font: inherit; text-decoration: none; cursor: pointer; }
.button.secondary { background: transparent; color: var(--accent); border: 1px solid var(--accent); }
.button:focus-visible, .link:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.link { border: 0; background: none; padding: 0.25rem; color: var(--accent); font: inherit; cursor: pointer; }
input, select, textarea { width: 100%; font: inherit; padding: 0.45rem 0.5rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--bg); color: var(--text); }
label { display: block; font-size: 0.9rem; color: var(--muted); margin-bottom: 0.2rem; }
.add-form .fields, .toolbar { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: 0.75rem; margin-bottom: 0.75rem; }
.field-textarea { grid-column: 1 / -1; }
.records { list-style: none; margin: 0; padding: 0; }
.record { display: flex; gap: 0.75rem; align-items: center; padding: 0.6rem 0; border-bottom: 1px solid var(--border); }
.record-main { flex: 1; display: flex; flex-direction: column; min-width: 0; overflow-wrap: anywhere; }
.record-actions { display: flex; gap: 0.25rem; }
.record.done strong { text-decoration: line-through; color: var(--muted); }
.empty { padding: 0.6rem 0; }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 1rem; margin-bottom: 1rem; }
.stat { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 0.75rem 1rem; }
.stat .value { display: block; font-size: 1.6rem; font-weight: 700; }
.chart { width: 100%; height: auto; max-height: 260px; }
.chart .bar { fill: var(--accent); }
.chart .axis, .chart .figure { fill: var(--muted); font-size: 13px; font-family: var(--font); }
footer { font-size: 0.85rem; padding-bottom: 2rem; }
${spec.images?.length ? FIGURE_CSS : ""}${archetype.css}`;
}

// Only in apps with images, so that the others' stylesheets stay as they are.
const FIGURE_CSS = `.app-figure { margin: 1rem 0 0; }
.app-figure img { display: block; max-width: 100%; max-height: 320px; height: auto; border-radius: var(--radius); }
`;

/** A fingerprint of the files the agent rendered, to tell whether someone has edited them since. */
export function fingerprint(files: {
  readonly "index.html": string;
  readonly "style.css": string;
  readonly "app.js": string;
}): string {
  return fnv1a(`${files["index.html"]}\0${files["style.css"]}\0${files["app.js"]}`).toString(16).padStart(8, "0");
}
