// The build step of a deployment: a snapshot of a project's files in, the site to publish out.
// Pure and storage-free: nothing is read from the real filesystem or the network, only from the
// snapshot, so a project can never make the build read server files or install packages. Sections
// below: pages, bundling, the snapshot plugin, paths, the JSX runtime.
//
// What it does:
// - every `*.html` file (at most 5 MiB) is tokenized in one pass, as a browser would
//   (src/html/tags.ts), for `<script src>` tags naming a `.ts`, `.tsx`, `.jsx` or `.mts` file
//   of the project (relative to the page, or `/`-rooted at the project's root, which is also the
//   site's root); each such entry point is bundled by esbuild into one minified ES module;
// - bundles are named `<entry dir>/<entry name>-<content hash>.js` (and `.css` when the code imports
//   stylesheets): a redeploy changes the name whenever the code changes, so a browser never pairs a
//   fresh page with a cached old script, and a name can never collide with a file of the project;
// - the `<script>` tag is rewritten to the bundle with `type="module"`, and the bundle's stylesheet
//   is linked from the page's `<head>`;
// - the TypeScript/JSX sources that went into a bundle are not published (browsers cannot run them);
//   everything else, plain `.js` and `.css` included, is copied byte for byte, and a page with
//   nothing to rewrite keeps its exact bytes.
//
// A server runs it in a build thread (src/jobs/build-pool/), within a time and a memory limit.
//
// JSX needs no package: the automatic runtime is a built-in module that creates real DOM nodes
// (`<div class="x" onClick={f}>hi</div>` is an HTMLDivElement; components are functions of their
// props returning nodes). A file may opt out with esbuild's pragmas, e.g.
// `/** @jsxRuntime classic @jsx h */` with its own `h`.
import { createHash } from "node:crypto";
import * as esbuild from "esbuild";
import { escapeHtml } from "../../html/template.ts";
import { forEachTag, type Attribute } from "../../html/tags.ts";

export const MAX_BUILD_FILES = 2_000;
export const MAX_BUILD_BYTES = 100 * 1024 * 1024;
/** The largest page (`.html`) a build reads: pages are scanned for the scripts to bundle. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** The deployment's error.message is shown to users: long compiler output is cut here. */
const MESSAGE_MAX = 1_000;

/** A build that cannot succeed; the message is user-facing and names project paths only. */
export class BuildError extends Error {
  constructor(message: string) {
    super(message.length > MESSAGE_MAX ? `${message.slice(0, MESSAGE_MAX - 1)}…` : message);
    this.name = "BuildError";
  }
}

export async function buildSite(
  files: ReadonlyMap<string, Uint8Array>,
  options: {
    signal?: AbortSignal;
    /** Called once bundling has ended, well or not, before the pages are rewritten. */
    bundled?: () => Promise<void>;
  } = {},
): Promise<Map<string, Uint8Array>> {
  const { signal } = options;
  signal?.throwIfAborted();
  checkLimits(files);
  if (!files.has("index.html")) throw new BuildError("The build needs an index.html at the project's root.");

  const pages = [...files.keys()].filter((path) => /\.html?$/i.test(path)).sort(byCodeUnit);
  const scanned = pages.map((page) => ({ page, ...scanPage(page, files.get(page)!, files) }));

  const bundles = new Map<string, Bundle>();
  try {
    for (const entry of [...new Set(scanned.flatMap(({ scripts }) => scripts.map((script) => script.entry)))].sort(
      byCodeUnit,
    )) {
      bundles.set(entry, await bundle(entry, files, signal));
    }
  } finally {
    await options.bundled?.();
  }

  const output = new Map<string, Uint8Array>();
  const bundled = new Set([...bundles.values()].flatMap((built) => built.sources));
  for (const [path, bytes] of files) {
    if (!bundled.has(path)) output.set(path, bytes);
  }
  for (const { page, ...scan } of scanned) {
    if (scan.scripts.length > 0) output.set(page, new TextEncoder().encode(rewritePage(scan, bundles)));
  }
  for (const { entry, outputs } of bundles.values()) {
    for (const [path, bytes] of outputs) {
      if (files.has(path)) throw new BuildError(`The bundle of ${entry} would overwrite ${path}; rename that file.`);
      output.set(path, bytes);
    }
  }
  // Sorted, so that the same snapshot gives the same map whatever order its files came in.
  return new Map([...output].sort(([a], [b]) => byCodeUnit(a, b)));
}

function checkLimits(files: ReadonlyMap<string, Uint8Array>): void {
  if (files.size > MAX_BUILD_FILES) {
    throw new BuildError(`The project has ${files.size} files; a build takes at most ${MAX_BUILD_FILES}.`);
  }
  let total = 0;
  for (const bytes of files.values()) total += bytes.byteLength;
  if (total > MAX_BUILD_BYTES) {
    throw new BuildError(
      `The project's files total ${total} bytes; a build takes at most ${MAX_BUILD_BYTES} (100 MiB).`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Pages: finding the entry points and rewriting the tags that load them

/** The files a `<script src>` is bundled from; other scripts are served as they are. */
const ENTRY = /\.(?:ts|tsx|jsx|mts)$/i;

interface EntryScript {
  start: number;
  end: number;
  attributes: readonly Attribute[];
  /** The entry's project path. */
  entry: string;
  /** The src as written, without its query or fragment: the bundle's URL keeps its directory. */
  url: string;
  suffix: string;
}

interface ScannedPage {
  text: string;
  scripts: EntryScript[];
  /** Where the first `</head>` starts, if the page has one. */
  headEnd: number | undefined;
}

function scanPage(page: string, bytes: Uint8Array, files: ReadonlyMap<string, Uint8Array>): ScannedPage {
  if (bytes.byteLength > MAX_PAGE_BYTES) {
    throw new BuildError(
      `${page} has ${bytes.byteLength} bytes; the build takes pages of at most ${MAX_PAGE_BYTES} (5 MiB).`,
    );
  }
  // The BOM is kept so that a rewritten page differs from its source only where rewritten.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const scripts: EntryScript[] = [];
  let headEnd: number | undefined;
  forEachTag(text, (tag) => {
    if (tag.kind === "close") {
      if (tag.name === "head") headEnd ??= tag.start;
      return;
    }
    if (tag.name !== "script") return;
    const src = tag.attributes.find((attribute) => attribute.name === "src")?.value?.trim();
    if (!src || /^[a-z][a-z\d+.-]*:/i.test(src) || src.startsWith("//")) return;
    const split = src.search(/[?#]/);
    const url = split === -1 ? src : src.slice(0, split);
    if (!ENTRY.test(url)) return;
    const entry = resolveUrl(page, url);
    if (entry === undefined || !files.has(entry)) {
      throw new BuildError(`${page} loads the script ${src}, which is not a file of the project.`);
    }
    scripts.push({
      start: tag.start,
      end: tag.end,
      attributes: tag.attributes,
      entry,
      url,
      suffix: split === -1 ? "" : src.slice(split),
    });
  });
  return { text, scripts, headEnd };
}

/** The project path a page's URL names: relative to the page, or rooted at `/`. */
function resolveUrl(page: string, url: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    return undefined;
  }
  return decoded.startsWith("/") ? joinPath("", decoded) : joinPath(dirname(page), decoded);
}

function rewritePage({ text, scripts, headEnd }: ScannedPage, bundles: ReadonlyMap<string, Bundle>): string {
  const edits: { at: number; end: number; text: string }[] = [];
  const links: string[] = [];
  for (const script of scripts) {
    const built = bundles.get(script.entry)!;
    const base = script.url.slice(0, script.url.lastIndexOf("/") + 1);
    edits.push({
      at: script.start,
      end: script.end,
      text: scriptTag(script.attributes, `${base}${basename(built.js)}${script.suffix}`),
    });
    if (built.css !== undefined) {
      const link = `<link rel="stylesheet" href="${escapeHtml(base + basename(built.css))}">`;
      if (!links.includes(link)) links.push(link);
    }
  }
  if (links.length > 0) {
    // In the head, so the page is styled on first paint; without a head, just before the first script.
    const at = headEnd ?? scripts[0]!.start;
    edits.push({ at, end: at, text: links.join("") });
  }
  // A link inserted where a script tag starts goes before it.
  edits.sort((a, b) => a.at - b.at || a.end - b.end);
  let result = "";
  let position = 0;
  for (const edit of edits) {
    result += text.slice(position, edit.at) + edit.text;
    position = Math.max(position, edit.end);
  }
  return result + text.slice(position);
}

function scriptTag(attributes: readonly Attribute[], src: string): string {
  const parts = attributes.map((attribute) => {
    if (attribute.name === "src") return `src="${escapeHtml(src)}"`;
    if (attribute.name === "type") return 'type="module"';
    return attribute.raw;
  });
  if (!attributes.some((attribute) => attribute.name === "type")) parts.unshift('type="module"');
  return `<script ${parts.join(" ")}>`;
}

// ---------------------------------------------------------------------------------------------
// Bundling one entry point from the snapshot

interface Bundle {
  entry: string;
  /** Output paths (the JS, then the CSS when there is one) and their bytes. */
  outputs: Map<string, Uint8Array>;
  js: string;
  css: string | undefined;
  /** The TypeScript/JSX files that went into the bundle: they are not published. */
  sources: string[];
}

const SNAPSHOT = "snapshot";
const BUILTIN = "builtin";
const JSX_IMPORT_SOURCE = "@project-builder/jsx";
const JSX_RUNTIME = `${JSX_IMPORT_SOURCE}/jsx-runtime`;

async function bundle(
  entry: string,
  files: ReadonlyMap<string, Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<Bundle> {
  signal?.throwIfAborted();
  const loaded = new Set<string>();
  const context = await esbuild.context({
    entryPoints: [entry],
    bundle: true,
    write: false,
    // Only names what esbuild reports back in memory: outputs are renamed below.
    outfile: "bundle.js",
    format: "esm",
    platform: "browser",
    // ES2022: top-level await and class fields as written; every current browser runs it.
    target: "es2022",
    minify: true,
    sourcemap: false,
    charset: "utf8",
    jsx: "automatic",
    jsxImportSource: JSX_IMPORT_SOURCE,
    // Code written for a bundler often branches on it; there is no process in a browser.
    define: { "process.env.NODE_ENV": '"production"' },
    // Never look for a tsconfig.json on the server's disk.
    tsconfigRaw: {},
    logLevel: "silent",
    plugins: [snapshotPlugin(files, entry, loaded)],
  });
  try {
    const result = await abortable(context.rebuild(), signal);
    return named(
      entry,
      result.outputFiles ?? [],
      [...loaded].filter((path) => TYPESCRIPT_OR_JSX.test(path)).sort(byCodeUnit),
    );
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (isBuildFailure(error)) throw new BuildError(describeFailure(entry, error.errors));
    throw error;
  } finally {
    // Disposing stops a build in progress; an abort does not wait for it to wind down. (Not
    // context.cancel(): in esbuild 0.28 a cancel that meets a rebuild as it starts can crash the
    // service, and every later build of the process then fails.)
    const disposed = context.dispose();
    if (signal?.aborted) disposed.catch(() => {});
    else await disposed;
  }
}

const TYPESCRIPT_OR_JSX = /\.(?:ts|tsx|jsx|mts|cts)$/i;

function named(entry: string, outputFiles: esbuild.OutputFile[], sources: string[]): Bundle {
  const stem = entry.replace(/\.[^./]+$/, "");
  const outputs = new Map<string, Uint8Array>();
  let js: string | undefined;
  let css: string | undefined;
  for (const file of outputFiles) {
    const extension = file.path.endsWith(".css") ? "css" : "js";
    const path = `${stem}-${createHash("sha256").update(file.contents).digest("hex").slice(0, 8)}.${extension}`;
    outputs.set(path, file.contents);
    if (extension === "css") css = path;
    else js = path;
  }
  if (js === undefined) throw new Error(`esbuild produced no JavaScript for ${entry}`);
  return { entry, outputs, js, css, sources };
}

function isBuildFailure(error: unknown): error is esbuild.BuildFailure {
  return error instanceof Error && Array.isArray((error as Partial<esbuild.BuildFailure>).errors);
}

function describeFailure(entry: string, messages: esbuild.Message[]): string {
  const shown = messages.slice(0, 3).map((message) => {
    const location = message.location;
    if (!location) return message.text;
    const file = location.file.startsWith(`${SNAPSHOT}:`) ? location.file.slice(SNAPSHOT.length + 1) : location.file;
    // esbuild's columns count from 0; editors count from 1.
    return `${file}:${location.line}:${location.column + 1}: ${message.text}`;
  });
  const more = messages.length - shown.length;
  return `The build of ${entry} failed:\n${shown.join("\n")}${more > 0 ? `\n(and ${more} more error${more === 1 ? "" : "s"})` : ""}`;
}

/** Rejects with the signal's reason as soon as it aborts. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

// ---------------------------------------------------------------------------------------------
// The plugin: every import is resolved and loaded from the snapshot, or is an error

/** Tried in this order for an import without an extension, then as `<dir>/index<ext>`. */
const RESOLVE_EXTENSIONS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".mts", ".json", ".css"];
/** TypeScript's ESM convention: `./util.js` in a .ts file names util.ts. */
const TS_FOR_JS: Record<string, string[]> = { ".js": [".ts", ".tsx"], ".jsx": [".tsx"], ".mjs": [".mts"] };
const LOADERS: Record<string, esbuild.Loader> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
  ".json": "json",
  ".css": "css",
  ".txt": "text",
  ".md": "text",
};
const CSS_KINDS = new Set<esbuild.ImportKind>(["import-rule", "url-token", "composes-from"]);

function snapshotPlugin(files: ReadonlyMap<string, Uint8Array>, entry: string, loaded: Set<string>): esbuild.Plugin {
  const outputDir = dirname(entry);
  return {
    name: "snapshot",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        // Not args.path: esbuild may have prefixed it with "./".
        if (args.kind === "entry-point") return { path: entry, namespace: SNAPSHOT };
        if (args.path === JSX_RUNTIME) return { path: JSX_RUNTIME, namespace: BUILTIN };
        const specifier = args.path;
        const importer = args.namespace === SNAPSHOT ? args.importer : "";
        const fail = (reason: string) => ({
          errors: [{ text: `Cannot import "${specifier}" in ${importer || args.importer}: ${reason}` }],
        });
        const css = CSS_KINDS.has(args.kind);

        if (/^[a-z][a-z\d+.-]*:/i.test(specifier) || specifier.startsWith("//")) {
          // A stylesheet may name other origins (fonts, images); the page's CSP decides. Code is bundled, never fetched.
          if (css) return { path: specifier, external: true };
          return fail("the build bundles only the project's own files; copy the code into the project.");
        }
        // In CSS, `/…` and `#…` are URLs of the site, not files to bundle.
        if (args.kind === "url-token" && (specifier.startsWith("#") || specifier.startsWith("/")))
          return { path: specifier, external: true };
        // In CSS every other reference is relative; in code, only ./, ../ and / are files.
        if (!css && !/^\.\.?(?:\/|$)/.test(specifier) && !specifier.startsWith("/")) {
          return fail(
            "it is a package, and the build installs no packages; import the project's files with a relative path (./…), or copy the library into the project.",
          );
        }

        const split = css ? specifier.search(/[?#]/) : -1;
        const path = split === -1 ? specifier : specifier.slice(0, split);
        const target = path.startsWith("/") ? joinPath("", path) : joinPath(dirname(importer), path);
        if (target === undefined) return fail("it points outside the project.");
        const file = resolveFile(files, target);
        if (file === undefined) return fail("no file of the project matches it.");
        // Assets a stylesheet names are published as they are: the bundled stylesheet points at them.
        if (args.kind === "url-token")
          return { path: relativeUrl(outputDir, file) + (split === -1 ? "" : specifier.slice(split)), external: true };
        return { path: file, namespace: SNAPSHOT };
      });

      build.onLoad({ filter: /.*/, namespace: BUILTIN }, () => ({ contents: JSX_RUNTIME_SOURCE, loader: "js" }));

      build.onLoad({ filter: /.*/, namespace: SNAPSHOT }, (args) => {
        loaded.add(args.path);
        const contents = files.get(args.path)!;
        if (/\.module\.css$/i.test(args.path)) return { contents, loader: "local-css" };
        const loader = LOADERS[extname(args.path).toLowerCase()];
        if (loader) return { contents, loader };
        // An imported image, font, …: its URL, next to the bundle, where it is published unchanged.
        return {
          contents: `export default new URL(${JSON.stringify(relativeUrl(outputDir, args.path))}, import.meta.url).href;`,
          loader: "js",
        };
      });
    },
  };
}

function resolveFile(files: ReadonlyMap<string, Uint8Array>, path: string): string | undefined {
  const candidates = [path];
  for (const extension of TS_FOR_JS[extname(path)] ?? [])
    candidates.push(path.slice(0, -extname(path).length) + extension);
  for (const extension of RESOLVE_EXTENSIONS) candidates.push(path + extension);
  for (const extension of RESOLVE_EXTENSIONS) candidates.push(`${path ? `${path}/` : ""}index${extension}`);
  return candidates.find((candidate) => candidate !== "" && files.has(candidate));
}

// ---------------------------------------------------------------------------------------------
// Project paths: `/`-separated, no leading slash, never above the root

function dirname(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf("/")));
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function extname(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot) : "";
}

/** `relative` from `dir`, normalized; undefined when it climbs above the root. */
function joinPath(dir: string, relative: string): string | undefined {
  const segments = dir ? dir.split("/") : [];
  for (const segment of relative.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join("/");
}

/** A URL from a file in `fromDir` to the project path `to`. */
function relativeUrl(fromDir: string, to: string): string {
  const from = fromDir ? fromDir.split("/") : [];
  const target = to.split("/");
  let common = 0;
  while (common < from.length && common < target.length - 1 && from[common] === target[common]) common++;
  const up = from.length - common;
  return (up === 0 ? "./" : "../".repeat(up)) + target.slice(common).join("/");
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// The built-in JSX runtime: DOM nodes, no virtual DOM. Event handlers (`onClick`) are listeners,
// `className`/`htmlFor` their attributes, a `style` object is set through the CSSOM (which the
// site's CSP allows, unlike style attributes), `ref` is called with the element.

const JSX_RUNTIME_SOURCE = `
const SVG = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg","g","path","circle","ellipse","line","polyline","polygon","rect","text","tspan","defs","use","symbol","linearGradient","radialGradient","stop","clipPath","mask","pattern","marker","filter","foreignObject"]);
function append(parent, child) {
  if (child == null || typeof child === "boolean") return;
  if (Array.isArray(child)) { for (const item of child) append(parent, item); return; }
  parent.append(typeof child === "object" ? child : String(child));
}
export function Fragment(props) {
  const fragment = document.createDocumentFragment();
  append(fragment, props.children);
  return fragment;
}
export function jsx(type, props) {
  if (typeof type === "function") return type(props);
  const svg = SVG_TAGS.has(type);
  const element = svg ? document.createElementNS(SVG, type) : document.createElement(type);
  for (const name in props) {
    const value = props[name];
    if (name === "children" || value == null || value === false) continue;
    if (name === "ref") typeof value === "function" ? value(element) : (value.current = element);
    else if (name === "style" && typeof value === "object") Object.assign(element.style, value);
    else if (name === "style") element.style.cssText = value;
    else if (name === "dangerouslySetInnerHTML") element.innerHTML = value.__html;
    else if (/^on[A-Z]/.test(name)) element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (!svg && (name === "value" || name === "checked" || name === "selected")) element[name] = value;
    else element.setAttribute(name === "className" ? "class" : name === "htmlFor" ? "for" : name, value === true ? "" : String(value));
  }
  append(element, props.children);
  return element;
}
export { jsx as jsxs };
`;
