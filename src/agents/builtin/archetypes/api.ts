// An API service's page: its endpoints for the resource the prompt names, and a sandbox that plays
// them in the browser (a request answered from this browser's storage, as the real service would).
import { html } from "../../../html/template.ts";
import { clientScript, RECORD_EDITS, type Archetype } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import { a, capitalize, slug } from "../words.ts";

export const api: Archetype = {
  id: "api",
  describe: "an API service",
  keywords: {
    api: 5,
    endpoint: 5,
    endpoints: 5,
    rest: 4,
    backend: 4,
    webhook: 3,
    graphql: 4,
    json: 3,
    crud: 4,
    microservice: 5,
    server: 2,
    service: 1,
    sdk: 3,
  },
  templates: ["api-service"],
  noun: { one: "item", many: "items" },
  fields: (noun) => [{ key: "name", label: capitalize(noun.one), type: "text" }],
  refine: (spec) => ({ ...spec, features: { ...spec.features, search: true } }),
  accepts: RECORD_EDITS,
  body: (spec) => {
    const path = `/${slug(spec.noun.many) || "items"}`;
    const endpoints = [
      ["GET", path, `Lists ${spec.noun.many}.`],
      ["POST", path, `Creates ${a(spec.noun.one)}.`],
      ["GET", `${path}/{id}`, `Returns one ${spec.noun.one}.`],
      ["PATCH", `${path}/{id}`, `Changes ${a(spec.noun.one)}.`],
      ["DELETE", `${path}/{id}`, `Deletes ${a(spec.noun.one)}.`],
    ];
    return html`<section class="panel">
<h2>Endpoints</h2>
<ul class="endpoints">
${endpoints.map(
  ([
    method,
    route,
    text,
  ]) => html`<li class="endpoint"><code class="method">${method}</code> <code>${route}</code> <span class="muted">${text}</span></li>
`,
)}</ul>
</section>
<section class="panel">
${addForm(spec, { legend: html`Try it: <code>POST ${path}</code>`, submit: "Send request" })}
<pre id="response" class="response" aria-live="polite">No request sent yet.</pre>
</section>
${recordList(spec, `GET ${path}`)}`;
  },
  script: clientScript("api"),
  css: `.endpoints { padding: 0; list-style: none; }
.endpoint { padding: 0.4rem 0; border-bottom: 1px solid var(--border); }
.method { display: inline-block; min-width: 4rem; color: var(--accent); font-weight: 700; }
.response { overflow-x: auto; padding: 1rem; background: var(--text); color: var(--bg); border-radius: var(--radius); }
`,
  abilities: (spec) =>
    `see the endpoints for ${spec.noun.many} and try them in a sandbox that keeps its data in the browser`,
};
