// A follow-up run on a page the built-in agent did not render from app.json (or that was edited
// since): the request is recorded on the page itself (a changes list and a latest-change banner)
// and a style request changes style.css, leaving everything else as it is. It edits whatever
// index.html holds now by its tags (src/html/tags.ts): it finds its marker elements by id and adds
// them when they are missing. Linear in the page's size: pages come from tenants.
//
// The app is served under `Content-Security-Policy: default-src 'self'`, so nothing added is inline.
import { escapeHtml } from "../../html/template.ts";
import { forEachTag, hasId } from "../../html/tags.ts";
import { ACCENTS, SCHEMES } from "./render.ts";
import { insertAt, truncate } from "./words.ts";

/** A follow-up on a page: the run's prompt and the text of index.html and style.css. */
export interface PageRequest {
  readonly prompt: string;
  readonly indexHtml: string;
  readonly styleCss: string | undefined;
}

// Long prompts (up to 20,000 characters) are cut where they are shown, to keep the files small.
const CHANGE_ITEM = 300;
const SUMMARY_QUOTE = 120;

/** The page with the request recorded on it; `why` says why the app was not rendered anew. */
export function editPage(
  request: PageRequest,
  why?: string,
): { writes: ReadonlyArray<readonly [string, string]>; summary: string } {
  const original = request.indexHtml;
  const prompt = request.prompt.trim();
  const change = escapeHtml(truncate(prompt, CHANGE_ITEM));
  let html = appendChange(original, change);
  html = setBanner(html, change);
  const count = changesSection(html)?.items ?? 0;

  const writes: [string, string][] = [];
  const done = [
    `added change ${count} ("${truncate(prompt.replace(/\s+/g, " "), SUMMARY_QUOTE)}") to the changes list and the latest-change banner`,
  ];
  const style = restyle(request);
  if (style) {
    if (!linksStylesheet(html)) html = linkStylesheet(html);
    writes.push(["style.css", style.css]);
    done.push(`updated style.css: ${style.done}`);
  }
  writes.push(["index.html", html]);
  const note = why ? ` (${why})` : "";
  return { writes, summary: truncate(`Updated index.html${note}: ${done.join("; ")}.`, 1000) };
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
      if (tag.name === "section" && hasId(tag, "changes"))
        section = { close: html.length, listClose: undefined, items: 0 };
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
    return (
      html.slice(0, contentStart) +
      text +
      (close === undefined ? `</${name}>` + html.slice(contentStart) : html.slice(close))
    );
  }
  const block = `<p id="latest-change" class="latest-change" role="status">${text}</p>\n`;
  return insertAt(html, bodyStart ?? changesStart ?? html.length, block);
}

function linksStylesheet(html: string): boolean {
  let linked = false;
  forEachTag(html, (tag) => {
    linked =
      tag.kind === "open" &&
      tag.attributes.some((attribute) => attribute.name === "href" && attribute.value?.startsWith("style.css"));
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

/**
 * Keyword rules on the prompt: "dark"/"light" switch the colour scheme, a colour name the accent.
 * When a prompt names several, the last one named wins ("from dark to light" means light). Each
 * rule owns a marked block at the end of style.css, replaced on the next run, so rules add up
 * across runs without the file growing. Returns the new style.css and what changed, or undefined
 * when nothing did.
 */
function restyle(request: PageRequest): { css: string; done: string } | undefined {
  const rules = restyleRules(request.prompt);
  if (!rules) return undefined;
  const { scheme, accent } = rules;
  let css = request.styleCss ?? "";
  const done: string[] = [];
  if (scheme) {
    css = setBlock(css, "scheme", `:root { ${SCHEMES[scheme]} }\nbody { background: var(--bg); color: var(--text); }`);
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
