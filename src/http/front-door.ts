// The server's front door, outside the contract and open without a key: `GET /` says where things
// are, `GET /openapi.json` and `/openapi.yaml` are the contract's documents, and `GET /docs` its
// rendered reference (Redoc, vendored in src/http/vendor/ by `npm run build`, loading nothing from
// elsewhere under its CSP). Each answer is fixed for the process: an ETag lets a client revalidate.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { escapeHtml } from "../html/template.ts";

const generated = new URL("../../generated/", import.meta.url);
export const vendoredRedoc = new URL("./vendor/redoc.standalone.js", import.meta.url);

interface Answer {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
  readonly headers?: Record<string, string>;
}

function answer(body: string | Buffer, type: string, headers?: Record<string, string>): Answer {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
  return { body: bytes, type, etag, ...(headers ? { headers } : {}) };
}

/** The reference's page: Redoc from this server, the contract fetched from it; nothing else. */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src data:",
  "worker-src blob:",
  "connect-src 'self' blob: data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const MONO_FONTS = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

/** How the reference is shown, here and on the published page (scripts/docs.ts), bar where its documents are. */
export const redocOptions = {
  expandResponses: "200,201,202",
  showExtensions: ["x-required-scopes"],
  sortRequiredPropsFirst: true,
  theme: {
    typography: {
      fontFamily: SYSTEM_FONTS,
      headings: { fontFamily: SYSTEM_FONTS },
      code: { fontFamily: MONO_FONTS },
    },
  },
};

function docsPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} reference</title>
<link rel="icon" href="data:,">
</head>
<body style="margin: 0">
<noscript>This reference needs JavaScript. The contract itself: <a href="/openapi.yaml">openapi.yaml</a>, <a href="/openapi.json">openapi.json</a>.</noscript>
<div id="redoc"></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
}

const docsOptions = {
  ...redocOptions,
  downloadUrls: [
    { title: "OpenAPI (JSON)", url: "/openapi.json" },
    { title: "OpenAPI (YAML)", url: "/openapi.yaml" },
  ],
};
const docsInit = `Redoc.init("/openapi.json", ${JSON.stringify(docsOptions)}, document.getElementById("redoc"));\n`;

export interface FrontDoor {
  /** The paths it answers (every method: GET and HEAD are served, others refused 405). */
  readonly paths: ReadonlySet<string>;
  serve(request: IncomingMessage, response: ServerResponse, path: string): void;
}

/** The front door's answers by path, each made on first use. */
export function createFrontDoor(): FrontDoor {
  const made = new Map<string, Answer>();
  const contract = () =>
    JSON.parse(readFileSync(new URL("openapi.json", generated), "utf8")) as {
      info: { title: string; version: string };
    };
  const makers: Record<string, () => Answer> = {
    "/": () => {
      const { info } = contract();
      const index = {
        name: info.title,
        version: info.version,
        api: "/v1",
        docs: "/docs",
        openapi: { json: "/openapi.json", yaml: "/openapi.yaml" },
        console: "/settings",
        mcp: "/mcp",
        health: "/healthz",
      };
      return answer(`${JSON.stringify(index, null, 2)}\n`, "application/json");
    },
    "/openapi.json": () => answer(readFileSync(new URL("openapi.json", generated)), "application/json"),
    "/openapi.yaml": () => answer(readFileSync(new URL("openapi.yaml", generated)), "application/yaml"),
    "/docs": () =>
      answer(docsPage(contract().info.title), "text/html; charset=utf-8", { "Content-Security-Policy": DOCS_CSP }),
    "/docs/init.js": () => answer(docsInit, "text/javascript; charset=utf-8"),
    "/docs/redoc.standalone.js": () => answer(readFileSync(vendoredRedoc), "text/javascript; charset=utf-8"),
  };

  return {
    paths: new Set(Object.keys(makers)),
    serve(request, response, path) {
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
        return void response.end(`${path} answers GET and HEAD.\n`);
      }
      let found = made.get(path);
      if (!found) made.set(path, (found = makers[path]!()));
      const headers = {
        ETag: found.etag,
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        ...found.headers,
      };
      // Split and trimmed without a regular expression: the header is the client's, up to 16 KB.
      const presented = request.headers["if-none-match"]?.split(",").map((tag) => tag.trim());
      if (presented?.includes(found.etag)) {
        return void response.writeHead(304, headers).end();
      }
      response.writeHead(200, { ...headers, "Content-Type": found.type, "Content-Length": found.body.length });
      response.end(request.method === "HEAD" ? undefined : found.body);
    },
  };
}
