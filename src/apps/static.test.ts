import { createHash, randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY, sendNotFound, serveSite, type Site, type SiteFile } from "./static.ts";

const CHUNK = 64 * 1024;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function memoryFile(content: string | Uint8Array, contentType = "application/octet-stream"): SiteFile {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return {
    sha256: sha256(bytes),
    contentType,
    sizeBytes: bytes.byteLength,
    async *open() {
      for (let offset = 0; offset < bytes.byteLength; offset += CHUNK) yield bytes.subarray(offset, offset + CHUNK);
    },
  };
}

function memorySite(files: Record<string, SiteFile>): Site {
  return { file: async (path) => files[path] };
}

const large = randomBytes(3 * 1024 * 1024);
const site = memorySite({
  "index.html": memoryFile("<!doctype html><title>Home</title>", "text/html"),
  "docs/index.html": memoryFile("<title>Docs</title>"),
  "style.css": memoryFile("body{margin:0}"),
  "app.js": memoryFile("console.log(1)"),
  "data.json": memoryFile("{}", "application/json"),
  "logo.png": memoryFile(new Uint8Array([0x89, 0x50])),
  "font.woff2": memoryFile(new Uint8Array([1])),
  icon: memoryFile("<svg/>", "image/svg+xml"),
  "big.bin": memoryFile(large),
  "broken.js": {
    sha256: "0".repeat(64),
    contentType: "text/javascript",
    sizeBytes: 2 * CHUNK,
    async *open() {
      yield new Uint8Array(CHUNK);
      throw new Error("storage went away");
    },
  },
});
const withNotFoundPage = memorySite({ "index.html": memoryFile("home"), "404.html": memoryFile("<h1>Lost?</h1>") });
const failing: Site = {
  file: async () => {
    throw new Error("database down");
  },
};

let server: Server;
let origin: string;
const errors: unknown[] = [];

beforeAll(async () => {
  // Headers choose the site and options, so one server covers every case.
  server = createServer((request, response) => {
    const which = request.headers["x-test-site"];
    const chosen = which === "404" ? withNotFoundPage : which === "failing" ? failing : site;
    if (request.headers["x-test-private"] === "1") response.setHeader("Cache-Control", "private, no-cache");
    void serveSite(request, response, chosen, {
      noindex: request.headers["x-test-noindex"] === "1",
      secure: request.headers["x-test-secure"] === "1",
      onError: (error) => errors.push(error),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A request whose path is sent exactly as written (fetch would normalize `%2e%2e`). */
function raw(path: string, method = "GET"): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${origin}/`, { path, method }, (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on("error", reject).end();
  });
}

function expectSecurityHeaders(headers: Headers) {
  expect(headers.get("content-security-policy")).toBe(
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  );
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("no-referrer");
  expect(headers.get("cross-origin-opener-policy")).toBe("same-origin");
  expect(headers.get("x-frame-options")).toBe("DENY");
}

describe("serveSite", () => {
  it("serves index.html at / with its ETag, no-cache and the security headers", async () => {
    const response = await fetch(`${origin}/?utm=1`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("<!doctype html><title>Home</title>");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("etag")).toBe(
      `"${sha256(new TextEncoder().encode("<!doctype html><title>Home</title>"))}"`,
    );
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expectSecurityHeaders(response.headers);
    expect(response.headers.get("strict-transport-security")).toBeNull();
    expect(response.headers.get("x-robots-tag")).toBeNull();
  });

  it("gives each file its content type and assets a max-age", async () => {
    const expected: [string, string][] = [
      ["/style.css", "text/css; charset=utf-8"],
      ["/app.js", "text/javascript; charset=utf-8"],
      ["/data.json", "application/json; charset=utf-8"],
      ["/logo.png", "image/png"],
      ["/font.woff2", "font/woff2"],
      ["/icon", "image/svg+xml; charset=utf-8"],
      ["/big.bin", "application/octet-stream"],
    ];
    for (const [path, type] of expected) {
      const response = await fetch(`${origin}${path}`, { method: "HEAD" });
      expect([path, response.status, response.headers.get("content-type")]).toEqual([path, 200, type]);
      expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    }
  });

  it("keeps a Cache-Control set before it", async () => {
    for (const path of ["/style.css", "/index.html", "/missing.png"]) {
      const response = await fetch(`${origin}${path}`, { headers: { "x-test-private": "1" } });
      expect([path, response.headers.get("cache-control")]).toEqual([path, "private, no-cache"]);
    }
  });

  it("serves /dir/ from dir/index.html and redirects /dir there", async () => {
    expect(await (await fetch(`${origin}/docs/`)).text()).toBe("<title>Docs</title>");
    const redirect = await fetch(`${origin}/docs?x=1`, { redirect: "manual" });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get("location")).toBe("/docs/?x=1");
    expectSecurityHeaders(redirect.headers);
  });

  it("answers 304 to a matching If-None-Match, in all its forms", async () => {
    const etag = (await fetch(`${origin}/style.css`)).headers.get("etag")!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const response = await fetch(`${origin}/style.css`, { headers: { "If-None-Match": ifNoneMatch } });
      expect([ifNoneMatch, response.status]).toEqual([ifNoneMatch, 304]);
      expect(await response.text()).toBe("");
      expect(response.headers.get("etag")).toBe(etag);
      expectSecurityHeaders(response.headers);
    }
    const stale = await fetch(`${origin}/style.css`, { headers: { "If-None-Match": '"other"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe("body{margin:0}");
  });

  it("answers HEAD with the headers only", async () => {
    const response = await raw("/big.bin", "HEAD");
    expect(response.status).toBe(200);
    expect(response.headers["content-length"]).toBe(String(large.byteLength));
    expect(response.body).toBe("");
  });

  it("serves index.html for client-side routes that a browser asks for", async () => {
    const route = await fetch(`${origin}/settings/profile`, {
      headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
    });
    expect(route.status).toBe(200);
    expect(await route.text()).toBe("<!doctype html><title>Home</title>");
    expect(route.headers.get("vary")).toBe("Accept");
    expect((await fetch(`${origin}/settings`)).status).toBe(200);

    const api = await fetch(`${origin}/settings/profile`, { headers: { Accept: "application/json" } });
    expect(api.status).toBe(404);
  });

  it("answers 404 with a small page for a missing file", async () => {
    const response = await fetch(`${origin}/missing.png`, { headers: { Accept: "text/html" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toContain("<h1>Not found</h1>");
    expectSecurityHeaders(response.headers);
  });

  it("answers a missing file with the site's own 404.html when it has one", async () => {
    const response = await fetch(`${origin}/missing.png`, { headers: { "x-test-site": "404" } });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("<h1>Lost?</h1>");
    expectSecurityHeaders(response.headers);
  });

  it("refuses paths that climb, hide separators or are malformed", async () => {
    for (const path of [
      "/%2e%2e/x",
      "/..%2fsecret",
      "/a/../index.html",
      "/%zz",
      "/a%00b",
      "/a%5c..%5cindex.html",
      "/a\\b",
      "/./index.html",
    ]) {
      const response = await raw(path);
      expect([path, response.status]).toEqual([path, 400]);
      expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(response.headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it("answers 405 to other methods", async () => {
    const response = await fetch(`${origin}/index.html`, { method: "POST", body: "x" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expectSecurityHeaders(response.headers);
  });

  it("adds X-Robots-Tag with noindex and HSTS when secure", async () => {
    const response = await fetch(`${origin}/missing.png`, { headers: { "x-test-noindex": "1", "x-test-secure": "1" } });
    expect(response.headers.get("x-robots-tag")).toBe("noindex");
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("streams a large file intact", async () => {
    const response = await fetch(`${origin}/big.bin`);
    expect(response.headers.get("content-length")).toBe("3145728");
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.byteLength).toBe(large.byteLength);
    expect(sha256(body)).toBe(sha256(large));
  });

  it("destroys the response when the body fails mid-stream, and reports it", async () => {
    errors.length = 0;
    const response = await fetch(`${origin}/broken.js`);
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
    await expect.poll(() => errors.map((error) => (error as Error).message)).toEqual(["storage went away"]);
  });

  it("answers 500 when the site cannot be read, and reports it", async () => {
    errors.length = 0;
    const response = await fetch(`${origin}/index.html`, { headers: { "x-test-site": "failing" } });
    expect(response.status).toBe(500);
    expectSecurityHeaders(response.headers);
    expect(errors.map((error) => (error as Error).message)).toEqual(["database down"]);
  });
});

describe("sendNotFound", () => {
  it("answers 404 with the built-in page and the security headers", async () => {
    const other = createServer((_request, response) => sendNotFound(response, { noindex: true }));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/anything`);
      expect(response.status).toBe(404);
      expect(await response.text()).toMatch(/^<!doctype html>[\s\S]*<title>Not found<\/title>/);
      expect(response.headers.get("x-robots-tag")).toBe("noindex");
      expectSecurityHeaders(response.headers);
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
