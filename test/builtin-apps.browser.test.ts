// The built-in agent's apps, opened in Chromium as a user would: thirty prompts, each built into an
// app served under the apps' CSP. Each must load without a page error or a CSP violation, show the
// prompt's own nouns, and do its main job: add something, show it, keep it across a reload. Then ten
// follow-ups, each checked for the change its summary says it made, and an app with an attached image.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SchemaTemplate } from "../generated/schema.d.ts";
import { editProject, type BuiltinEdit } from "../src/agents/builtin/edit.ts";
import { CONTENT_SECURITY_POLICY } from "../src/apps/static.ts";
import { describeWithBrowser, launchBrowser } from "./support/browser.ts";

interface Case {
  readonly prompt: string;
  readonly name: string;
  readonly template?: SchemaTemplate;
  readonly archetype: string;
  /** Words of the prompt the page must show (case-insensitive). */
  readonly nouns: readonly string[];
  /** Values for the add form by field key; text fields not named get the marker. */
  readonly values?: Readonly<Record<string, string>>;
  /** What the page must show once the thing is added (default: the marker). */
  readonly shows?: string;
}

const MARKER = "Zebra 417";
// Read in the page (this project's types have no DOM).
const ACCENT = 'getComputedStyle(document.documentElement).getPropertyValue("--accent").trim()';

const CASES: readonly Case[] = [
  {
    prompt: "A recipe planner with ingredients, cooking time and a rating",
    name: "Recipe planner",
    archetype: "tracker",
    nouns: ["recipe", "ingredients", "cooking time", "rating"],
  },
  {
    prompt: "A reading list to track books I want to read, with author and genre",
    name: "Reading list",
    archetype: "tracker",
    nouns: ["book", "author", "genre"],
  },
  {
    prompt: "A todo list for my chores with a due date and priority",
    name: "Chores",
    archetype: "tracker",
    nouns: ["chore", "due date", "priority"],
  },
  {
    prompt: "Keep an inventory of my houseplants with watering notes",
    name: "Plant shelf",
    archetype: "tracker",
    nouns: ["houseplant"],
  },
  {
    prompt: "A shopping list for groceries with quantity and store",
    name: "Groceries",
    archetype: "tracker",
    nouns: ["quantity", "store"],
  },
  {
    prompt: "Track my monthly expenses with categories like food, rent and travel, and a budget of 2000",
    name: "Spending",
    archetype: "expenses",
    nouns: ["expense", "food", "rent", "travel", "budget"],
    values: { amount: "42.50" },
  },
  {
    prompt: "A budget app to split costs on a trip with friends",
    name: "Trip budget",
    archetype: "expenses",
    nouns: ["amount", "category"],
  },
  {
    prompt: "A habit tracker for drinking water, reading and stretching with streaks",
    name: "Daily habits",
    archetype: "habits",
    nouns: ["habit", "streak"],
  },
  {
    prompt: "Help me build a morning routine and keep a streak of check-ins",
    name: "Morning routine",
    archetype: "habits",
    nouns: ["routine", "streak"],
  },
  { prompt: "A notes app for meeting ideas with search", name: "Ideas", archetype: "notes", nouns: ["note", "search"] },
  {
    prompt: "A private journal to write a diary entry every evening",
    name: "Evening journal",
    archetype: "notes",
    nouns: ["journal"],
  },
  {
    prompt: "A pomodoro timer with 30 minute focus sessions",
    name: "Focus",
    archetype: "timer",
    nouns: ["30 minutes", "focus", "session"],
  },
  { prompt: "A countdown timer for my workouts", name: "Workout timer", archetype: "timer", nouns: ["workout"] },
  {
    prompt: "Flashcards to learn Spanish vocabulary",
    name: "Spanish",
    archetype: "flashcards",
    nouns: ["spanish", "question", "answer"],
  },
  {
    prompt: "A trivia quiz about world capitals",
    name: "Capitals quiz",
    archetype: "flashcards",
    nouns: ["capitals", "question"],
  },
  {
    prompt: "A kanban board for my team's sprint with columns Ideas, Doing and Shipped",
    name: "Sprint board",
    archetype: "kanban",
    nouns: ["ideas", "doing", "shipped"],
  },
  {
    prompt: "A Trello-like board to manage blog posts",
    name: "Blog pipeline",
    archetype: "kanban",
    nouns: ["post", "to do", "done"],
  },
  {
    prompt: "A unit converter for kilometres and miles",
    name: "Distance converter",
    archetype: "calculator",
    nouns: ["km", "mi", "length"],
    values: { value: "42" },
    shows: "42 km",
  },
  {
    prompt: "Convert cooking temperatures between celsius and fahrenheit",
    name: "Oven temperatures",
    archetype: "calculator",
    nouns: ["temperature", "celsius", "°c", "°f"],
    values: { value: "180" },
    shows: "180 °C = 356 °F",
  },
  {
    prompt: "A simple calculator for quick arithmetic",
    name: "Calc",
    archetype: "calculator",
    nouns: ["calculation"],
    values: { expression: "6 * (3 + 4)" },
    shows: "6 * (3 + 4) = 42",
  },
  {
    prompt: "A calendar of upcoming events for our book club",
    name: "Book club",
    archetype: "calendar",
    nouns: ["event", "book club"],
    values: { date: "2026-12-03" },
  },
  {
    prompt: "Schedule appointments for my dog grooming business",
    name: "Grooming",
    archetype: "calendar",
    nouns: ["appointment"],
    values: { date: "2026-12-04" },
  },
  {
    prompt: "A dashboard of sales, signups and churn",
    name: "Sales dashboard",
    archetype: "dashboard",
    nouns: ["sales", "signups", "churn"],
    values: { value: "4170" },
    shows: "4,170",
  },
  {
    prompt: "Charts of my running distance and weight",
    name: "Fitness stats",
    template: "dashboard",
    archetype: "dashboard",
    nouns: ["running", "distance", "weight"],
    values: { value: "12" },
    shows: "12",
  },
  {
    prompt: "A customer feedback survey with name, email, rating and comments",
    name: "Feedback",
    archetype: "survey",
    nouns: ["rating", "comments", "results"],
    values: { rating: "5", email: "zebra@example.com" },
  },
  {
    prompt: "An RSVP form for our wedding with the number of guests",
    name: "Our wedding",
    archetype: "survey",
    nouns: ["rsvp", "attending"],
  },
  {
    prompt: "A landing page for a bakery with pricing and testimonials",
    name: "Crumb & Co",
    template: "landing-page",
    archetype: "landing",
    nouns: ["bakery", "pricing", "testimonials"],
    values: { email: "zebra417@example.com" },
    shows: "zebra417@example.com",
  },
  {
    prompt: "A waitlist page for my new productivity app launch",
    name: "Launchpad",
    archetype: "landing",
    nouns: ["productivity", "sign up"],
    values: { email: "zebra417@example.com" },
    shows: "zebra417@example.com",
  },
  {
    prompt: "A REST API for managing recipes",
    name: "Recipes API",
    template: "api-service",
    archetype: "api",
    nouns: ["recipes", "post /recipes"],
  },
  {
    prompt: "Backend endpoints for a library of movies",
    name: "Movies",
    template: "api-service",
    archetype: "api",
    nouns: ["movie", "endpoints"],
  },
];

interface FollowUp {
  /** The name of the case whose app is followed up. */
  readonly of: string;
  readonly prompt: string;
  /** What the summary must say it did. */
  readonly says: RegExp;
  check(page: Page): Promise<void>;
}

const FOLLOW_UPS: readonly FollowUp[] = [
  {
    of: "Daily habits",
    prompt: "Switch to dark mode and add a 7-day streak chart",
    says: /switched to the dark theme; added a chart/,
    async check(page) {
      expect(await page.evaluate<string>("getComputedStyle(document.body).backgroundColor")).toBe("rgb(15, 23, 42)");
      expect(await page.locator("#chart").innerText()).toBe("Nothing to chart yet.");
      await addRecord(page, { name: "Stretch" });
      await page.locator(".days .day").last().click();
      await expect.poll(() => page.locator("#chart svg[role=img]").count()).toBe(1);
      await expect.poll(() => page.locator(".streak").innerText()).toBe("1-day streak");
      expect(await page.locator("#chart svg").getAttribute("aria-label")).toMatch(/^Check-ins per day, last 7 days: /);
    },
  },
  {
    of: "Recipe planner",
    prompt: "Add search",
    says: /added a search box over the recipes/,
    async check(page) {
      await addRecord(page, { name: "Pancakes" });
      await addRecord(page, { name: "Lasagne" });
      await page.getByLabel("Search recipes").fill("lasa");
      await expect.poll(() => page.locator("#records").innerText()).toContain("Lasagne");
      expect(await page.locator("#records").innerText()).not.toContain("Pancakes");
    },
  },
  {
    of: "Chores",
    prompt: "Add a field for the assignee",
    says: /added a Assignee field/,
    async check(page) {
      await expect.poll(() => page.getByLabel("Assignee").count()).toBe(1);
      await addRecord(page, { name: "Dishes", assignee: "Sam" });
      expect(await page.locator("#records").innerText()).toContain("Assignee: Sam");
    },
  },
  {
    of: "Spending",
    prompt: "Make the accent green",
    says: /made the accent colour green/,
    async check(page) {
      expect(await page.evaluate<string>(ACCENT)).toBe("#16a34a");
    },
  },
  {
    of: "Groceries",
    prompt: "Rename it to Weekly shop",
    says: /renamed the app to "Weekly shop"/,
    async check(page) {
      expect(await page.locator("h1").innerText()).toBe("Weekly shop");
      expect(await page.title()).toBe("Weekly shop");
    },
  },
  {
    of: "Crumb & Co",
    prompt: "Remove the pricing section and add an about section",
    says: /removed the Pricing section; added a About section/,
    async check(page) {
      expect(await page.locator("#pricing").count()).toBe(0);
      expect(await page.locator("#about h2").innerText()).toBe("About");
    },
  },
  {
    of: "Spending",
    prompt: "Sort by amount",
    says: /sorted the expenses by Amount/,
    async check(page) {
      await addRecord(page, { description: "Small", amount: "3" });
      await addRecord(page, { description: "Large", amount: "300" });
      const text = await page.locator("#records").innerText();
      expect(text.indexOf("Large")).toBeLessThan(text.indexOf("Small"));
    },
  },
  {
    of: "Reading list",
    prompt: "Add a chart of books by genre",
    says: /added a chart/,
    async check(page) {
      await addRecord(page, { name: "Dune", genre: "Fiction" });
      await expect
        .poll(() => page.locator("#chart svg").getAttribute("aria-label"))
        .toMatch(/^Books by genre: Fiction 1/);
    },
  },
  {
    of: "Focus",
    prompt: "Use a light theme with a purple accent",
    says: /switched to the light theme and made the accent colour purple/,
    async check(page) {
      expect(await page.evaluate<string>(ACCENT)).toBe("#7c3aed");
    },
  },
  {
    of: "Distance converter",
    prompt: "Add a login page with Google sign-in",
    says: /^Changed nothing in "Distance converter"\. Could not: "Add a login page with Google sign-in"/,
    async check(page) {
      expect(await page.locator("h1").innerText()).toBe("Distance converter");
    },
  },
];

let server: Server;
let origin: string;
let browser: Browser;
const sites = new Map<string, Map<string, string>>();

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  json: "application/json",
  svg: "image/svg+xml",
};

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/favicon.ico") {
      response.writeHead(204).end();
      return;
    }
    const [, site, file = ""] = /^\/([^/]+)\/(.*)$/.exec(request.url ?? "") ?? [];
    const text = sites.get(site ?? "")?.get(file || "index.html");
    if (text === undefined) {
      response.writeHead(404).end();
      return;
    }
    const extension = (file || "index.html").split(".").pop()!;
    response.writeHead(200, { "Content-Type": TYPES[extension]!, "Content-Security-Policy": CONTENT_SECURITY_POLICY });
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console: ${message.text()}`);
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

function publish(site: string, edit: BuiltinEdit, previous = new Map<string, string>()): Map<string, string> {
  const files = new Map(previous);
  for (const [path, text] of edit.writes) files.set(path, text);
  sites.set(site, files);
  return files;
}

/**
 * The page every case opens its app in: a new page costs a renderer process (half a second here),
 * and the apps' storage keys differ by title, so one page serves them all. `problems` collects
 * page errors, console errors and CSP violations since the last case began.
 */
let page: Page;
let problems: string[] = [];

async function open(site: string, options: { fresh?: boolean } = {}): Promise<Page> {
  problems = [];
  await page.goto(`${origin}/${site}/`);
  if (options.fresh) {
    await page.evaluate("localStorage.clear()");
    await page.reload();
  }
  return page;
}

const FALLBACKS: Record<string, string> = {
  number: "7",
  money: "7",
  date: "2026-11-27",
  time: "18:30",
  email: "zebra@example.com",
  url: "https://example.com",
  tel: "555 0100",
};

/** Fills #add-form (named fields from `values`, other text fields the marker) and submits it. */
async function addRecord(page: Page, values: Readonly<Record<string, string>> = {}): Promise<void> {
  // The app's spec names its fields and their types: one round trip a field, none to look.
  const spec = (await (await page.request.get(new URL("app.json", page.url()).href)).json()) as {
    fields: { key: string; type: string }[];
  };
  for (const field of spec.fields) {
    const control = page.locator(`#add-form [name="${field.key}"]`);
    if (field.type === "select") {
      if (values[field.key]) await control.selectOption({ label: values[field.key]! });
    } else await control.fill(values[field.key] ?? FALLBACKS[field.type] ?? MARKER);
  }
  await page.locator('#add-form button[type="submit"]').click();
}

const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function build(entry: Case): BuiltinEdit {
  return editProject({
    agent: "coding-agent-1",
    prompt: entry.prompt,
    project: { name: entry.name, template: entry.template ?? "web-app" },
    initial: true,
    files: {},
  });
}

describeWithBrowser("the built-in agent's apps in Chromium", () => {
  it("has at least 30 prompts over at least 12 archetypes, and 10 follow-ups", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(CASES.map((entry) => entry.archetype)).size).toBeGreaterThanOrEqual(12);
    expect(FOLLOW_UPS.length).toBeGreaterThanOrEqual(10);
  });

  it.each(CASES)("builds a working app for “$prompt”", async (entry) => {
    const edit = build(entry);
    const spec = JSON.parse(edit.writes.find(([path]) => path === "app.json")![1]) as { archetype: string };
    expect(spec.archetype).toBe(entry.archetype);
    const site = slugOf(entry.name);
    publish(site, edit);

    await open(site);
    expect(await page.locator("h1").innerText()).toBe(entry.name);
    const text = (await page.locator("body").innerText()).toLowerCase();
    for (const noun of entry.nouns) expect(text, `the page shows "${noun}"`).toContain(noun.toLowerCase());
    // The page is not an echo: the prompt is at most its tagline.
    expect(text.split(entry.prompt.toLowerCase()).length - 1).toBeLessThanOrEqual(1);

    const shows = entry.shows ?? MARKER;
    await addRecord(page, entry.values);
    await expect.poll(() => page.locator("main").innerText()).toContain(shows);
    await page.reload();
    await expect.poll(() => page.locator("main").innerText()).toContain(shows);
    expect(problems).toEqual([]);
  });

  it("makes each archetype's own controls work: complete, move, flip, time, total", async () => {
    const opened = async (name: string) => {
      const entry = CASES.find((candidate) => candidate.name === name)!;
      const site = `${slugOf(name)}-controls`;
      publish(site, build(entry));
      return open(site, { fresh: true });
    };

    await opened("Chores");
    await addRecord(page, { name: "Dishes" });
    await page.getByLabel("Done: Dishes").check();
    await page.reload();
    expect(await page.locator("#progress").innerText()).toBe("1 of 1 done");
    expect(await page.getByLabel("Done: Dishes").isChecked()).toBe(true);

    await opened("Sprint board");
    await addRecord(page, { title: "Write docs" });
    await page.getByLabel("Move Write docs to Doing").click();
    await page.reload();
    expect(await page.locator('ul[data-column="1"]').innerText()).toContain("Write docs");
    expect(await page.locator("#column-count-1").innerText()).toBe("(1)");

    await opened("Spanish");
    await addRecord(page, { question: "perro", answer: "dog" });
    expect(await page.locator("#card-front").innerText()).toBe("perro");
    expect(await page.locator("#card-back").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Show answer" }).click();
    expect(await page.locator("#card-back").innerText()).toBe("dog");
    await page.getByRole("button", { name: "I knew it" }).click();
    expect(await page.locator("#score").innerText()).toBe("Score: 1 of 1");

    await opened("Focus");
    expect(await page.locator("#clock").innerText()).toBe("30:00");
    await page.getByRole("button", { name: "Start" }).click();
    await expect.poll(() => page.locator("#clock").innerText()).toBe("29:59");
    await page.getByRole("button", { name: "Pause" }).click();
    await page.reload();
    expect(await page.locator("#clock").innerText()).toMatch(/^29:5\d$/);

    await opened("Spending");
    await addRecord(page, { description: "Rent", amount: "1500", category: "Rent" });
    expect(await page.locator("#budget-left").innerText()).toBe("$500.00");
    expect(await page.locator("#chart svg").getAttribute("aria-label")).toBe(
      "Amount by category: Food $0.00, Rent $1,500.00, Travel $0.00",
    );
    expect(problems).toEqual([]);
  });

  it("shows an attached image below the title, loaded under the apps' CSP", async () => {
    const edit = editProject({
      agent: "coding-agent-1",
      prompt: "Track the books I read",
      project: { name: "Shelf", template: "web-app" },
      initial: true,
      files: {},
      attachments: [{ path: "images/shelf-photo.svg", contentType: "image/svg+xml" }],
    });
    const files = publish("shelf-with-image", edit);
    files.set(
      "images/shelf-photo.svg",
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="teal"/></svg>',
    );
    await open("shelf-with-image");
    const image = page.locator("header figure img");
    expect(await image.getAttribute("alt")).toBe("Shelf photo");
    await expect.poll(() => page.evaluate('document.querySelector("header figure img").naturalWidth')).toBe(40);
    expect(problems).toEqual([]);
  });

  it.each(FOLLOW_UPS)("follows up “$of” with “$prompt”", async (followUp) => {
    const entry = CASES.find((candidate) => candidate.name === followUp.of)!;
    const first = build(entry);
    const site = `${slugOf(entry.name)}-then-${slugOf(followUp.prompt)}`;
    const files = publish(site, first);
    const next = editProject({
      agent: "coding-agent-1",
      prompt: followUp.prompt,
      project: { name: entry.name, template: entry.template ?? "web-app" },
      initial: false,
      files: Object.fromEntries(files),
    });
    expect(next.summary).toMatch(followUp.says);
    publish(site, next, files);

    await open(site, { fresh: true });
    await followUp.check(page);
    expect(problems).toEqual([]);
  });
});
