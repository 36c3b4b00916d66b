// The pages' two static files (src/pages/assets/), shared by the console and the OAuth pages: one
// stylesheet and one small script, the only style and script the pages' Content-Security-Policy
// allows. Read once at start; pages link them with `?v=<content hash>`, so they can be cached for a
// year and still change on a deploy.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";

interface Asset {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
  readonly version: string;
}

const CONTENT_TYPES = {
  "console.css": "text/css; charset=utf-8",
  "console.js": "text/javascript; charset=utf-8",
} as const;
export type AssetName = keyof typeof CONTENT_TYPES;

const assets = new Map<string, Asset>(
  Object.entries(CONTENT_TYPES).map(([name, contentType]) => {
    const body = readFileSync(join(import.meta.dirname, "assets", name));
    const version = createHash("sha256").update(body).digest("base64url").slice(0, 16);
    return [name, { body, contentType, etag: `"${version}"`, version }];
  }),
);

/** The asset's address with its content version. */
export function assetUrl(name: AssetName): string {
  return `/settings/assets/${name}?v=${assets.get(name)!.version}`;
}

const ASSETS_PATH = /^\/settings\/assets\/([a-z.]+)$/;

/** Answers `/settings/assets/<name>` (GET or HEAD); false when the request is not for an asset. */
export function serveAsset(request: IncomingMessage, response: ServerResponse, path: string): boolean {
  const name = ASSETS_PATH.exec(path)?.[1];
  const asset = name !== undefined && Object.hasOwn(CONTENT_TYPES, name) ? assets.get(name) : undefined;
  if (!asset || (request.method !== "GET" && request.method !== "HEAD")) return false;
  response.setHeader("Content-Type", asset.contentType);
  response.setHeader("Cache-Control", "public, max-age=31536000, immutable");
  response.setHeader("ETag", asset.etag);
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  if (request.headers["if-none-match"] === asset.etag) {
    response.statusCode = 304;
    response.end();
    return true;
  }
  response.statusCode = 200;
  response.setHeader("Content-Length", asset.body.length);
  response.end(request.method === "HEAD" ? undefined : asset.body);
  return true;
}
