// The built-in agent's work (the agent is builtin.ts): a small static web app from templates on a
// project's first run, and edits of its index.html and style.css on the next ones. Pure: text in,
// text out, no clock, no randomness (the same run twice writes the same bytes), and linear in the
// size of what it reads, so it runs in a build thread (src/jobs/build-pool/) on tenant content.
//
// The app is served under `Content-Security-Policy: default-src 'self'`, so every page links its
// stylesheet and script as files and nothing is inline (no <script> body, <style> or style="").
import type { SchemaAgent, SchemaTemplate } from "../../generated/schema.d.ts";
import { escapeHtml } from "../html/template.ts";
import { forEachTag, hasId } from "../html/tags.ts";

/** What the agent's work needs: the run's input and the text of the files it edits. */
export interface BuiltinRequest {
  readonly agent: SchemaAgent;
  readonly prompt: string;
  readonly project: { readonly name: string; readonly template: SchemaTemplate };
  readonly initial: boolean;
  /** index.html and style.css as the run starts; undefined when the project has none. */
  readonly indexHtml: string | undefined;
  readonly styleCss: string | undefined;
}

/** The files the agent writes, and its summary. */
export interface BuiltinEdit {
  readonly writes: ReadonlyArray<readonly [path: string, text: string]>;
  readonly summary: string;
}

/** The agent's work on a run's request. */
export function editProject(request: BuiltinRequest): BuiltinEdit {
  if (request.initial || request.indexHtml === undefined) return create(request);
  return update(request, request.indexHtml);
}

// Long prompts (up to 20,000 characters) are cut where they are shown, to keep the files small.
const SHOWN_PROMPT = 600;
const CHANGE_ITEM = 300;
const SUMMARY_QUOTE = 120;

function create(request: BuiltinRequest): BuiltinEdit {
  const { name, template } = request.project;
  const page: Page = { name, prompt: request.prompt, words: keywords(request.prompt), seed: `${name}\n${request.prompt}` };
  return {
    writes: [
      ["index.html", indexHtml(page, template)],
      ["style.css", styleCss(themeOf(request.agent), template)],
      ["app.js", APP_JS[template]],
    ],
    summary: truncate(`Created index.html, style.css and app.js for "${name}".`, 1000),
  };
}

// ——— First run ———

interface Page {
  readonly name: string;
  readonly prompt: string;
  /** Words from the prompt that give the page its content (feature titles, cards, endpoints). */
  readonly words: string[];
  /** Feeds the made-up dashboard figures, so they vary by project but never between runs. */
  readonly seed: string;
}

function indexHtml(page: Page, template: SchemaTemplate): string {
  const name = escapeHtml(page.name);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${escapeHtml(truncate(page.prompt, 160))}">
<title>${name}</title>
<link rel="stylesheet" href="style.css">
<script src="app.js" defer></script>
</head>
<body class="template-${template}">
${BODIES[template](page)}
</body>
</html>
`;
}

/** The page's name and prompt, as the dashboard, web-app and api-service templates open. */
const topbar = (page: Page) => `<header class="topbar">
<h1>${escapeHtml(page.name)}</h1>
<p class="lead">${escapeHtml(truncate(page.prompt, SHOWN_PROMPT))}</p>
</header>`;

const BODIES: Record<SchemaTemplate, (page: Page) => string> = {
  blank: (page) => `<main class="page">
<h1>${escapeHtml(page.name)}</h1>
<p class="lead">${escapeHtml(truncate(page.prompt, SHOWN_PROMPT))}</p>
</main>`,

  "landing-page": (page) => {
    const name = escapeHtml(page.name);
    const features = pick(page.words, 3, ["Fast", "Simple", "Reliable"])
      .map((word) => `<article class="feature"><h3>${escapeHtml(capitalize(word))}</h3><p>${name} puts ${escapeHtml(word)} front and centre.</p></article>`)
      .join("\n");
    return `<header class="hero">
<h1>${name}</h1>
<p class="lead">${escapeHtml(truncate(page.prompt, SHOWN_PROMPT))}</p>
<a class="button" href="#features">See the features</a>
</header>
<main>
<section id="features" class="features">
<h2>Features</h2>
<div class="grid">
${features}
</div>
</section>
<section class="cta">
<h2>Ready to start?</h2>
<button type="button" id="cta-button" class="button">Get started</button>
<p id="cta-message" class="muted" hidden>Thanks for your interest in ${name}!</p>
</section>
</main>
<footer><p>${name}</p></footer>`;
  },

  dashboard: (page) => {
    const cards = pick(page.words, 4, ["Users", "Orders", "Revenue", "Visits"])
      .map((word) => {
        const value = 10 + (fnv1a(`${page.seed}\n${word}`) % 990);
        return `<button type="button" class="card"><span class="label">${escapeHtml(capitalize(word))}</span><span class="value">${value}</span></button>`;
      })
      .join("\n");
    return `${topbar(page)}
<main>
<section class="cards" aria-label="Overview">
${cards}
</section>
<section class="panel">
<h2>Details</h2>
<p id="card-details" class="muted">Select a card to see its details.</p>
</section>
</main>`;
  },

  "web-app": (page) => {
    const items = pick(page.words, 3, ["First item", "Second item"]);
    const list = items.map((word) => `<li><span>${escapeHtml(capitalize(word))}</span> <button type="button" class="remove">Remove</button></li>`).join("\n");
    return `${topbar(page)}
<main>
<section class="panel">
<h2>Your list</h2>
<form id="item-form" class="item-form">
<label for="item-input">New item</label>
<input id="item-input" name="item" type="text" autocomplete="off" maxlength="200" required>
<button type="submit" class="button">Add</button>
</form>
<ul id="item-list" class="item-list">
${list}
</ul>
<p id="item-count" class="muted">${items.length} items</p>
</section>
</main>`;
  },

  "api-service": (page) => {
    const resources = pick(page.words.map(slug).filter(Boolean), 2, ["items"]);
    const endpoints = resources
      .flatMap((resource) => [
        ["GET", `/${resource}`, `Lists ${resource}.`],
        ["POST", `/${resource}`, `Creates one of ${resource}.`],
        ["GET", `/${resource}/{id}`, `Returns one of ${resource}.`],
      ])
      .map(([method, path, text]) => `<li class="endpoint"><code class="method">${method}</code> <code>${path}</code> <span class="muted">${text}</span></li>`)
      .join("\n");
    return `${topbar(page)}
<main>
<section class="panel">
<h2>Endpoints</h2>
<label for="endpoint-filter">Filter</label>
<input id="endpoint-filter" type="search" autocomplete="off">
<ul id="endpoint-list" class="endpoints">
${endpoints}
</ul>
</section>
<section class="panel">
<h2>Example</h2>
<pre><code>curl https://api.example.com/${resources[0]}</code></pre>
</section>
</main>`;
  },
};

// Template behaviour only: the script never contains project text, so it needs no escaping.
const APP_JS: Record<SchemaTemplate, string> = {
  blank: `"use strict";
document.documentElement.classList.add("js");
`,
  "landing-page": `"use strict";
(() => {
  const button = document.getElementById("cta-button");
  const message = document.getElementById("cta-message");
  if (!button || !message) return;
  button.addEventListener("click", () => {
    message.hidden = false;
  });
})();
`,
  dashboard: `"use strict";
(() => {
  const details = document.getElementById("card-details");
  const cards = document.querySelectorAll(".card");
  for (const card of cards) {
    card.addEventListener("click", () => {
      for (const other of cards) other.classList.toggle("selected", other === card);
      const label = card.querySelector(".label")?.textContent ?? "";
      const value = card.querySelector(".value")?.textContent ?? "";
      if (details) details.textContent = label + ": " + value;
    });
  }
})();
`,
  "web-app": `"use strict";
(() => {
  const form = document.getElementById("item-form");
  const input = document.getElementById("item-input");
  const list = document.getElementById("item-list");
  const count = document.getElementById("item-count");
  if (!form || !input || !list || !count) return;

  const updateCount = () => {
    const n = list.children.length;
    count.textContent = n === 1 ? "1 item" : n + " items";
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const item = document.createElement("li");
    const label = document.createElement("span");
    label.textContent = text;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "remove";
    remove.textContent = "Remove";
    item.append(label, " ", remove);
    list.append(item);
    input.value = "";
    updateCount();
  });

  list.addEventListener("click", (event) => {
    const target = event.target;
    if (target instanceof HTMLElement && target.classList.contains("remove")) {
      target.closest("li")?.remove();
      updateCount();
    }
  });

  updateCount();
})();
`,
  "api-service": `"use strict";
(() => {
  const filter = document.getElementById("endpoint-filter");
  const list = document.getElementById("endpoint-list");
  if (!filter || !list) return;
  filter.addEventListener("input", () => {
    const query = filter.value.trim().toLowerCase();
    for (const item of list.children) {
      item.hidden = query !== "" && !item.textContent.toLowerCase().includes(query);
    }
  });
})();
`,
};

// ——— Styles ———

interface Theme {
  readonly accent: string;
  readonly font: string;
  readonly radius: string;
}

// Each agent value has its own look, so runs with different agents are told apart at a glance.
const THEMES: Record<SchemaAgent, Theme> = {
  "coding-agent-1": { accent: "#2563eb", font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', radius: "8px" },
  "coding-agent-2": { accent: "#047857", font: 'Georgia, "Times New Roman", serif', radius: "2px" },
  "coding-agent-3": { accent: "#7c3aed", font: '"Trebuchet MS", Verdana, sans-serif', radius: "16px" },
};

function themeOf(agent: SchemaAgent): Theme {
  // An agent value added to the contract later gets the first look rather than a crash.
  return THEMES[agent] ?? THEMES["coding-agent-1"];
}

function styleCss(theme: Theme, template: SchemaTemplate): string {
  return `:root {
  --bg: #f8fafc;
  --surface: #ffffff;
  --text: #0f172a;
  --muted: #64748b;
  --border: #e2e8f0;
  --accent: ${theme.accent};
  --accent-text: #ffffff;
  --radius: ${theme.radius};
  --font: ${theme.font};
}
* { box-sizing: border-box; }
body { margin: 0; font-family: var(--font); background: var(--bg); color: var(--text); line-height: 1.5; }
main, .topbar, .hero, footer { max-width: 960px; margin: 0 auto; padding: 1.5rem; }
h1 { margin: 0 0 0.5rem; font-size: 2rem; }
.lead { font-size: 1.15rem; color: var(--muted); }
.muted { color: var(--muted); }
.button { display: inline-block; padding: 0.6rem 1.1rem; border: 0; border-radius: var(--radius); background: var(--accent); color: var(--accent-text); font: inherit; text-decoration: none; cursor: pointer; }
.panel, .feature, .card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1rem 1.25rem; }
.panel + .panel { margin-top: 1rem; }
input { font: inherit; padding: 0.5rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); color: var(--text); }
.latest-change { margin: 0; padding: 0.75rem 1.5rem; background: var(--accent); color: var(--accent-text); }
#changes { max-width: 960px; margin: 1.5rem auto 0; }
${TEMPLATE_CSS[template]}`;
}

const TEMPLATE_CSS: Record<SchemaTemplate, string> = {
  blank: `.page { padding-top: 4rem; }
`,
  "landing-page": `.hero { padding: 5rem 1.5rem; text-align: center; }
.hero h1 { font-size: 3rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 1rem; }
.feature h3 { margin-top: 0; color: var(--accent); }
.cta { margin-top: 3rem; text-align: center; }
footer { color: var(--muted); text-align: center; }
`,
  dashboard: `.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 1rem; margin-bottom: 1rem; }
.card { display: flex; flex-direction: column; gap: 0.25rem; text-align: left; font: inherit; color: inherit; cursor: pointer; }
.card .label { color: var(--muted); }
.card .value { font-size: 2rem; font-weight: 700; }
.card.selected { border-color: var(--accent); outline: 2px solid var(--accent); }
`,
  "web-app": `.item-form { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.item-form input { flex: 1; min-width: 12rem; }
.item-list { padding: 0; list-style: none; }
.item-list li { display: flex; justify-content: space-between; padding: 0.5rem 0; border-bottom: 1px solid var(--border); }
.remove { border: 0; background: none; color: var(--accent); font: inherit; cursor: pointer; }
`,
  "api-service": `.endpoints { padding: 0; list-style: none; }
.endpoint { padding: 0.5rem 0; border-bottom: 1px solid var(--border); }
.method { display: inline-block; min-width: 3.5rem; color: var(--accent); font-weight: 700; }
pre { overflow-x: auto; padding: 1rem; background: var(--text); color: var(--bg); border-radius: var(--radius); }
`,
};

// ——— Follow-up runs ———

// The follow-up edits whatever index.html holds now (the user may have rewritten or uploaded it),
// by its tags (src/html/tags.ts): it finds its marker elements by id and adds them when they
// are missing.
function update(request: BuiltinRequest, original: string): BuiltinEdit {
  const prompt = request.prompt.trim();
  const change = escapeHtml(truncate(prompt, CHANGE_ITEM));
  let html = appendChange(original, change);
  html = setBanner(html, change);
  const count = changesSection(html)?.items ?? 0;

  const writes: [string, string][] = [];
  const done = [`added change ${count} ("${truncate(prompt.replace(/\s+/g, " "), SUMMARY_QUOTE)}") to the changes list and the latest-change banner`];
  const style = restyle(request);
  if (style) {
    if (!linksStylesheet(html)) html = linkStylesheet(html);
    writes.push(["style.css", style.css]);
    done.push(`updated style.css: ${style.done}`);
  }
  writes.push(["index.html", html]);
  return { writes, summary: truncate(`Updated index.html: ${done.join("; ")}.`, 1000) };
}

interface ChangesSection {
  /** Where its `</section>` starts (the page's end without one). */
  close: number;
  /** Where its last `</ol>` starts, if it has one. */
  listClose: number | undefined;
  /** Its `<li>` elements. */
  items: number;
}

/** The first `<section id="changes">`, up to the next `</section>`. */
function changesSection(html: string): ChangesSection | undefined {
  let section: ChangesSection | undefined;
  forEachTag(html, (tag) => {
    if (!section) {
      if (tag.name === "section" && hasId(tag, "changes")) section = { close: html.length, listClose: undefined, items: 0 };
      return;
    }
    if (tag.kind === "close" && tag.name === "section") {
      section.close = tag.start;
      return false;
    }
    if (tag.kind === "close" && tag.name === "ol") section.listClose = tag.start;
    if (tag.kind === "open" && tag.name === "li") section.items += 1;
  });
  return section;
}

function appendChange(html: string, change: string): string {
  const item = `<li>${change}</li>\n`;
  const section = changesSection(html);
  if (!section) {
    const block = `<section id="changes">\n<h2>Changes</h2>\n<ol>\n${item}</ol>\n</section>\n`;
    const ends = lastCloseTags(html, ["main", "body"]);
    const at = ends.main ?? ends.body ?? html.length;
    return insertAt(html, at, at === html.length && html.length > 0 && !html.endsWith("\n") ? `\n${block}` : block);
  }
  if (section.listClose !== undefined) return insertAt(html, section.listClose, item);
  return insertAt(html, section.close, `<ol>\n${item}</ol>\n`);
}

function setBanner(html: string, change: string): string {
  const text = `Latest change: ${change}`;
  let banner: { name: string; contentStart: number; close: number | undefined } | undefined;
  let bodyStart: number | undefined;
  let changesStart: number | undefined;
  forEachTag(html, (tag) => {
    if (banner) {
      if (tag.kind === "close" && tag.name === banner.name) {
        banner.close = tag.start;
        return false;
      }
      return;
    }
    if (tag.kind !== "open") return;
    if (hasId(tag, "latest-change")) banner = { name: tag.name, contentStart: tag.end, close: undefined };
    else if (tag.name === "body") bodyStart ??= tag.end + (html[tag.end] === "\n" ? 1 : 0);
    else if (tag.name === "section" && hasId(tag, "changes")) changesStart ??= tag.start;
  });
  if (banner) {
    const { name, contentStart, close } = banner;
    return html.slice(0, contentStart) + text + (close === undefined ? `</${name}>` + html.slice(contentStart) : html.slice(close));
  }
  const block = `<p id="latest-change" class="latest-change" role="status">${text}</p>\n`;
  return insertAt(html, bodyStart ?? changesStart ?? html.length, block);
}

function linksStylesheet(html: string): boolean {
  let linked = false;
  forEachTag(html, (tag) => {
    linked = tag.kind === "open" && tag.attributes.some((attribute) => attribute.name === "href" && attribute.value?.startsWith("style.css"));
    return !linked;
  });
  return linked;
}

function linkStylesheet(html: string): string {
  const link = `<link rel="stylesheet" href="style.css">\n`;
  const head = lastCloseTags(html, ["head"]).head;
  if (head !== undefined) return insertAt(html, head, link);
  // Anchored at the start, so tried once: linear.
  const doctype = /^\s*<!doctype[^>]*>\n?/i.exec(html);
  return insertAt(html, doctype ? doctype[0].length : 0, link);
}

/** Where the last close tag of each name starts. */
function lastCloseTags(html: string, names: string[]): Record<string, number | undefined> {
  const found: Record<string, number | undefined> = {};
  forEachTag(html, (tag) => {
    if (tag.kind === "close" && names.includes(tag.name)) found[tag.name] = tag.start;
  });
  return found;
}

const SCHEMES = {
  dark: `:root { color-scheme: dark; --bg: #0f172a; --surface: #1e293b; --text: #e2e8f0; --muted: #94a3b8; --border: #334155; }`,
  light: `:root { color-scheme: light; --bg: #f8fafc; --surface: #ffffff; --text: #0f172a; --muted: #64748b; --border: #e2e8f0; }`,
};

const ACCENTS: Record<string, string> = {
  red: "#dc2626",
  orange: "#ea580c",
  yellow: "#ca8a04",
  green: "#16a34a",
  teal: "#0d9488",
  blue: "#2563eb",
  purple: "#7c3aed",
  pink: "#db2777",
};

/**
 * Keyword rules on the prompt: "dark"/"light" switch the colour scheme, a colour name the accent.
 * When a prompt names several, the last one named wins ("from dark to light" means light). Each
 * rule owns a marked block at the end of style.css, replaced on the next run, so rules add up
 * across runs without the file growing. Returns the new style.css and what changed, or undefined
 * when nothing did.
 */
function restyle(request: BuiltinRequest): { css: string; done: string } | undefined {
  const rules = restyleRules(request.prompt);
  if (!rules) return undefined;
  const { scheme, accent } = rules;
  let css = request.styleCss ?? styleCss(themeOf(request.agent), request.project.template);
  const done: string[] = [];
  if (scheme) {
    css = setBlock(css, "scheme", `${SCHEMES[scheme]}\nbody { background: var(--bg); color: var(--text); }`);
    done.push(`${scheme} theme`);
  }
  if (accent) {
    css = setBlock(css, "accent", `:root { --accent: ${ACCENTS[accent]}; --accent-text: #ffffff; }`);
    done.push(`${accent} accent`);
  }
  return { css, done: done.join(" and ") };
}

/** The style rules a prompt asks for, if any. */
export function restyleRules(prompt: string): { scheme?: keyof typeof SCHEMES; accent?: string } | undefined {
  const scheme = lastMentioned(prompt, Object.keys(SCHEMES)) as keyof typeof SCHEMES | undefined;
  const accent = lastMentioned(prompt, Object.keys(ACCENTS));
  return scheme || accent ? { scheme, accent } : undefined;
}

/** Replaces the first marked block `name` (its first start marker to the next end marker), or appends it. */
function setBlock(css: string, name: string, rules: string): string {
  const [open, close] = [`/* builtin:${name} */`, `/* end builtin:${name} */`];
  const block = `${open}\n${rules}\n${close}\n`;
  const start = css.indexOf(open);
  const end = start === -1 ? -1 : css.indexOf(close, start + open.length);
  if (end !== -1) {
    const after = end + close.length + (css[end + close.length] === "\n" ? 1 : 0);
    return css.slice(0, start) + block + css.slice(after);
  }
  return css + (css === "" || css.endsWith("\n") ? "" : "\n") + block;
}

function lastMentioned(text: string, words: string[]): string | undefined {
  let best: { word: string; at: number } | undefined;
  for (const word of words) {
    for (const match of text.matchAll(new RegExp(`\\b${word}\\b`, "gi"))) {
      if (!best || match.index > best.at) best = { word, at: match.index };
    }
  }
  return best?.word;
}

// ——— Text helpers ———

const STOP_WORDS = new Set(
  ("about also after again all and any app application apps are because been before being build builds but can could create " +
    "does each every for from have into just like lets make more most much need needs only other over page please " +
    "show shows simple site small some than that the their them then there these they this those using very want " +
    "wants web website what when where which while will with would your yours").split(" "),
);

/** The prompt's distinctive words, in order of first appearance, lower-cased, without repeats. */
function keywords(prompt: string): string[] {
  const words = prompt.toLowerCase().match(/\p{L}[\p{L}\p{N}-]*/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 4 && !STOP_WORDS.has(word)))].slice(0, 8);
}

function pick(words: string[], count: number, fallback: string[]): string[] {
  return words.length > 0 ? words.slice(0, count) : fallback;
}

/** An ASCII URL segment for an API resource, or "" when the word has no ASCII letters. */
function slug(word: string): string {
  return word
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

function insertAt(text: string, at: number, insert: string): string {
  return text.slice(0, at) + insert + text.slice(at);
}
