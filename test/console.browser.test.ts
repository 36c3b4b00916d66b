// The settings console in a real Chromium: an owner signs in, creates a key (shown once, copied
// with the Copy button), uses it and revokes it; registers a webhook and sends a test event that a
// local receiver gets; reads the audit log; an admin creates a key and a member sees no forms; a
// browser without JavaScript still gets the secret in a selectable field. Every page is checked for
// the basics of accessibility (one <h1>, labelled fields, header cells with scope, a nav landmark,
// the skip link first in the tab order with a visible focus) and photographed under
// test-results/screenshots/console-*.png.
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { addMember } from "../src/domain/members.ts";
import { ensureWorkspace } from "../src/domain/workspaces.ts";
import { oauthClients, oauthGrants, oauthTokens, users, type Workspace } from "../src/storage/schema.ts";
import { describeWithBrowser, launchBrowser, screenshot } from "./support/browser.ts";
import { pgliteDriver } from "./support/database.ts";
import { startReceiver, type Receiver } from "./support/receiver.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const PASSWORD = "correct horse battery staple";
const people = { owner: "owner@example.com", admin: "admin@example.com", member: "member@example.com" } as const;

/** What an accessibility review checks first, measured in the page. */
const A11Y_PROBE = `(() => {
  const problems = [];
  const h1 = document.querySelectorAll("h1");
  if (h1.length !== 1) problems.push("expected one h1, found " + h1.length);
  for (const field of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    const named = (field.labels && field.labels.length > 0) || field.getAttribute("aria-label") || field.getAttribute("aria-labelledby");
    if (!named) problems.push("unlabelled field " + (field.id || field.name));
  }
  for (const th of document.querySelectorAll("th")) {
    if (!th.getAttribute("scope")) problems.push("th without scope: " + th.textContent.trim());
  }
  for (const button of document.querySelectorAll("button:not([hidden]), a[href]")) {
    if (!(button.textContent.trim() || button.getAttribute("aria-label"))) problems.push("control without a name");
  }
  const ids = [...document.querySelectorAll("[id]")].map((element) => element.id);
  const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (duplicates.length) problems.push("duplicate ids " + duplicates.join(", "));
  if (!document.querySelector("main#main")) problems.push("no main landmark");
  if (!document.documentElement.lang) problems.push("no lang");
  const skip = document.querySelector("a.skip-link");
  if (!skip || skip.getAttribute("href") !== "#main") problems.push("no skip link");
  if (document.querySelector("[style], style, script:not([src])")) problems.push("inline style or script");
  return problems;
})()`;

describeWithBrowser("settings console in a browser", () => {
  let server: TestServer;
  let receiver: Receiver;
  let browser: Browser;
  let workspace: Workspace;
  const violations: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer(pgliteDriver, {
      webhooks: { deliver: true, allowPrivateNetworks: true, retrySchedule: [200, 200] },
    });
    ({ workspace } = await ensureWorkspace(server.storage.db, { slug: "acme", name: "Acme Robotics", plan: "pro" }));
    for (const role of ["owner", "admin", "member"] as const) {
      await addMember(server.storage.db, { workspaceId: workspace.id, email: people[role], role, password: PASSWORD });
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  /** A page's accessibility problems (none expected), a CSP violation listener, and a screenshot. */
  async function look(page: Page, name: string): Promise<void> {
    // Polled: a click that navigates returns before the next page has loaded, and a probe run in
    // between meets no document (or one torn down under it) on a loaded machine.
    const probe = () =>
      page.evaluate(A11Y_PROBE).then(
        (problems) => problems as string[],
        (error: unknown) => [`no page to probe: ${String(error)}`],
      );
    await expect.poll(probe, { message: `${name}: ${page.url()}` }).toEqual([]);
    await screenshot(page, `console-${name}`);
  }

  /** Clicks a link and waits for the page it leads to: a click returns before the navigation it starts. */
  async function follow(page: Page, link: Locator): Promise<void> {
    const target = new URL((await link.getAttribute("href"))!, page.url()).href;
    await link.click();
    await page.waitForURL(target);
  }

  async function contextFor(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    return context;
  }

  async function signIn(context: BrowserContext, role: keyof typeof people, path = "/settings"): Promise<Page> {
    const page = await context.newPage();
    page.on("console", (entry) => {
      if (/Content Security Policy|Refused to/i.test(entry.text())) violations.push(entry.text());
    });
    page.on("pageerror", (error) => violations.push(String(error)));
    await page.goto(server.url + path);
    expect(new URL(page.url()).pathname).toBe("/settings/sign-in");
    await page.getByLabel("Email address").fill(people[role]);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname !== "/settings/sign-in");
    return page;
  }

  it("an owner signs in, creates a key seen once, uses it, and revokes it", async () => {
    const context = await contextFor();
    const anonymous = await context.newPage();
    await anonymous.goto(`${server.url}/settings/sign-in`);
    await look(anonymous, "sign-in");
    await anonymous.getByLabel("Email address").fill(people.owner);
    await anonymous.getByLabel("Password", { exact: true }).fill("not the password");
    await anonymous.getByRole("button", { name: "Sign in" }).click();
    await expect
      .poll(() => anonymous.getByRole("alert").textContent())
      .toContain("The email address or password is incorrect.");
    await look(anonymous, "sign-in-failed");
    await anonymous.close();

    const page = await signIn(context, "owner");
    expect(new URL(page.url()).pathname).toBe("/settings/w/acme/keys");
    await look(page, "keys");

    // Keyboard: the skip link comes first and shows its focus.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(`document.activeElement.className`)).toBe("skip-link");
    await screenshot(page, "console-keys-skip-link-focus");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(`document.activeElement.id`)).toBe("main");

    await page.getByLabel("Name", { exact: true }).fill("Browser key");
    await page.getByLabel("Expires after").selectOption("90d");
    await page.getByRole("button", { name: "Create key" }).click();
    const secretField = page.getByLabel("Secret key");
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^svc_live_[A-Za-z0-9]{46}$/);
    expect(await secretField.getAttribute("readonly")).not.toBeNull();
    const copy = page.getByRole("button", { name: "Copy" });
    await expect.poll(() => copy.isVisible()).toBe(true);
    await copy.click();
    await expect.poll(() => page.locator(".copy-status").textContent()).toBe("Copied to the clipboard.");
    expect(await page.evaluate(`navigator.clipboard.readText()`)).toBe(secret);
    await look(page, "key-created");

    // Shown once: the page fetched again (navigation, not a resubmission) does not have it.
    await page.goto(`${server.url}/settings/w/acme/keys`);
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByLabel("Secret key").count()).toBe(0);
    const row = page.getByRole("row", { name: /Browser key/ });
    expect(await row.textContent()).toContain(`${secret.slice(0, 13)}…${secret.slice(-4)}`);
    expect(await row.textContent()).toContain(people.owner);

    const use = await fetch(`${server.url}/v1/key`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(use.status).toBe(200);

    await follow(page, row.getByRole("link", { name: "Revoke key Browser key" }));
    await look(page, "key-revoke-confirm");
    await page.getByRole("button", { name: "Revoke key" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("The key was revoked.");
    expect(await page.getByRole("row", { name: /Browser key/ }).textContent()).toContain("revoked");
    await look(page, "key-revoked");
    const refused = await fetch(`${server.url}/v1/key`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);
    await context.close();
  });

  it("registers a webhook whose secret is shown once, and sends a test event the receiver gets", async () => {
    const context = await contextFor();
    const page = await signIn(context, "owner");
    await follow(page, page.getByRole("navigation", { name: /Workspace/ }).getByRole("link", { name: "Webhooks" }));
    await look(page, "webhooks");

    await page.getByLabel("Endpoint URL").fill(`${receiver.url}/hook`);
    await page.getByLabel("Description (optional)").fill("Local receiver");
    await page.getByRole("button", { name: "Register endpoint" }).click();
    const secret = await page.getByLabel("Signing secret", { exact: true }).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await look(page, "webhook-created");

    await follow(page, page.getByRole("link", { name: "Open the endpoint" }));
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("A test event was queued");
    const [delivery] = await receiver.waitFor("/hook", 1);
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: "webhook.test" });
    expect(delivery!.headers["webhook-signature"]).toMatch(/^v1,/);

    // The delivery log shows the attempt once the worker has recorded it.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator("article.delivery .status").first().textContent();
        },
        { timeout: 10_000 },
      )
      .toBe("succeeded");
    expect(await page.locator("article.delivery table").first().textContent()).toContain("200");
    await look(page, "webhook-endpoint");

    await page
      .getByRole("button", { name: /^Redeliver/ })
      .first()
      .click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("queued again");
    await receiver.waitFor("/hook", 2);

    await page.getByRole("button", { name: "Rotate signing secret" }).click();
    const rotated = await page.getByLabel("Signing secret", { exact: true }).inputValue();
    expect(rotated).not.toBe(secret);
    await look(page, "webhook-rotated");

    await follow(page, page.getByRole("link", { name: "Delete endpoint…" }));
    await look(page, "webhook-delete-confirm");
    await follow(page, page.getByRole("link", { name: "Cancel" }));
    await context.close();
  });

  it("reads the audit log with the requests and the actions, filtered and exported", async () => {
    const context = await contextFor();
    const page = await signIn(context, "owner", "/settings/w/acme/audit");
    expect(new URL(page.url()).pathname).toBe("/settings/w/acme/audit");
    const table = page.getByRole("table", { name: /Audit log entries/ });
    const text = (await table.textContent()) ?? "";
    expect(text).toContain("GET /v1/key");
    expect(text).toMatch(/Key Browser key/);
    for (const action of [
      "api_key.created",
      "api_key.revoked",
      "webhook_endpoint.created",
      "webhook_endpoint.tested",
      "webhook_delivery.redelivered",
      "webhook_endpoint.secret_rotated",
    ]) {
      expect(text).toContain(action);
    }
    expect(text).toContain(people.owner);
    await look(page, "audit");

    await page.getByLabel("Status", { exact: true }).fill("4xx");
    await page.getByLabel("Kind").selectOption("requests");
    await page.getByRole("button", { name: "Apply filters" }).click();
    const filtered = (await page.getByRole("table", { name: /Audit log entries/ }).textContent()) ?? "";
    expect(filtered).toContain("401");
    expect(filtered).not.toContain("api_key.created");
    await look(page, "audit-filtered");

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download these entries as CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-acme-.*\.csv$/);
    await context.close();
  });

  it("shows usage, connected apps (revocable) and members", async () => {
    // An application a member authorized, with a live token.
    await server.storage.db
      .insert(oauthClients)
      .values({ id: "pbc_browserTestClient", name: "Deploy Bot <beta>", redirectUris: ["https://bot.example/cb"] });
    const [member] = await server.storage.db.select().from(users).where(eq(users.email, people.member));
    await server.storage.db.insert(oauthGrants).values({
      id: "grt_browserTestGrant",
      clientId: "pbc_browserTestClient",
      workspaceId: workspace.id,
      userId: member!.id,
      scopes: ["projects:read", "deployments:read"],
    });
    await server.storage.db.insert(oauthTokens).values({
      tokenHash: createHash("sha256").update("browser-test-token").digest("hex"),
      grantId: "grt_browserTestGrant",
      kind: "access",
      scopes: ["projects:read", "deployments:read"],
      displayPrefix: "pbo_at_abcd",
      last4: "wxyz",
      expiresAt: new Date(Date.now() + 3_600_000),
    });

    const context = await contextFor();
    const page = await signIn(context, "owner", "/settings/w/acme/usage");
    expect(await page.getByRole("definition").first().textContent()).toBe("pro");
    await look(page, "usage");

    await page.goto(`${server.url}/settings/w/acme/apps`);
    const row = page.getByRole("row", { name: /Deploy Bot/ });
    expect(await row.textContent()).toContain("deployments:read, projects:read");
    expect(await row.textContent()).toContain(people.member);
    await look(page, "apps");
    await follow(page, row.getByRole("link", { name: /Disconnect/ }));
    await look(page, "apps-revoke-confirm");
    await page.getByRole("button", { name: "Disconnect app" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("The app was disconnected");
    expect(await page.getByRole("row", { name: /Deploy Bot/ }).count()).toBe(0);

    await page.goto(`${server.url}/settings/w/acme/members`);
    await look(page, "members");
    await page.getByLabel("Email address").fill("new.person@example.com");
    await page.getByLabel(/Admin:/).check();
    await page.getByLabel(/Initial password/).fill(PASSWORD);
    await page.getByRole("button", { name: "Add member" }).click();
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("The member was added.");
    await page.getByLabel(`Role of ${people.owner}`).selectOption("member");
    await page.getByRole("button", { name: `Change role of ${people.owner}` }).click();
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toContain("A workspace keeps at least one owner");
    await look(page, "members-last-owner");
    await context.close();
  });

  it("lets an admin create a key; a member sees the list without forms", async () => {
    const adminContext = await contextFor();
    const admin = await signIn(adminContext, "admin");
    await admin.getByLabel("Name", { exact: true }).fill("Admin key");
    await admin.getByLabel(/Test: sandbox/).check();
    await admin.getByLabel(/Full access/).uncheck();
    await admin.getByLabel(/projects:read/).check();
    await admin.getByRole("button", { name: "Create key" }).click();
    expect(await admin.getByLabel("Secret key").inputValue()).toMatch(/^svc_test_/);
    expect(await admin.getByRole("row", { name: /Admin key/ }).textContent()).toContain("projects:read");
    await look(admin, "keys-admin-created");
    await adminContext.close();

    const memberContext = await contextFor();
    const member = await signIn(memberContext, "member");
    expect(await member.getByRole("heading", { name: "Create a key" }).count()).toBe(0);
    expect(await member.getByRole("button").filter({ hasNotText: "Sign out" }).count()).toBe(0);
    expect(await member.getByRole("link", { name: /^Revoke/ }).count()).toBe(0);
    expect(await member.getByRole("row", { name: /Admin key/ }).count()).toBe(1);
    await look(member, "keys-member");
    await member.goto(`${server.url}/settings/w/acme/webhooks`);
    expect(await member.getByRole("heading", { name: "Register an endpoint" }).count()).toBe(0);
    await look(member, "webhooks-member");
    await memberContext.close();
  });

  it("without JavaScript the secret is still there to select, with no Copy button", async () => {
    const context = await contextFor({ javaScriptEnabled: false });
    const page = await signIn(context, "owner");
    await page.getByLabel("Name", { exact: true }).fill("No-JS key");
    await page.getByRole("button", { name: "Create key" }).click();
    expect(await page.getByLabel("Secret key").inputValue()).toMatch(/^svc_live_/);
    expect(await page.getByRole("button", { name: "Copy" }).count()).toBe(0);
    await look(page, "key-created-no-js");
    await context.close();
  });

  it("met no Content-Security-Policy violation or script error on any page", () => {
    expect(violations).toEqual([]);
  });
});
