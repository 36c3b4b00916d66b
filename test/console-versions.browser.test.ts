// A project's versions in the settings console, in a real Chromium: a member opens Projects from the
// workspace's nav, then a project with two versions, and reads what version 2 changed: the added line
// marked and coloured, the removed one too, hostile text shown as text, a binary file named as such;
// then version 1 against the empty project. No CSP violation or page error on the way, and the page
// is photographed (the viewport) under test-results/screenshots/console-versions.png.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { applyFileChanges } from "../src/domain/files.ts";
import { addMember } from "../src/domain/members.ts";
import { createVersion } from "../src/domain/versions.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { projects } from "../src/storage/schema.ts";
import { expectBody } from "./support/api-client.ts";
import { describeWithBrowser, launchBrowser } from "./support/browser.ts";
import { pgliteDriver } from "./support/database.ts";
import { repoRoot } from "./support/process.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const PASSWORD = "correct horse battery staple";
const EMAIL = "member@example.com";
/** Markup in a project's file, which the page must show as text. */
const HOSTILE = `<img src=x onerror="window.pwned = true">`;

describeWithBrowser("a project's versions in the console", () => {
  let server: TestServer;
  let browser: Browser;
  let projectId: string;
  const violations: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(pgliteDriver);
    const { workspace } = await ensureWorkspace(server.storage.db, {
      slug: "acme",
      name: "Acme Robotics",
      plan: "pro",
    });
    await addMember(server.storage.db, { workspaceId: workspace.id, email: EMAIL, role: "member", password: PASSWORD });
    const project = expectBody(
      await server.client.post("/v1/projects", { name: "Greeting card", prompt: "A greeting card" }),
      201,
    );
    projectId = project.id;
    const [partition] = await server.storage.db
      .select({ workspaceId: projects.workspaceId, environment: projects.environment })
      .from(projects)
      .where(eq(projects.id, projectId));
    const encode = (text: string) => new TextEncoder().encode(text);
    const checkpoint = async (writes: Record<string, Uint8Array>, message: string) => {
      await server.storage.db.transaction((tx) =>
        applyFileChanges(tx, partition!, projectId, {
          writes: Object.entries(writes).map(([path, content]) => ({ path, content, contentType: "text/plain" })),
          deletes: [],
        }),
      );
      await createVersion(server.storage.db, partition!, projectId, { message });
    };
    const app = (greeting: string) =>
      encode(
        `import { render } from "./render.js";\n\nconst title = "Hello";\nconst greeting = ${JSON.stringify(greeting)};\n\nrender(title, greeting);\n`,
      );
    await checkpoint({ "app.js": app("Welcome"), "index.html": encode("<h1>Card</h1>\n") }, "First draft");
    await checkpoint(
      {
        "app.js": app(`Happy birthday ${HOSTILE}`),
        "style.css": encode("h1 {\n  color: teal;\n}\n"),
        "logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      },
      "A birthday greeting",
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function follow(page: Page, link: Locator): Promise<void> {
    const target = new URL((await link.getAttribute("href"))!, page.url()).href;
    await link.click();
    await page.waitForURL(target);
  }

  it("shows a project's versions and what the newest changed, additions and deletions marked", async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    // Console errors and failed loads, but the favicon Chromium asks for by itself (the console has none).
    page.on("console", (entry) => {
      const failedLoad = entry.text().startsWith("Failed to load resource");
      if ((entry.type() === "error" && !failedLoad) || /Content Security Policy|Refused to/i.test(entry.text()))
        violations.push(entry.text());
    });
    page.on("response", (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname !== "/favicon.ico")
        violations.push(`${response.status()} ${response.url()}`);
    });
    page.on("pageerror", (error) => violations.push(String(error)));
    page.on("dialog", (dialog) => violations.push(`dialog: ${dialog.message()}`));
    await page.goto(`${server.url}/settings`);
    await page.getByLabel("Email address").fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname !== "/settings/sign-in");

    await follow(page, page.getByRole("navigation", { name: /Workspace/ }).getByRole("link", { name: "Projects" }));
    await follow(page, page.getByRole("link", { name: "Greeting card" }));
    expect(new URL(page.url()).pathname).toBe(`/settings/w/acme/projects/${projectId}`);
    expect(await page.locator("h1").textContent()).toBe("Greeting card");
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain("A birthday greeting");
    expect(await rows.nth(1).textContent()).toContain("First draft");
    expect(await page.locator("#changes-heading").textContent()).toBe("Changes in version 2");

    // The changed line, removed and added, each marked (<del>, <ins>) and coloured by the stylesheet.
    const app = page.getByRole("region", { name: /app\.js/ });
    const added = app.locator("ins.diff-add");
    const removed = app.locator("del.diff-del");
    expect(await added.count()).toBe(1);
    expect(await added.locator(".diff-text").textContent()).toBe(
      `+const greeting = "Happy birthday ${HOSTILE.replaceAll('"', '\\"')}";`,
    );
    expect(await removed.locator(".diff-text").textContent()).toBe('-const greeting = "Welcome";');
    // An expression as text: this code is type-checked without the DOM's types.
    const style = (line: "ins" | "del", property: string) =>
      page.evaluate<string>(
        `getComputedStyle(document.querySelector('section[aria-labelledby="diff-file-0"] ${line}')).${property}`,
      );
    expect(await style("ins", "backgroundColor")).toBe("rgb(230, 255, 236)");
    expect(await style("del", "backgroundColor")).toBe("rgb(255, 235, 233)");
    expect(await style("ins", "textDecorationLine")).toBe("none");
    // Line numbers: the changed line is the 4th on both sides.
    expect(await added.locator(".diff-num").allTextContents()).toEqual(["", "4"]);
    expect(await removed.locator(".diff-num").allTextContents()).toEqual(["4", ""]);
    expect(await app.textContent()).toContain("+1 −1");
    // The hostile text is text: no element was made of it.
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.evaluate(`window.pwned`)).toBeUndefined();
    expect(await page.getByRole("region", { name: /logo\.png/ }).textContent()).toContain("Binary file");
    expect(
      await page
        .getByRole("region", { name: /style\.css/ })
        .locator("ins.diff-add")
        .count(),
    ).toBe(3);

    const directory = join(repoRoot, "test-results", "screenshots");
    await mkdir(directory, { recursive: true });
    await page.locator("#changes").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(directory, "console-versions.png") });

    await follow(page, page.getByRole("link", { name: "Version 1" }));
    expect(await page.locator("#changes-heading").textContent()).toBe("Changes in version 1");
    expect(await page.locator("#changes").textContent()).toContain("Against the empty project");
    expect(await page.locator("#changes del").count()).toBe(0);
    expect(await page.locator("#changes ins").count()).toBe(7);
    expect(await page.locator("[style], style, script:not([src])").count()).toBe(0);
    expect(violations).toEqual([]);

    // Another workspace's project, and this one in the other environment, are not found here.
    const otherKey = await server.createKey({ workspace: "globex" });
    const other = expectBody(
      await server.as(otherKey).post("/v1/projects", { name: "Elsewhere", prompt: "A page" }),
      201,
    );
    for (const path of [
      `/settings/w/acme/projects/${other.id}`,
      `/settings/w/acme/projects/${projectId}?environment=test`,
    ]) {
      expect((await page.goto(`${server.url}${path}`))?.status(), path).toBe(404);
    }
    await context.close();
  });
});
