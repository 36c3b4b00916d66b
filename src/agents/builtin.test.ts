import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import type { SchemaAgent, SchemaTemplate } from "../../generated/schema.d.ts";
import { expectLinear } from "../../test/support/growth.ts";
import { AgentError, type AgentInput, type UsageMeter } from "./agent.ts";
import { builtinAgent } from "./builtin.ts";
import { editProject, type BuiltinRequest } from "./builtin-edit.ts";
import { WorkingTree, type StoredFile } from "./working-tree.ts";

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

describe("builtin agent, first run", () => {
  it("is a builtin agent that writes index.html, style.css and app.js and says so", async () => {
    const tree = treeOf();
    const { summary, files } = await build(input({ files: tree }));
    expect(builtinAgent.kind).toBe("builtin");
    expect(Object.keys(files)).toEqual(["app.js", "index.html", "style.css"]);
    expect(tree.changes().writes.map((write) => [write.path, write.contentType])).toEqual([
      ["app.js", "text/javascript"],
      ["index.html", "text/html"],
      ["style.css", "text/css"],
    ]);
    expect(summary).toBe('Created index.html, style.css and app.js for "Dinner Planner".');
    for (const text of Object.values(files)) expect(new TextEncoder().encode(text).length).toBeLessThan(8 * 1024);
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

  it("shows the name as title and heading and the prompt, escaped", async () => {
    const { files, summary } = await build(
      input({ name: `Tom & Jerry's <App>`, prompt: `<script>alert("x")</script> track cheese` }),
    );
    const html = files["index.html"]!;
    expect(html).toContain("<title>Tom &amp; Jerry&#39;s &lt;App&gt;</title>");
    expect(html).toContain("<h1>Tom &amp; Jerry&#39;s &lt;App&gt;</h1>");
    expect(html).toContain(`&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; track cheese`);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<App>");
    expect(summary).toContain(`"Tom & Jerry's <App>"`);
  });

  it.each(TEMPLATES)(
    "builds a valid %s page that references only its own files, with nothing inline",
    async (template) => {
      const { files } = await build(input({ template }));
      const html = files["index.html"]!;
      expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
      expect(html.trimEnd().endsWith("</html>")).toBe(true);
      expect(html).toContain('<link rel="stylesheet" href="style.css">');
      expect(html).toContain('<script src="app.js" defer></script>');
      expect(html).toContain(`<body class="template-${template}">`);

      const references = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
      for (const reference of references) {
        if (!reference.startsWith("#")) expect(Object.keys(files)).toContain(reference);
      }
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/);
      expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);

      // The script is valid JavaScript and only looks up elements the page has.
      expect(() => new Script(files["app.js"]!)).not.toThrow();
      for (const [, id] of files["app.js"]!.matchAll(/getElementById\("([^"]+)"\)/g))
        expect(html).toContain(`id="${id}"`);
    },
  );

  it("shapes the page by template and derives its content from the prompt", async () => {
    const landing = (await build(input({ template: "landing-page" }))).files["index.html"]!;
    expect(landing).toContain('<header class="hero">');
    expect(landing).toContain('<article class="feature"><h3>Plans</h3>');
    expect(landing).toContain("<h3>Week</h3>");

    const dashboard = (await build(input({ template: "dashboard" }))).files["index.html"]!;
    expect(dashboard.match(/class="card"/g)).toHaveLength(4);
    expect(dashboard).toContain('<span class="label">Dinners</span>');

    const webApp = await build(input({ template: "web-app" }));
    expect(webApp.files["index.html"]).toContain('<form id="item-form"');
    expect(webApp.files["index.html"]).toContain('<p id="item-count" class="muted">3 items</p>');
    expect(webApp.files["app.js"]).toContain('form.addEventListener("submit"');

    const api = (await build(input({ template: "api-service" }))).files["index.html"]!;
    expect(api).toContain('<code class="method">POST</code> <code>/plans</code>');
    expect(api).toContain("<code>/week/{id}</code>");

    const blank = (await build(input({ template: "blank" }))).files["index.html"]!;
    expect(blank).toContain('<main class="page">');
  });

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
    expect(summary).toMatch(/^Created /);
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

describe("builtin agent, follow-up runs", () => {
  async function initialTree(): Promise<{ tree: WorkingTree; original: Record<string, string> }> {
    const first = treeOf();
    await builtinAgent.run(input({ template: "web-app", files: first }));
    const original: Record<string, string> = {};
    for (const path of first.list()) original[path] = (await first.readText(path))!;
    // A new tree from the stored files, as the next run would see them.
    return { tree: treeOf(original), original };
  }

  it("appends each change to the list, shows the newest in the banner and keeps the page", async () => {
    const { tree, original } = await initialTree();
    const first = await builtinAgent.run(
      input({ template: "web-app", initial: false, files: tree, prompt: "Add a <b>shopping list</b>" }),
    );
    expect(first.summary).toBe(
      'Updated index.html: added change 1 ("Add a <b>shopping list</b>") to the changes list and the latest-change banner.',
    );
    let html = (await tree.readText("index.html"))!;
    expect(html).toContain(
      '<p id="latest-change" class="latest-change" role="status">Latest change: Add a &lt;b&gt;shopping list&lt;/b&gt;</p>',
    );
    expect(html).toContain(
      '<section id="changes">\n<h2>Changes</h2>\n<ol>\n<li>Add a &lt;b&gt;shopping list&lt;/b&gt;</li>\n</ol>\n</section>\n</main>',
    );
    expect(html).toContain('<form id="item-form"');
    expect(html).toContain("<h1>Dinner Planner</h1>");
    // Only index.html changed: nothing rewritten from scratch, nothing deleted.
    expect(tree.changes().writes.map((write) => write.path)).toEqual(["index.html"]);
    expect(tree.changes().deletes).toEqual([]);

    const second = await builtinAgent.run(
      input({ template: "web-app", initial: false, files: tree, prompt: "Sort items by name" }),
    );
    expect(second.summary).toContain('added change 2 ("Sort items by name")');
    html = (await tree.readText("index.html"))!;
    expect(html).toContain("<ol>\n<li>Add a &lt;b&gt;shopping list&lt;/b&gt;</li>\n<li>Sort items by name</li>\n</ol>");
    expect(html).toContain(">Latest change: Sort items by name</p>");
    expect(html.match(/id="latest-change"/g)).toHaveLength(1);
    expect(html.match(/<section id="changes">/g)).toHaveLength(1);
    expect(await tree.readText("app.js")).toBe(original["app.js"]);
  });

  it("is deterministic for the same existing files and prompt", async () => {
    const a = (await initialTree()).tree;
    const b = (await initialTree()).tree;
    await builtinAgent.run(input({ initial: false, files: a, prompt: "Make it dark and purple" }));
    await builtinAgent.run(input({ initial: false, files: b, prompt: "Make it dark and purple" }));
    expect(b.changes()).toEqual(a.changes());
  });

  it("switches style.css by keyword, keeping earlier style changes", async () => {
    const { tree, original } = await initialTree();
    const dark = await builtinAgent.run(input({ initial: false, files: tree, prompt: "Add dark mode" }));
    expect(dark.summary).toContain("; updated style.css: dark theme.");
    let css = (await tree.readText("style.css"))!;
    expect(css.startsWith(original["style.css"]!)).toBe(true);
    expect(css).toContain("/* builtin:scheme */\n:root { color-scheme: dark; --bg: #0f172a;");

    await builtinAgent.run(input({ initial: false, files: tree, prompt: "Use a green accent" }));
    css = (await tree.readText("style.css"))!;
    expect(css).toContain("color-scheme: dark");
    expect(css).toContain("/* builtin:accent */\n:root { --accent: #16a34a;");

    await builtinAgent.run(input({ initial: false, files: tree, prompt: "Switch from dark to light" }));
    css = (await tree.readText("style.css"))!;
    expect(css).toContain("color-scheme: light");
    expect(css).not.toContain("color-scheme: dark");
    expect(css.match(/\/\* builtin:scheme \*\//g)).toHaveLength(1);
  });

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
    indexHtml,
    styleCss,
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
