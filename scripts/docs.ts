// npm run docs: writes the API reference to site/, ready to publish as is:
//
//   site/index.html        the reference: Redoc 2 (standalone bundle) and the
//                          contract, both inlined: no network access at all
//   site/openapi.yaml      the canonical OpenAPI 3.0 document
//   site/openapi.3.1.yaml  the same contract as OpenAPI 3.1
//   site/CHANGELOG.md      the changelog the description promises
//
// The page makes no request: no CDN, no web fonts (system fonts only), the
// spec inline rather than fetched, and Redoc's one hard-coded remote image
// (the "API docs by Redocly" logo) replaced by an inline one. A
// Content-Security-Policy forbids loading anything from anywhere, so a future
// Redoc that tries cannot do so silently: test/docs.test.ts opens the page in
// headless Chromium and fails on any non-local request or CSP violation.
//
//   node scripts/docs.ts [--out <dir>]

import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse } from "yaml";
import { escapeHtml } from "../src/html/template.ts";
import { redocOptions } from "../src/http/front-door.ts";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

// Files published beside the page.
const published = [
  { from: "generated/openapi.yaml", to: "openapi.yaml", title: "OpenAPI 3.0 (YAML)" },
  { from: "generated/openapi.3.1.yaml", to: "openapi.3.1.yaml", title: "OpenAPI 3.1 (YAML)" },
  { from: "CHANGELOG.md", to: "CHANGELOG.md", title: "Changelog" },
];

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

// Redoc's sidebar footer loads its logo from this address; we inline a plain one.
const REDOC_REMOTE_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const INLINE_LOGO =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="6" fill="#8a8a8a"/></svg>',
  );

// Nothing may be fetched: scripts, styles and images are inline or data:/blob:
// (Redoc runs its search index in a blob: worker and builds the download of
// the definition as a blob:).
const CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "img-src data: blob:",
  "font-src data:",
  "worker-src blob:",
  "connect-src blob: data:",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/** The parts of the contract the page reads or rewrites; the rest passes through untouched. */
type Doc = {
  info?: { title?: string; version?: string };
  paths?: Record<string, Record<string, { operationId?: string; description?: string } | undefined>>;
};

/** Redoc's standalone bundle, made safe to inline and free of remote loads (also what the server vendors). */
export function redocBundle(): string {
  const file = join(dirname(require.resolve("redoc/package.json")), "bundles", "redoc.standalone.js");
  let code = readFileSync(file, "utf8");
  const logoUses = code.split(REDOC_REMOTE_LOGO).length - 1;
  if (logoUses !== 1) {
    // A new Redoc moved things around: look again rather than ship a page that calls out.
    throw new Error(
      `docs: expected Redoc to reference ${REDOC_REMOTE_LOGO} once, found ${logoUses}; check the bundle for remote loads.`,
    );
  }
  code = code.replace(REDOC_REMOTE_LOGO, INLINE_LOGO);
  // The source map is not published; drop the reference so nothing looks for it.
  code = code.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
  // Inside an inline <script>, "</script" would end the element early.
  return code.replace(/<\/script/gi, "<\\/script");
}

/**
 * The contract as shown on the page: the document itself, plus each
 * operation's operationId in its description, since Redoc only uses it in
 * anchors and backend teams implement handlers by operationId.
 */
function docsView(contract: Doc): Doc {
  const view = structuredClone(contract);
  for (const pathItem of Object.values(view.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!operation?.operationId) continue;
      const line = `Operation ID: \`${operation.operationId}\``;
      operation.description = operation.description ? `${line}\n\n${operation.description}` : line;
    }
  }
  return view;
}

/** JSON that can sit inside a <script> element. */
function inlineJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function page(contract: Doc, downloadUrls: Array<{ title: string; url: string }>): string {
  const options = { downloadUrls, ...redocOptions };
  const title = `${contract.info?.title ?? "API"} ${contract.info?.version ?? ""} reference`.trim();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="generator" content="scripts/docs.ts (Redoc ${(require("redoc/package.json") as { version: string }).version})">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<noscript>This reference needs JavaScript. The contract itself is in <a href="openapi.yaml">openapi.yaml</a>.</noscript>
<div id="redoc"></div>
<script id="contract" type="application/json">${inlineJson(docsView(contract))}</script>
<script id="redoc-options" type="application/json">${inlineJson(options)}</script>
<script>${redocBundle()}</script>
<script>
  Redoc.init(
    JSON.parse(document.getElementById("contract").textContent),
    JSON.parse(document.getElementById("redoc-options").textContent),
    document.getElementById("redoc"),
  );
</script>
</body>
</html>
`;
}

/** Builds the site into outDir; returns the files written. */
export function buildDocs(outDir: string = join(root, "site")): string[] {
  for (const file of published) {
    if (!existsSync(join(root, file.from)))
      throw new Error(`docs: ${file.from} is missing. Run \`npm run build\` first.`);
  }
  mkdirSync(outDir, { recursive: true });
  for (const file of published) copyFileSync(join(root, file.from), join(outDir, file.to));

  const contract = parse(readFileSync(join(root, "generated/openapi.yaml"), "utf8")) as Doc;
  const html = page(
    contract,
    published.map((file) => ({ title: file.title, url: file.to })),
  );
  writeFileSync(join(outDir, "index.html"), html);
  return ["index.html", ...published.map((file) => file.to)].map((name) => join(outDir, name));
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  try {
    const written = buildDocs(values.out ? resolve(values.out) : undefined);
    for (const file of written) console.log(`docs: wrote ${relative(process.cwd(), file)}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
