// The built-in agent's first run: a small static web app (index.html, style.css, app.js) from the
// project's template, its content drawn from the prompt's words and its look from the agent value.
// Served under `Content-Security-Policy: default-src 'self'`: nothing inline. Each template's page,
// script and style sit side by side.
import type { SchemaAgent, SchemaTemplate } from "../../generated/schema.d.ts";
import { escapeHtml } from "../html/template.ts";
import { capitalize, fnv1a, pick, slug, truncate } from "./builtin-words.ts";

// Long prompts (up to 20,000 characters) are cut where they are shown, to keep the files small.
const SHOWN_PROMPT = 600;

// ——— First run ———

export interface Page {
  readonly name: string;
  readonly prompt: string;
  /** Words from the prompt that give the page its content (feature titles, cards, endpoints). */
  readonly words: string[];
  /** Feeds the made-up dashboard figures, so they vary by project but never between runs. */
  readonly seed: string;
}

export function indexHtml(page: Page, template: SchemaTemplate): string {
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
      .map(
        (word) =>
          `<article class="feature"><h3>${escapeHtml(capitalize(word))}</h3><p>${name} puts ${escapeHtml(word)} front and centre.</p></article>`,
      )
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
    const list = items
      .map(
        (word) =>
          `<li><span>${escapeHtml(capitalize(word))}</span> <button type="button" class="remove">Remove</button></li>`,
      )
      .join("\n");
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
      .map(
        ([method, path, text]) =>
          `<li class="endpoint"><code class="method">${method}</code> <code>${path}</code> <span class="muted">${text}</span></li>`,
      )
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
export const APP_JS: Record<SchemaTemplate, string> = {
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
  "coding-agent-1": {
    accent: "#2563eb",
    font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    radius: "8px",
  },
  "coding-agent-2": { accent: "#047857", font: 'Georgia, "Times New Roman", serif', radius: "2px" },
  "coding-agent-3": { accent: "#7c3aed", font: '"Trebuchet MS", Verdana, sans-serif', radius: "16px" },
};

export function themeOf(agent: SchemaAgent): Theme {
  // An agent value added to the contract later gets the first look rather than a crash.
  return THEMES[agent] ?? THEMES["coding-agent-1"];
}

export function styleCss(theme: Theme, template: SchemaTemplate): string {
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
