// The API reference (npm run docs) in a real headless Chromium: it shows every
// operation of generated/openapi.yaml, and requests nothing outside localhost.
//
// Needs Debian's Chromium (apt-get install -y chromium); says it is skipped without it.

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import { buildDocs, root } from "../scripts/docs.ts";
import { chromiumPath, describeWithBrowser } from "./support/browser.ts";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".yaml": "application/yaml",
  ".md": "text/markdown; charset=utf-8",
};

interface Operation {
  operationId: string;
  summary: string;
}

function operationsOf(file: string): Operation[] {
  const doc = parse(readFileSync(file, "utf8")) as { paths?: Record<string, Record<string, Operation>> };
  return Object.values(doc.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => item[method] as Operation),
  );
}

/** A local URL, or one that never leaves the page (data:, blob:, about:). */
function isLocal(url: string): boolean {
  if (/^(data|blob|about):/.test(url)) return true;
  const { hostname } = new URL(url);
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
}

describeWithBrowser("npm run docs", () => {
  let site = "";
  let browser: Browser | undefined;
  let server: ReturnType<typeof createServer> | undefined;
  let baseUrl = "";

  beforeAll(async () => {
    site = mkdtempSync(join(tmpdir(), "docs-site-"));
    buildDocs(site);

    // Serve the built site, as a docs host would.
    server = createServer((request, response) => {
      const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname)).replace(
        /^(\.\.[/\\])+/,
        "",
      );
      const file = join(site, path.endsWith("/") ? `${path}index.html` : path);
      if (!file.startsWith(site) || !existsSync(file)) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" });
      response.end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

    browser = await chromium.launch({
      executablePath: chromiumPath!,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (site) rmSync(site, { recursive: true, force: true });
  });

  it("publishes the contract files beside the page", () => {
    for (const file of ["index.html", "openapi.yaml", "openapi.3.1.yaml"]) {
      expect(existsSync(join(site, file)), file).toBe(true);
    }
    expect(readFileSync(join(site, "openapi.yaml"), "utf8")).toBe(
      readFileSync(join(root, "generated/openapi.yaml"), "utf8"),
    );
    if (existsSync(join(root, "CHANGELOG.md"))) expect(existsSync(join(site, "CHANGELOG.md"))).toBe(true);
  });

  it("shows every operation and requests nothing outside localhost", async () => {
    const operations = operationsOf(join(root, "generated/openapi.yaml"));
    expect(operations.length).toBeGreaterThan(0);

    const page = await browser!.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      // CSP refusals and failed loads are reported on the console.
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });

    await page.goto(baseUrl, { waitUntil: "load" });
    // Redoc renders every operation as a section with id "operation/<operationId>".
    // (Page code as a string: this project's TypeScript has no DOM types.)
    await page.waitForFunction(
      `document.querySelectorAll('[data-section-id^="operation/"]').length >= ${operations.length}`,
      undefined,
      { timeout: 15_000 },
    );
    const text = await page.locator("body").innerText();
    await page.close();

    const missing = operations.flatMap(({ operationId, summary }) => [
      ...(text.includes(operationId) ? [] : [`operationId ${operationId}`]),
      ...(text.includes(summary) ? [] : [`summary "${summary}" (${operationId})`]),
    ]);
    expect(missing).toEqual([]);
    expect(requests.filter((url) => !isLocal(url))).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);
});
