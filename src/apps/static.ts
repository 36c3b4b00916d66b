// Answering one HTTP request for a published site, given the site as an abstract file lookup.
// Storage-free: the integrator maps the request's host to a Site and calls serveSite.
//
// - GET and HEAD only; `/` and `/dir/` serve their index.html; `/dir` redirects to `/dir/` when
//   `dir/index.html` exists (so the page's relative URLs resolve against its directory).
// - A missing path whose last segment has no extension, asked for by a browser (Accept: text/html,
//   */* or none), is a client-side route: it gets the root index.html. Other misses get the site's
//   own 404.html when it has one, else a small built-in page, with status 404.
// - Caching: HTML is `no-cache` (always revalidated, so a redeploy shows at once); other files are
//   `public, max-age=3600`. The build's bundles carry a content hash in their names, so a fresh page
//   never loads a stale script; plain assets may be up to an hour stale after a redeploy. A
//   Cache-Control set on the response before serveSite (e.g. `private, no-cache` for a private app)
//   is kept on every answer.
// - Every answer, errors and 304s included, carries the security headers below.
// - serveSite never rejects: a failing lookup answers 500, a body failing mid-stream destroys the
//   response; both are reported to options.onError for logging.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { contentTypeFor } from "../domain/media-types.ts";

export interface SiteFile {
  /** Hex SHA-256 of the content: the ETag. */
  readonly sha256: string;
  /** The stored media type; `application/octet-stream` or empty means "by extension". */
  readonly contentType: string;
  readonly sizeBytes: number;
  open(): AsyncIterable<Uint8Array> | Promise<AsyncIterable<Uint8Array>>;
}

export interface Site {
  /** The file at a project path (no leading slash, e.g. `index.html`, `assets/logo.png`). */
  file(path: string): Promise<SiteFile | undefined>;
}

export interface ServeOptions {
  /** Adds `X-Robots-Tag: noindex` (previews). */
  noindex?: boolean;
  /** Served over HTTPS: adds Strict-Transport-Security. */
  secure?: boolean;
  onError?: (error: unknown) => void;
}

/**
 * Strict, yet the app's own files run: scripts, styles, fonts, fetches from the site's origin only.
 * Inline `<script>`, `on…=` attributes, `<style>` blocks and `style=""` attributes are refused: the
 * site's code and styles must live in files (the build's output does).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HTML_CACHE = "no-cache";
const ASSET_CACHE = "public, max-age=3600";

export function securityHeaders(options: { noindex?: boolean; secure?: boolean } = {}): Record<string, string> {
  return {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    ...(options.secure ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
    ...(options.noindex ? { "X-Robots-Tag": "noindex" } : {}),
  };
}

export async function serveSite(
  request: IncomingMessage,
  response: ServerResponse,
  site: Site,
  options: ServeOptions = {},
): Promise<void> {
  const head = request.method === "HEAD";
  if (request.method !== "GET" && !head) {
    sendText(
      response,
      405,
      "Method not allowed: a site answers GET and HEAD.\n",
      options,
      { Allow: "GET, HEAD" },
      head,
    );
    return;
  }
  const target = requestPath(request.url ?? "/");
  if (target === undefined) {
    sendText(response, 400, "Bad request: the path is not valid.\n", options, {}, head);
    return;
  }
  try {
    const { path, query } = target;
    const file = path === undefined ? undefined : await site.file(path);
    if (path !== undefined && file) return await sendFile(request, response, path, file, options);

    const route = path !== undefined && !path.slice(path.lastIndexOf("/") + 1).includes(".") && acceptsHtml(request);
    if (route && (await site.file(`${path}/index.html`))) {
      const location = `/${path.split("/").map(encodeURIComponent).join("/")}/${query}`;
      sendText(response, 301, `Moved to ${location}\n`, options, { Location: location }, head);
      return;
    }
    const index = route ? await site.file("index.html") : undefined;
    if (index) return await sendFile(request, response, "index.html", index, options, { Vary: "Accept" });

    const page = await site.file("404.html");
    if (page) return await sendFile(request, response, "404.html", page, options, {}, 404);
    sendNotFound(response, options, head);
  } catch (error) {
    options.onError?.(error);
    if (response.headersSent) response.destroy();
    else sendText(response, 500, "The site could not be served; try again.\n", options, {}, head);
  }
}

/**
 * The project path a request target names, and its query (kept for redirects). Undefined (a 400)
 * for a malformed target; a path of undefined for a well-formed one no file can have (empty segments).
 */
function requestPath(url: string): { path: string | undefined; query: string } | undefined {
  if (!url.startsWith("/")) return undefined;
  const end = url.search(/[?#]/);
  const raw = end === -1 ? url : url.slice(0, end);
  const query = end === -1 || url[end] === "#" ? "" : url.slice(end).replace(/#.*$/, "");
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  // Checked after decoding, so %2e%2e, %2f and %5c are caught like their plain forms.
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (decoded.includes("\\") || /[\u0000-\u001f\u007f]/.test(decoded)) return undefined;
  const segments = decoded.slice(1).split("/");
  if (segments.some((segment) => segment === "." || segment === "..")) return undefined;
  const trailing = segments.at(-1) === "";
  if (trailing) segments.pop();
  if (segments.some((segment) => segment === "")) return { path: undefined, query };
  const path = segments.join("/");
  return { path: trailing || path === "" ? (path ? `${path}/index.html` : "index.html") : path, query };
}

function acceptsHtml(request: IncomingMessage): boolean {
  const accept = request.headers.accept;
  return !accept || /(?:^|,)\s*(?:text\/html|\*\/\*)\s*(?:[;,]|$)/i.test(accept);
}

async function sendFile(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  file: SiteFile,
  options: ServeOptions,
  extra: Record<string, string> = {},
  status = 200,
): Promise<void> {
  const type = contentTypeFor(path, file.contentType);
  const etag = `"${file.sha256}"`;
  const headers: Record<string, string> = {
    ...securityHeaders(options),
    ETag: etag,
    ...cacheControl(response, type.startsWith("text/html") || status !== 200 ? HTML_CACHE : ASSET_CACHE),
    ...extra,
  };
  if (status === 200 && matchesEtag(request.headers["if-none-match"], file.sha256)) {
    response.writeHead(304, headers).end();
    return;
  }
  response.writeHead(status, { ...headers, "Content-Type": type, "Content-Length": String(file.sizeBytes) });
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  try {
    await pipeline(await file.open(), response);
  } catch (error) {
    response.destroy();
    // A visitor who leaves mid-download is no failure of the site.
    if ((error as NodeJS.ErrnoException).code !== "ERR_STREAM_PREMATURE_CLOSE") options.onError?.(error);
  }
}

/** If-None-Match: `*`, or a list of (possibly weak) tags, one of them ours. */
function matchesEtag(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === `"${sha256}"`;
  });
}

// ---------------------------------------------------------------------------------------------
// Small answers

/** The built-in not-found page: no script and no style, so the CSP refuses nothing. */
export function notFoundPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head>
<body><h1>Not found</h1><p>There is nothing at this address.</p></body>
</html>
`;
}

/** A 404 with the built-in page and the security headers; also for hosts that name no site. */
export function sendNotFound(
  response: ServerResponse,
  options: { noindex?: boolean; secure?: boolean } = {},
  head = false,
): void {
  const body = Buffer.from(notFoundPage());
  response.writeHead(404, {
    ...securityHeaders(options),
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": String(body.length),
    ...cacheControl(response, HTML_CACHE),
  });
  response.end(head ? undefined : body);
}

/** Our default, unless the caller already set one: writeHead's headers would override it. */
function cacheControl(response: ServerResponse, fallback: string): Record<string, string> {
  return response.hasHeader("cache-control") ? {} : { "Cache-Control": fallback };
}

function sendText(
  response: ServerResponse,
  status: number,
  text: string,
  options: ServeOptions,
  extra: Record<string, string>,
  head: boolean,
): void {
  const body = Buffer.from(text);
  response.writeHead(status, {
    ...securityHeaders(options),
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(body.length),
    ...cacheControl(response, "no-store"),
    ...extra,
  });
  response.end(head ? undefined : body);
}
