// The server's front door, without a key: `GET /` says where things are, `/openapi.json` and
// `/openapi.yaml` are the contract's documents (revalidated by ETag), and `/docs` renders the
// reference in Chromium from the server alone, under its CSP.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import { describeWithBrowser, launchBrowser } from "./support/browser.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { repoRoot } from "./support/process.ts";
import { suiteServer } from "./support/server.ts";

const contract = JSON.parse(readFileSync(join(repoRoot, "generated/openapi.json"), "utf8")) as {
  info: { title: string; version: string };
  paths: Record<string, Record<string, { summary?: string }>>;
};

onEmbeddedDatabase("the front door", (driver) => {
  const server = suiteServer(driver);

  it("GET / answers an index of where things are", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({
      name: contract.info.title,
      version: contract.info.version,
      api: "/v1",
      docs: "/docs",
      openapi: { json: "/openapi.json", yaml: "/openapi.yaml" },
      console: "/settings",
      mcp: "/mcp",
      health: "/healthz",
    });
  });

  it("serves the contract's documents as generated/ holds them, revalidated by ETag; HEAD alike, other methods 405", async () => {
    for (const [path, type] of [
      ["/openapi.json", "application/json"],
      ["/openapi.yaml", "application/yaml"],
    ] as const) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect(await response.text()).toBe(readFileSync(join(repoRoot, "generated", path.slice(1)), "utf8"));
      const etag = response.headers.get("etag")!;
      expect(etag).toMatch(/^"[\w-]{27}"$/);
      const again = await fetch(`${server.url}${path}`, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      const head = await fetch(`${server.url}${path}`, { method: "HEAD" });
      expect(head.headers.get("etag")).toBe(etag);
      const post = await fetch(`${server.url}${path}`, { method: "POST" });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET, HEAD");
    }
    expect(parse(await (await fetch(`${server.url}/openapi.yaml`)).text())).toEqual(contract);
  });

  describeWithBrowser("GET /docs in Chromium", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(() => browser?.close());

    it("renders every operation from this server alone, with no page error or CSP violation", async () => {
      const page = await browser.newPage();
      const problems: string[] = [];
      const elsewhere: string[] = [];
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      page.on("request", (request) => {
        const url = request.url();
        if (!url.startsWith(server.url) && !/^(data|blob|about):/.test(url)) elsewhere.push(url);
      });
      const response = await page.goto(`${server.url}/docs`);
      expect(response!.headers()["content-security-policy"]).toContain("default-src 'none'");
      const first = Object.values(Object.values(contract.paths)[0]!)[0]!.summary!;
      // Each operation is a heading of the reference (and an entry of its sidebar).
      await page.locator("h2", { hasText: first }).first().waitFor({ timeout: 30_000 });
      // The first screen only: the whole reference is tens of thousands of pixels tall.
      await page.screenshot({ path: join(repoRoot, "test-results", "screenshots", "front-door-docs.png") });
      const operations = Object.values(contract.paths).flatMap((item) => Object.values(item));
      const text = (await page.locator("body").textContent()) ?? "";
      for (const operation of operations) expect(text, operation.summary).toContain(operation.summary);
      expect(problems).toEqual([]);
      expect(elsewhere).toEqual([]);
      await page.close();
    }, 60_000);
  });
});
