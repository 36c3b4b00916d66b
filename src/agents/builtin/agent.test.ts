import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import type { SchemaAgent, SchemaTemplate } from "../../../generated/schema.d.ts";
import { expectLinear } from "../../../test/support/growth.ts";
import { AgentError, type AgentAttachment, type AgentInput, type UsageMeter } from "../agent.ts";
import { WorkingTree, type StoredFile } from "../working-tree.ts";
import { builtinAgent } from "./agent.ts";
import { ARCHETYPES, scoreArchetypes } from "./catalogue.ts";
import { editProject, type BuiltinRequest } from "./edit.ts";
import { readPrompt } from "./prompt.ts";

const TEMPLATES: SchemaTemplate[] = ["blank", "landing-page", "dashboard", "web-app", "api-service"];

function treeOf(files: Record<string, string> = {}): WorkingTree {
  return new WorkingTree(
    Object.entries(files).map(([path, text]): StoredFile => {
      const bytes = new TextEncoder().encode(text);
      return {
        path,
        sizeBytes: bytes.length,
        contentType: "text/plain",
        sha256: "0".repeat(64),
        read: async () => bytes,
      };
    }),
  );
}

function meter(): UsageMeter {
  let tokens = 0;
  return {
    addTokens: (n) => void (tokens += n),
    get tokens() {
      return tokens;
    },
  };
}

function input(overrides: Partial<AgentInput> & { template?: SchemaTemplate; name?: string } = {}): AgentInput {
  const { template = "landing-page", name = "Dinner Planner", ...rest } = overrides;
  return {
    agent: "coding-agent-1",
    prompt: "A web app that plans a week of dinners from what is in my fridge.",
    project: { id: "prj_test", name, template },
    initial: true,
    files: treeOf(),
    attachments: [],
    signal: new AbortController().signal,
    meter: meter(),
    ...rest,
  };
}

/** Runs the agent and returns every file of the tree afterwards as text. */
async function build(agentInput: AgentInput): Promise<{ summary: string; files: Record<string, string> }> {
  const { summary } = await builtinAgent.run(agentInput);
  const files: Record<string, string> = {};
  for (const path of agentInput.files.list()) files[path] = (await agentInput.files.readText(path))!;
  return { summary, files };
}

/** The spec a run wrote, parsed. */
function specOf(files: Record<string, string>): Record<string, unknown> & { archetype: string } {
  return JSON.parse(files["app.json"]!) as Record<string, unknown> & { archetype: string };
}

describe("builtin agent, first run", () => {
  it("writes an app, its script, style and spec, and says what it built and that it is offline", async () => {
    const tree = treeOf();
    const { summary, files } = await build(input({ files: tree, template: "web-app" }));
    expect(builtinAgent.kind).toBe("builtin");
    expect(tree.changes().writes.map((write) => [write.path, write.contentType])).toEqual([
      ["app.js", "text/javascript"],
      ["app.json", "application/json"],
      ["index.html", "text/html"],
      ["style.css", "text/css"],
    ]);
    // A week of dinners: a calendar.
    expect(summary).toMatch(/^Built a calendar, "Dinner Planner": add dinners with a date, time and place, /);
    expect(summary).toContain("The built-in agent is an offline stand-in; set AGENT_BASE_URL to build with a model.");
    for (const text of Object.values(files)) expect(new TextEncoder().encode(text).length).toBeLessThan(32 * 1024);
  });

  it("writes the same bytes for the same input", async () => {
    for (const template of TEMPLATES) {
      const first = treeOf();
      const second = treeOf();
      await builtinAgent.run(input({ template, files: first }));
      await builtinAgent.run(input({ template, files: second }));
      expect(second.changes()).toEqual(first.changes());
    }
  });

  it("shows the name and the prompt's first sentence, escaped, and keeps the spec out of the page", async () => {
    const { files, summary } = await build(
      input({ name: `Tom & Jerry's <App>`, prompt: `<script>alert("x")</script> track cheese. And more.` }),
    );
    const html = files["index.html"]!;
    expect(html).toContain("<title>Tom &amp; Jerry&#39;s &lt;App&gt;</title>");
    expect(html).toContain("<h1>Tom &amp; Jerry&#39;s &lt;App&gt;</h1>");
    expect(html).toContain(`<p class="lead">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; track cheese.</p>`);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("And more.");
    expect(summary).toContain(`"Tom & Jerry's <App>"`);
    // In app.js the name is a JSON string: data, never markup or code.
    expect(files["app.js"]).toContain(`"title":"Tom & Jerry's <App>"`);
  });

  it.each(ARCHETYPES.map((archetype) => archetype.id))(
    "builds a valid %s page that references only its own files, with nothing inline",
    async (id) => {
      const prompt = PROMPTS[id]!;
      const { files } = await build(input({ prompt, template: "web-app" }));
      expect(specOf(files).archetype).toBe(id);
      const html = files["index.html"]!;
      expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
      expect(html.trimEnd().endsWith("</html>")).toBe(true);
      expect(html).toContain('<link rel="stylesheet" href="style.css">');
      expect(html).toContain('<script src="app.js" defer></script>');
      const references = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
      for (const reference of references) {
        if (!reference.startsWith("#")) expect(Object.keys(files)).toContain(reference);
      }
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/);
      expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      // Every control has a label.
      for (const [, id] of html.matchAll(/<(?:input|select|textarea) id="([^"]+)"/g))
        expect(html).toContain(`for="${id}"`);
      expect(() => new Script(files["app.js"]!)).not.toThrow();
    },
  );

  it("styles each agent value its own way", async () => {
    const styles = await Promise.all(
      (["coding-agent-1", "coding-agent-2", "coding-agent-3"] as SchemaAgent[]).map(
        async (agent) => (await build(input({ agent }))).files["style.css"]!,
      ),
    );
    expect(styles[0]).toContain("--accent: #2563eb;");
    expect(styles[1]).toContain("--accent: #047857;");
    expect(styles[2]).toContain("--accent: #7c3aed;");
  });

  it("builds from scratch when the tree has no index.html even on a follow-up", async () => {
    const tree = treeOf({ "notes.txt": "mine" });
    const { summary, files } = await build(input({ initial: false, files: tree }));
    expect(summary).toMatch(/^Built /);
    expect(files["notes.txt"]).toBe("mine");
    expect(files["index.html"]).toContain("<h1>Dinner Planner</h1>");
  });

  it("throws the signal's reason when aborted and reports no tokens", async () => {
    const controller = new AbortController();
    const reason = new Error("canceled by test");
    controller.abort(reason);
    const tree = treeOf();
    await expect(builtinAgent.run(input({ files: tree, signal: controller.signal }))).rejects.toBe(reason);
    expect(tree.list()).toEqual([]);

    const usage = meter();
    await builtinAgent.run(input({ meter: usage }));
    expect(usage.tokens).toBe(0);
  });
});

// One prompt per archetype: the scorer's reading of each, and the pages the test above checks.
const PROMPTS: Record<string, string> = {
  tracker: "A reading list to track books, with author and genre",
  expenses: "Track my expenses with categories like food, rent and travel",
  habits: "A habit tracker with daily streaks",
  notes: "A notes app for my ideas",
  timer: "A pomodoro timer with 50-minute sessions",
  flashcards: "Flashcards to study French vocabulary",
  kanban: "A kanban board with columns Ideas, Doing and Shipped",
  calculator: "A unit converter for weights in kg and pounds",
  calendar: "A calendar of appointments",
  dashboard: "A dashboard of sales and signups",
  survey: "A feedback survey with name, rating and comments",
  landing: "A landing page for my bakery with pricing",
  api: "A REST API with endpoints for recipes",
};

describe("builtin agent, its catalogue", () => {
  it("has at least 12 archetypes, each chosen for its prompt, with the words that counted", () => {
    expect(ARCHETYPES.length).toBeGreaterThanOrEqual(12);
    for (const archetype of ARCHETYPES) {
      const [best, next] = scoreArchetypes(PROMPTS[archetype.id]!, "web-app");
      expect(best!.id, PROMPTS[archetype.id]).toBe(archetype.id);
      expect(best!.score).toBeGreaterThan(next!.score);
    }
    expect(scoreArchetypes("A habit tracker with daily streaks", "web-app")[0]).toEqual({
      id: "habits",
      // "daily streaks" is a list of fields: each word counts half.
      score: 5 + 2 / 2 + 5 / 2,
      words: ["habit", "daily", "streaks"],
    });
  });

  it("leans towards the project's template, and falls back on the tracker", () => {
    expect(scoreArchetypes("Something nice for my team", "landing-page")[0]!.id).toBe("landing");
    expect(scoreArchetypes("Something nice for my team", "dashboard")[0]!.id).toBe("dashboard");
    expect(scoreArchetypes("Something nice for my team", "api-service")[0]!.id).toBe("api");
    expect(scoreArchetypes("Something nice for my team", "web-app")[0]!.id).toBe("tracker");
    expect(scoreArchetypes("Something nice for my team", "blank")[0]!.id).toBe("tracker");
    // A prompt that clearly asks for another kind of app wins over the template.
    expect(scoreArchetypes("A kanban board for our sprint backlog", "landing-page")[0]!.id).toBe("kanban");
  });

  it("counts a word in a list of fields for half: plants with notes are not a notes app", () => {
    expect(scoreArchetypes("An inventory of my houseplants with watering notes", "web-app")[0]!.id).toBe("tracker");
    expect(scoreArchetypes("Notes about my houseplants", "web-app")[0]!.id).toBe("notes");
  });

  it("reads the thing held, the fields and their types, the choices and the numbers from the prompt", () => {
    const recipes = readPrompt("A recipe planner with ingredients, cooking time, a due date and a rating");
    expect(recipes.noun).toEqual({ one: "recipe", many: "recipes" });
    expect(recipes.fields.map((field) => [field.label, field.type])).toEqual([
      ["Ingredients", "textarea"],
      ["Cooking time", "number"],
      ["Due date", "date"],
      ["Rating", "number"],
    ]);
    expect(readPrompt("Track books I want to read").noun).toEqual({ one: "book", many: "books" });
    expect(readPrompt("A reading list").noun).toEqual({ one: "book", many: "books" });
    expect(readPrompt("An API for managing categories").noun).toEqual({ one: "category", many: "categories" });
    const spending = readPrompt("Expenses with categories like food, rent and travel, and a note");
    expect(spending.fields).toEqual([
      { key: "category", label: "Category", type: "select", options: ["Food", "Rent", "Travel"] },
      { key: "note", label: "Note", type: "textarea" },
    ]);
    expect(readPrompt("A kanban board. Columns: backlog, doing, done").fields[0]).toMatchObject({
      key: "column",
      options: ["Backlog", "Doing", "Done"],
    });
    expect(readPrompt("A pomodoro timer with 45-minute sessions").numbers.get("minute")).toBe(45);
    // "with 45-minute sessions" is a quantity, not a field.
    expect(readPrompt("A pomodoro timer with 45-minute sessions").fields).toEqual([]);
  });
});

describe("builtin agent, follow-up runs on its own apps", () => {
  async function initialTree(
    prompt = PROMPTS.tracker!,
  ): Promise<{ tree: WorkingTree; original: Record<string, string> }> {
    const first = treeOf();
    await builtinAgent.run(input({ template: "web-app", files: first, prompt, name: "Books" }));
    const original: Record<string, string> = {};
    for (const path of first.list()) original[path] = (await first.readText(path))!;
    // A new tree from the stored files, as the next run would see them.
    return { tree: treeOf(original), original };
  }
  const followUp = (tree: WorkingTree, prompt: string) =>
    builtinAgent.run(input({ template: "web-app", initial: false, files: tree, prompt, name: "Books" }));

  it("carries out each request it knows, renders the app again and writes only what changed", async () => {
    const { tree, original } = await initialTree();
    const { summary } = await followUp(tree, "Switch to dark mode and add a chart, then add a priority field");
    expect(summary).toBe(
      'Updated "Books": switched to the dark theme; added a chart; added a Priority field (a choice of Low, Medium, High).',
    );
    const spec = JSON.parse((await tree.readText("app.json"))!) as { theme: unknown; features: { chart: boolean } };
    expect(spec.theme).toEqual({ scheme: "dark", accent: null });
    expect(spec.features.chart).toBe(true);
    const html = (await tree.readText("index.html"))!;
    expect(html).toContain('<div id="chart" class="chart-box"></div>');
    expect(html).toContain('<label for="field-priority">Priority</label>');
    expect(await tree.readText("style.css")).toContain("color-scheme: dark;");
    expect(
      tree
        .changes()
        .writes.map((write) => write.path)
        .sort(),
    ).toEqual(["app.js", "app.json", "index.html", "style.css"]);

    const again = await followUp(tree, "Rename books to novels and sort by author");
    expect(again.summary).toBe('Updated "Books": renamed books to novels; sorted the novels by Author.');
    expect(await tree.readText("index.html")).toContain("Your novels");
    expect(original["index.html"]).toContain("Your books");
  });

  it("says plainly what it could not do, and changes nothing when it can do nothing", async () => {
    const { tree } = await initialTree();
    const partly = await followUp(tree, "Add search and connect it to Stripe");
    expect(partly.summary).toBe(
      'Updated "Books": added a search box over the books. Could not: "connect it to Stripe" (not a change the built-in agent knows).',
    );
    const { tree: other } = await initialTree();
    const nothing = await followUp(other, "Add user accounts");
    expect(nothing.summary).toMatch(
      /^Changed nothing in "Books"\. Could not: "Add user accounts" \(not a change the built-in agent knows\)\. The built-in agent understands: /,
    );
    expect(other.changes().writes).toEqual([]);
    const converter = await initialTree(PROMPTS.calculator);
    const refused = await followUp(converter.tree, "Add a chart");
    expect(refused.summary).toContain('Could not: "Add a chart" (a converter has no chart)');
  });

  it("is deterministic for the same files and prompt", async () => {
    const a = (await initialTree()).tree;
    const b = (await initialTree()).tree;
    await followUp(a, "Make it dark and purple");
    await followUp(b, "Make it dark and purple");
    expect(b.changes()).toEqual(a.changes());
  });

  it("edits a page changed by hand as a page, keeping the change", async () => {
    const { tree, original } = await initialTree();
    tree.write("index.html", original["index.html"]!.replace("<h1>Books</h1>", "<h1>My own heading</h1>"));
    const { summary } = await followUp(tree, "Add a chart");
    expect(summary).toMatch(
      /^Updated index\.html \(index\.html, style\.css or app\.js changed since the agent built them/,
    );
    const html = (await tree.readText("index.html"))!;
    expect(html).toContain("<h1>My own heading</h1>");
    expect(html).toContain("<li>Add a chart</li>");
  });
});

describe("builtin agent, attachments", () => {
  /** Files of the tree attached to the run, with their media types. */
  const attach = (tree: WorkingTree, types: Record<string, string>): AgentAttachment[] =>
    Object.entries(types).map(([path, contentType]) => ({
      path,
      contentType,
      sizeBytes: 4,
      read: async () => (await tree.read(path))!,
    }));
  const stored = { "images/team-photo_2.png": "\x89PNG", "notes.md": "# Notes", "data.zip": "PK" };

  it("shows an attached image below the title, keeps it in app.json and names the text files it read", async () => {
    const tree = treeOf(stored);
    const attachments = attach(tree, { "images/team-photo_2.png": "image/png", "notes.md": "text/markdown" });
    const { summary, files } = await build(input({ files: tree, template: "web-app", attachments }));
    expect(files["index.html"]).toContain(
      '<p class="lead">A web app that plans a week of dinners from what is in my fridge.</p>\n' +
        '<figure class="app-figure"><img src="images/team-photo_2.png" alt="Team photo 2"></figure>\n</header>',
    );
    // Nothing inline: the figure is styled by style.css.
    expect(files["index.html"]).not.toMatch(/\sstyle=/);
    expect(files["style.css"]).toContain(".app-figure img {");
    expect(specOf(files).images).toEqual([{ path: "images/team-photo_2.png", alt: "Team photo 2" }]);
    expect(summary).toContain("Placed images/team-photo_2.png below the title.");
    expect(summary).toContain("Read notes.md; the built-in agent takes its requests from the prompt alone.");
    // The same run again writes the same bytes; a run without images has no figure and no figure
    // style.
    expect((await build(input({ files: treeOf(stored), template: "web-app", attachments }))).files).toEqual(files);
    const plain = await build(input({ files: treeOf(stored), template: "web-app" }));
    expect(plain.files["index.html"]).not.toContain("<figure");
    expect(plain.files["style.css"]).not.toContain(".app-figure");
    expect(specOf(plain.files)).not.toHaveProperty("images");
  });

  it("places an image a follow-up attaches, and later renders keep it", async () => {
    const first = treeOf(stored);
    await builtinAgent.run(
      input({ files: first, template: "web-app", prompt: "Track my books with author", name: "Books" }),
    );
    const texts: Record<string, string> = {};
    for (const path of first.list()) texts[path] = (await first.readText(path))!;
    const tree = treeOf(texts);
    const followUp = (prompt: string, attachments: AgentAttachment[] = []) =>
      builtinAgent.run(input({ template: "web-app", initial: false, files: tree, prompt, name: "Books", attachments }));

    const placed = await followUp(
      "Put this photo in the header and add search",
      attach(tree, { "images/team-photo_2.png": "application/octet-stream", "data.zip": "application/zip" }),
    );
    expect(placed.summary).toBe(
      'Updated "Books": added a search box over the books; placed images/team-photo_2.png below the title. ' +
        "Left data.zip aside: neither an image nor text.",
    );
    const figure = '<img src="images/team-photo_2.png" alt="Team photo 2">';
    expect(await tree.readText("index.html")).toContain(figure);
    const dark = await followUp("Switch to dark mode");
    expect(dark.summary).toBe('Updated "Books": switched to the dark theme.');
    expect(await tree.readText("index.html")).toContain(figure);
    expect(JSON.parse((await tree.readText("app.json"))!)).toMatchObject({
      images: [{ path: "images/team-photo_2.png", alt: "Team photo 2" }],
    });
    // Attached again: already shown, so nothing to do.
    const again = await followUp("Use this image", attach(tree, { "images/team-photo_2.png": "image/png" }));
    expect(again.summary).toMatch(/^Changed nothing in "Books"\. The built-in agent understands: /);
  });

  it("says it did not place an image on a page it did not render", async () => {
    const tree = treeOf({ ...stored, "index.html": "<!doctype html><title>Mine</title><h1>Mine</h1>" });
    const { summary } = await builtinAgent.run(
      input({
        initial: false,
        files: tree,
        prompt: "Add a chart",
        attachments: attach(tree, { "images/team-photo_2.png": "image/png" }),
      }),
    );
    expect(summary).toContain(
      'Did not place images/team-photo_2.png: the agent places images only in apps it renders itself; link it with <img src="…">.',
    );
    expect(await tree.readText("index.html")).not.toContain("<img");
  });
});

describe("builtin agent, follow-up runs on other pages", () => {
  it("adds its markers to a user's index.html that lacks them, keeping the user's content", async () => {
    const tree = treeOf({
      "index.html": "<html><head><title>Mine</title></head><body><h1>Mine</h1></body></html>",
      "data.json": "{}",
    });
    await builtinAgent.run(input({ initial: false, files: tree, prompt: "Add a footer" }));
    const html = (await tree.readText("index.html"))!;
    expect(html).toBe(
      "<html><head><title>Mine</title></head><body>" +
        '<p id="latest-change" class="latest-change" role="status">Latest change: Add a footer</p>\n' +
        "<h1>Mine</h1>" +
        '<section id="changes">\n<h2>Changes</h2>\n<ol>\n<li>Add a footer</li>\n</ol>\n</section>\n' +
        "</body></html>",
    );
    expect(tree.changes().deletes).toEqual([]);
    expect(tree.list()).toEqual(["data.json", "index.html"]);
  });

  it("appends to a fragment without a body and reuses a user's own changes section", async () => {
    const fragment = treeOf({ "index.html": "<h1>Just a fragment</h1>" });
    await builtinAgent.run(input({ initial: false, files: fragment, prompt: "One" }));
    expect(await fragment.readText("index.html")).toBe(
      '<h1>Just a fragment</h1>\n<p id="latest-change" class="latest-change" role="status">Latest change: One</p>\n' +
        '<section id="changes">\n<h2>Changes</h2>\n<ol>\n<li>One</li>\n</ol>\n</section>\n',
    );

    const own = treeOf({
      "index.html": `<body><div id='latest-change'>old</div><section class="log" id="changes"><h2>Log</h2></section></body>`,
    });
    await builtinAgent.run(input({ initial: false, files: own, prompt: "Two" }));
    expect(await own.readText("index.html")).toBe(
      `<body><div id='latest-change'>Latest change: Two</div><section class="log" id="changes"><h2>Log</h2><ol>\n<li>Two</li>\n</ol>\n</section></body>`,
    );
  });

  it("finds its markers by their tags, never in comments or a script's text", async () => {
    const tree = treeOf({
      "index.html": `<body><!-- <p id="latest-change"> --><script src="a.js">"<section id='changes'>"</script><main><p>hi</p></main><!-- </main> --></body>`,
    });
    await builtinAgent.run(input({ initial: false, files: tree, prompt: "X" }));
    expect(await tree.readText("index.html")).toBe(
      '<body><p id="latest-change" class="latest-change" role="status">Latest change: X</p>\n' +
        `<!-- <p id="latest-change"> --><script src="a.js">"<section id='changes'>"</script><main><p>hi</p>` +
        '<section id="changes">\n<h2>Changes</h2>\n<ol>\n<li>X</li>\n</ol>\n</section>\n</main><!-- </main> --></body>',
    );
  });

  it("creates and links style.css when a style change meets a page without one", async () => {
    const tree = treeOf({ "index.html": "<!doctype html>\n<html><head></head><body></body></html>" });
    await builtinAgent.run(input({ initial: false, files: tree, prompt: "Make it dark" }));
    expect(await tree.readText("index.html")).toContain('<head><link rel="stylesheet" href="style.css">\n</head>');
    expect(await tree.readText("style.css")).toContain("color-scheme: dark");
  });
});

describe("builtin agent, hostile pages", () => {
  const followUp = (indexHtml: string, prompt: string, styleCss?: string): BuiltinRequest => ({
    agent: "coding-agent-1",
    prompt,
    project: { name: "Mine", template: "blank" },
    initial: false,
    files: { "index.html": indexHtml, "style.css": styleCss },
  });

  // Each shape made an old regular expression scan from every candidate to the page's end.
  it.each([
    ["unclosed comments", "<!--"],
    ["unclosed tags", "<a "],
    ["unclosed sections", "<section "],
    ["unclosed tags with an id", "<p id=x "],
  ])("edits a page of %s in linear time", async (_, unit) => {
    await expectLinear(10_000, (n) => followUp(unit.repeat(n), "Add a footer"), editProject);
  });

  it("restyles a style.css full of unclosed markers in linear time", async () => {
    const page = "<html><head></head><body></body></html>";
    await expectLinear(10_000, (n) => followUp(page, "Make it dark", "/* builtin:scheme */\n".repeat(n)), editProject);
  });

  it("reads a long prompt in linear time", async () => {
    const request = (n: number): BuiltinRequest => ({
      agent: "coding-agent-1",
      prompt: "track books with author, genre like a, b and c, ".repeat(n),
      project: { name: "Mine", template: "web-app" },
      initial: true,
      files: {},
    });
    await expectLinear(50, request, editProject);
  });

  it("refuses to edit an index.html or style.css over 1 MiB, naming it", async () => {
    const big = "<p>" + "x".repeat(1024 * 1024);
    await expect(builtinAgent.run(input({ initial: false, files: treeOf({ "index.html": big }) }))).rejects.toThrow(
      new AgentError(
        "agent_error",
        "index.html has 1048579 bytes; the built-in agent edits files of at most 1048576 (1 MiB).",
      ),
    );
    const files = { "index.html": "<p>hi</p>", "style.css": big };
    // Read only when the prompt asks for a style change.
    await expect(
      builtinAgent.run(input({ initial: false, files: treeOf(files), prompt: "Add a footer" })),
    ).resolves.toBeDefined();
    await expect(
      builtinAgent.run(input({ initial: false, files: treeOf(files), prompt: "Make it dark" })),
    ).rejects.toThrow(/^style\.css has 1048579 bytes/);
  });
});
