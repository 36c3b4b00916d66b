// The built-in agent's work (the agent is agent.ts). A first run picks an archetype from the
// catalogue for the prompt, fills it with the prompt's title, nouns and fields, and renders the app.
// A follow-up run reads app.json, applies the requests it understands (requests.ts) and renders the
// app again; a page the agent did not render, or one edited since, is edited as a page instead
// (page-edit.ts), so nobody's own work is overwritten. Pure: text in, text out, no clock, no
// randomness (the same run twice writes the same bytes), and linear in what it reads, so it runs
// in a build thread (src/jobs/build-pool/) on tenant content.
import type { SchemaAgent, SchemaTemplate } from "../../../generated/schema.d.ts";
import { firstSpec } from "./archetype.ts";
import { archetypeById, ARCHETYPE_IDS, chooseArchetype } from "./catalogue.ts";
import { editPage } from "./page-edit.ts";
import { readPrompt } from "./prompt.ts";
import { fingerprint, renderApp } from "./render.ts";
import { applyRequests } from "./requests.ts";
import { parseSpec } from "./spec.ts";
import { truncate } from "./words.ts";

/** The files the agent reads, as text, when the project has them. */
export interface ProjectTexts {
  readonly "index.html"?: string;
  readonly "style.css"?: string;
  readonly "app.js"?: string;
  readonly "app.json"?: string;
}

/** What the agent's work needs: the run's input and the text of the files it edits. */
export interface BuiltinRequest {
  readonly agent: SchemaAgent;
  readonly prompt: string;
  readonly project: { readonly name: string; readonly template: SchemaTemplate };
  readonly initial: boolean;
  readonly files: ProjectTexts;
}

/** The files the agent writes, and its summary. */
export interface BuiltinEdit {
  readonly writes: ReadonlyArray<readonly [path: string, text: string]>;
  readonly summary: string;
}

const SUMMARY = 1000;
const VOCABULARY =
  "The built-in agent understands: dark or light theme and colours, renaming, adding or removing a section or a field, a chart, search and sorting; set AGENT_BASE_URL to use a model for anything else.";

/** The agent's work on a run's request. */
export function editProject(request: BuiltinRequest): BuiltinEdit {
  const { files } = request;
  if (request.initial || files["index.html"] === undefined) return create(request);
  const saved = parseSpec(files["app.json"], ARCHETYPE_IDS);
  const untouched =
    saved?.rendered !== undefined &&
    files["style.css"] !== undefined &&
    files["app.js"] !== undefined &&
    saved.rendered ===
      fingerprint({ "index.html": files["index.html"], "style.css": files["style.css"], "app.js": files["app.js"] });
  if (!saved || !untouched) {
    const why = saved
      ? "index.html, style.css or app.js changed since the agent built them, so it edited the page as it is"
      : undefined;
    return editPage({ ...request, indexHtml: files["index.html"], styleCss: files["style.css"] }, why);
  }
  const archetype = archetypeById(saved.spec.archetype)!;
  const { spec, done, notDone } = applyRequests(request.prompt, saved.spec, archetype);
  const couldNot = notDone.length ? ` Could not: ${notDone.join("; ")}.` : "";
  if (done.length === 0) {
    return { writes: [], summary: truncate(`Changed nothing in "${spec.title}".${couldNot} ${VOCABULARY}`, SUMMARY) };
  }
  const rendered = renderApp(spec, archetype);
  const writes = (["index.html", "style.css", "app.js", "app.json"] as const)
    .filter((path) => rendered[path] !== files[path])
    .map((path) => [path, rendered[path]] as const);
  return { writes, summary: truncate(`Updated "${spec.title}": ${done.join("; ")}.${couldNot}`, SUMMARY) };
}

function create(request: BuiltinRequest): BuiltinEdit {
  const facts = readPrompt(request.prompt);
  const archetype = chooseArchetype(request.prompt, request.project.template);
  const spec = firstSpec(
    archetype,
    { name: request.project.name, agent: request.agent, prompt: request.prompt },
    facts,
  );
  const files = renderApp(spec, archetype);
  const summary =
    `Built ${archetype.describe}, "${spec.title}": ${archetype.abilities(spec)}, kept in the browser's storage. ` +
    "Wrote index.html, style.css, app.js and app.json (the app's spec, which follow-up runs change). " +
    "The built-in agent is an offline stand-in; set AGENT_BASE_URL to build with a model.";
  return {
    writes: (["app.js", "app.json", "index.html", "style.css"] as const).map((path) => [path, files[path]] as const),
    summary: truncate(summary, SUMMARY),
  };
}
