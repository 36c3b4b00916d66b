// The built-in agent's work (the agent is agent.ts). A first run picks an archetype from the
// catalogue for the prompt, fills it with the prompt's title, nouns and fields, and renders the app.
// A follow-up run reads app.json, applies the requests it understands (requests.ts) and renders the
// app again; a page the agent did not render, or one edited since, is edited as a page instead
// (page-edit.ts), so nobody's own work is overwritten. An attached image is shown below the app's
// title (kept in app.json's `images`); attached text files are only named, since requests come
// from the prompt. Pure: text in, text out, no clock, no randomness (the same run twice writes the
// same bytes), and linear in what it reads, so it runs in a build thread (src/jobs/build-pool/) on
// tenant content.
import type { SchemaAgent, SchemaTemplate } from "../../../generated/schema.d.ts";
import { isTextual, mediaTypeFor } from "../../domain/media-types.ts";
import { firstSpec } from "./archetype.ts";
import { archetypeById, ARCHETYPE_IDS, chooseArchetype } from "./catalogue.ts";
import { editPage } from "./page-edit.ts";
import { readPrompt } from "./prompt.ts";
import { fingerprint, renderApp } from "./render.ts";
import { applyRequests } from "./requests.ts";
import { parseSpec, type AppSpec } from "./spec.ts";
import { capitalize, truncate } from "./words.ts";

/** The files the agent reads, as text, when the project has them. */
export interface ProjectTexts {
  readonly "index.html"?: string;
  readonly "style.css"?: string;
  readonly "app.js"?: string;
  readonly "app.json"?: string;
}

/** A file attached to the run: its path and media type (the agent needs no more of it). */
export interface BuiltinAttachment {
  readonly path: string;
  readonly contentType: string;
}

/** What the agent's work needs: the run's input and the text of the files it edits. */
export interface BuiltinRequest {
  readonly agent: SchemaAgent;
  readonly prompt: string;
  readonly project: { readonly name: string; readonly template: SchemaTemplate };
  readonly initial: boolean;
  readonly files: ProjectTexts;
  readonly attachments?: readonly BuiltinAttachment[];
}

/** The files the agent writes, and its summary. */
export interface BuiltinEdit {
  readonly writes: ReadonlyArray<readonly [path: string, text: string]>;
  readonly summary: string;
}

const SUMMARY = 1000;
/** The images an app shows at most: the latest ones attached. */
const MAX_IMAGES = 10;
// What a browser shows in an <img>; other attachments are named in the summary.
const WEB_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/svg+xml"]);
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
  const attached = sortAttachments(request.attachments);
  if (!saved || !untouched) {
    const why = saved
      ? "index.html, style.css or app.js changed since the agent built them, so it edited the page as it is"
      : undefined;
    const edit = editPage({ ...request, indexHtml: files["index.html"], styleCss: files["style.css"] }, why);
    const unplaced = attached.images.length
      ? ` Did not place ${list(attached.images)}: the agent places images only in apps it renders itself; link ${attached.images.length === 1 ? "it" : "them"} with <img src="…">.`
      : "";
    return { ...edit, summary: truncate(`${edit.summary}${unplaced}${otherNotes(attached)}`, SUMMARY) };
  }
  const archetype = archetypeById(saved.spec.archetype)!;
  const applied = applyRequests(request.prompt, saved.spec, archetype, {
    imagesAttached: attached.images.length > 0,
  });
  const { spec, added } = withImages(applied.spec, attached.images);
  const done = added.length ? [...applied.done, `placed ${list(added)} below the title`] : applied.done;
  const couldNot = applied.notDone.length ? ` Could not: ${applied.notDone.join("; ")}.` : "";
  if (done.length === 0) {
    return {
      writes: [],
      summary: truncate(`Changed nothing in "${spec.title}".${couldNot}${otherNotes(attached)} ${VOCABULARY}`, SUMMARY),
    };
  }
  const rendered = renderApp(spec, archetype);
  const writes = (["index.html", "style.css", "app.js", "app.json"] as const)
    .filter((path) => rendered[path] !== files[path])
    .map((path) => [path, rendered[path]] as const);
  return {
    writes,
    summary: truncate(`Updated "${spec.title}": ${done.join("; ")}.${couldNot}${otherNotes(attached)}`, SUMMARY),
  };
}

function create(request: BuiltinRequest): BuiltinEdit {
  const facts = readPrompt(request.prompt);
  const archetype = chooseArchetype(request.prompt, request.project.template);
  const attached = sortAttachments(request.attachments);
  const { spec, added } = withImages(
    firstSpec(archetype, { name: request.project.name, agent: request.agent, prompt: request.prompt }, facts),
    attached.images,
  );
  const files = renderApp(spec, archetype);
  const placed = added.length ? ` Placed ${list(added)} below the title.` : "";
  const summary =
    `Built ${archetype.describe}, "${spec.title}": ${archetype.abilities(spec)}, kept in the browser's storage.${placed} ` +
    "Wrote index.html, style.css, app.js and app.json (the app's spec, which follow-up runs change)." +
    `${otherNotes(attached)} The built-in agent is an offline stand-in; set AGENT_BASE_URL to build with a model.`;
  return {
    writes: (["app.js", "app.json", "index.html", "style.css"] as const).map((path) => [path, files[path]] as const),
    summary: truncate(summary, SUMMARY),
  };
}

interface SortedAttachments {
  /** Paths of images a page can show. */
  readonly images: readonly string[];
  /** Paths of text files. */
  readonly texts: readonly string[];
  /** Paths of anything else. */
  readonly others: readonly string[];
}

function sortAttachments(attachments: readonly BuiltinAttachment[] = []): SortedAttachments {
  const images: string[] = [];
  const texts: string[] = [];
  const others: string[] = [];
  for (const { path, contentType } of attachments) {
    const type = mediaTypeFor(path, contentType);
    if (WEB_IMAGES.has(type)) images.push(path);
    else if (isTextual(type)) texts.push(path);
    else others.push(path);
  }
  return { images, texts, others };
}

/** The spec showing `images` too (the latest MAX_IMAGES in all), and those it did not show yet. */
function withImages(spec: AppSpec, images: readonly string[]): { spec: AppSpec; added: string[] } {
  const shown = spec.images ?? [];
  const added = images.filter((path) => !shown.some((image) => image.path === path));
  if (added.length === 0) return { spec, added };
  const figures = [...shown, ...added.map((path) => ({ path, alt: altText(path) }))].slice(-MAX_IMAGES);
  return { spec: { ...spec, images: figures }, added };
}

/** An image's alt text from its file name: "photos/golden-retriever_2.jpg" → "Golden retriever 2". */
function altText(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  const words = (dot > 0 ? name.slice(0, dot) : name).replace(/[-_.]+/g, " ").trim();
  return truncate(capitalize(words) || "Image", 200);
}

/**
 * What the summary says of attached text files and other files: the agent reads its requests from
 * the prompt alone, so it names them rather than acting on their content.
 */
function otherNotes({ texts, others }: SortedAttachments): string {
  const read = texts.length ? ` Read ${list(texts)}; the built-in agent takes its requests from the prompt alone.` : "";
  const aside = others.length ? ` Left ${list(others)} aside: neither an image nor text.` : "";
  return read + aside;
}

/** "a", "a and b", "a, b and c". */
function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
