import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { expectLinear } from "../../../test/support/growth.ts";
import { BuildError, buildSite } from "./build-site.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function snapshot(files: Record<string, string | Uint8Array>): Map<string, Uint8Array> {
  return new Map(
    Object.entries(files).map(([path, content]) => [
      path,
      typeof content === "string" ? encoder.encode(content) : content,
    ]),
  );
}

function text(output: Map<string, Uint8Array>, path: string): string {
  const bytes = output.get(path);
  if (!bytes) throw new Error(`no ${path} in [${[...output.keys()].join(", ")}]`);
  return decoder.decode(bytes);
}

function only(output: Map<string, Uint8Array>, pattern: RegExp): string {
  const paths = [...output.keys()].filter((path) => pattern.test(path));
  expect(paths).toHaveLength(1);
  return paths[0]!;
}

function buildFrom(files: Record<string, string | Uint8Array>): Promise<Map<string, Uint8Array>> {
  return buildSite(snapshot(files));
}

async function buildError(files: Map<string, Uint8Array>): Promise<BuildError> {
  const error = await buildSite(files).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(BuildError);
  return error as BuildError;
}

const page = (script: string) =>
  `<!doctype html><html><head><title>App</title></head><body><div id="root"></div>${script}</body></html>`;

describe("buildSite", () => {
  it("copies a plain static site unchanged", async () => {
    const files = snapshot({
      "index.html": page('<script src="app.js"></script><script src="https://cdn.example/x.ts"></script>'),
      "app.js": "console.log('hi')",
      "style.css": "body { color: red }",
      "img/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 13, 10]),
    });
    const output = await buildSite(files);
    expect([...output.keys()]).toEqual(["app.js", "img/logo.png", "index.html", "style.css"]);
    for (const [path, bytes] of files) expect(output.get(path)).toEqual(bytes);
  });

  it("bundles a TypeScript entry with its imports and stylesheet, and rewrites the page", async () => {
    const output = await buildFrom({
      "index.html": page('<script src="src/main.tsx" defer></script>'),
      "src/main.tsx": 'import { greet } from "./util.ts";\nimport "./style.css";\ndocument.title = greet("World");\n',
      "src/util.ts": 'export function greet(name: string): string {\n  return "Hello, " + name + "!";\n}\n',
      "src/style.css": "body { margin: 0; color: rebeccapurple; }\n",
    });
    const js = only(output, /^src\/main-[0-9a-f]{8}\.js$/);
    const css = only(output, /^src\/main-[0-9a-f]{8}\.css$/);
    expect(output.has("src/main.tsx")).toBe(false);
    expect(output.has("src/util.ts")).toBe(false);
    expect(text(output, "src/style.css")).toBe("body { margin: 0; color: rebeccapurple; }\n");

    const code = text(output, js);
    expect(code).toContain("Hello, ");
    expect(code).not.toMatch(/\bimport\b/);
    const document = { title: "" };
    runInNewContext(code, { document });
    expect(document.title).toBe("Hello, World!");

    expect(text(output, css)).toBe("body{margin:0;color:#639}\n");
    expect(text(output, "index.html")).toBe(
      page(`<script type="module" src="${js}" defer></script>`).replace(
        "</head>",
        `<link rel="stylesheet" href="${css}"></head>`,
      ),
    );
  });

  it("rewrites pages in subdirectories and root-relative sources, keeping their form", async () => {
    const output = await buildFrom({
      "index.html": page('<script type="text/typescript" src="/src/main.ts?v=2"></script>'),
      "pages/about.html": '<body><script src="../src/main.ts"></script></body>',
      "src/main.ts": "export {}; console.log(1 as number);",
    });
    const js = only(output, /^src\/main-[0-9a-f]{8}\.js$/).slice("src/".length);
    expect(text(output, "index.html")).toContain(`<script type="module" src="/src/${js}?v=2"></script>`);
    expect(text(output, "pages/about.html")).toBe(`<body><script type="module" src="../src/${js}"></script></body>`);
  });

  it("points bundled stylesheets and imported assets at the published files", async () => {
    const output = await buildFrom({
      "index.html": page('<script src="src/main.ts"></script>'),
      "src/main.ts": 'import "./styles/app.css";\nimport logo from "../img/logo.png";\nconsole.log(logo);\n',
      "src/styles/app.css": ".hero { background: url(../../img/bg.png?v=1) } .x { background: url(/abs.png) }",
      "img/bg.png": new Uint8Array([1]),
      "img/logo.png": new Uint8Array([2]),
    });
    expect(text(output, only(output, /^src\/main-.*\.css$/))).toBe(
      ".hero{background:url(../img/bg.png?v=1)}.x{background:url(/abs.png)}\n",
    );
    expect(text(output, only(output, /^src\/main-.*\.js$/))).toContain('new URL("../img/logo.png",import.meta.url)');
    expect(output.get("img/bg.png")).toEqual(new Uint8Array([1]));
  });

  it("compiles JSX to DOM nodes without any package", async () => {
    const output = await buildFrom({
      "index.html": page('<script src="app.jsx"></script>'),
      "app.jsx": [
        'function Item({ label }) { return <li className="item">{label}</li>; }',
        "let clicks = 0;",
        'const list = <ul id="list" hidden onClick={() => clicks++}>{["a", "b"].map((label) => <Item label={label} />)}{null}{false}</ul>;',
        'document.body.append(<><h1 style={{ color: "red" }}>Total {1 + 1}</h1>{list}<svg><circle r="2" /></svg></>);',
        "globalThis.clicks = () => clicks;",
      ].join("\n"),
    });
    const code = text(output, only(output, /^app-[0-9a-f]{8}\.js$/));
    expect(code).not.toMatch(/\bimport\b/);

    class FakeNode {
      attributes: Record<string, string> = {};
      children: unknown[] = [];
      listeners: Record<string, () => void> = {};
      style: Record<string, string> = {};
      readonly tag: string;
      readonly namespace: string | undefined;
      constructor(tag: string, namespace?: string) {
        this.tag = tag;
        this.namespace = namespace;
      }
      setAttribute(name: string, value: string) {
        this.attributes[name] = value;
      }
      append(...nodes: unknown[]) {
        for (const node of nodes) {
          if (node instanceof FakeNode && node.tag === "#fragment") this.children.push(...node.children);
          else this.children.push(node);
        }
      }
      addEventListener(type: string, listener: () => void) {
        this.listeners[type] = listener;
      }
    }
    const body = new FakeNode("body");
    const context: Record<string, unknown> = {
      document: {
        body,
        createElement: (tag: string) => new FakeNode(tag),
        createElementNS: (namespace: string, tag: string) => new FakeNode(tag, namespace),
        createDocumentFragment: () => new FakeNode("#fragment"),
      },
    };
    runInNewContext(code, context);

    const [h1, ul, svg] = body.children as [FakeNode, FakeNode, FakeNode];
    expect(h1.tag).toBe("h1");
    expect(h1.style).toEqual({ color: "red" });
    expect(h1.children).toEqual(["Total ", "2"]);
    expect(ul.attributes).toEqual({ id: "list", hidden: "" });
    expect((ul.children as FakeNode[]).map((li) => [li.tag, li.attributes.class, li.children])).toEqual([
      ["li", "item", ["a"]],
      ["li", "item", ["b"]],
    ]);
    ul.listeners.click!();
    expect((context.clicks as () => number)()).toBe(1);
    expect([svg.namespace, (svg.children[0] as FakeNode).namespace]).toEqual([
      "http://www.w3.org/2000/svg",
      "http://www.w3.org/2000/svg",
    ]);
  });

  it("builds the same bytes from the same snapshot, whatever its order", async () => {
    const files = {
      "index.html": page('<script src="src/main.tsx"></script>'),
      "src/main.tsx": 'import "./a.css";\nimport { n } from "./n";\nconsole.log(<b>{n}</b>);\n',
      "src/n.ts": "export const n: number = 42;",
      "src/a.css": "b { color: red }",
      "z.txt": "z",
    };
    const first = await buildFrom(files);
    const second = await buildFrom(Object.fromEntries(Object.entries(files).reverse()));
    expect([...second]).toEqual([...first]);
  });

  it("reads pages as a browser does: no scripts in comments or in a script's text, a quoted > does not end a tag", async () => {
    const output = await buildFrom({
      "index.html": page(
        '<!-- <script src="old.ts"></script> --><script>document.write("<script src=\'old.ts\'></" + "script>")</script>' +
          '<SCRIPT data-note="a > b" src=main.ts defer ></SCRIPT>',
      ),
      "main.ts": "console.log(1 as number)",
    });
    const js = only(output, /^main-[0-9a-f]{8}\.js$/);
    expect(text(output, "index.html")).toBe(
      page(
        '<!-- <script src="old.ts"></script> --><script>document.write("<script src=\'old.ts\'></" + "script>")</script>' +
          `<script type="module" data-note="a > b" src="${js}" defer></SCRIPT>`,
      ),
    );
  });

  // Each message is pinned whole: it is the failed deployment's error, as its user reads it.
  it.each([
    {
      name: "needs an index.html at the root",
      files: snapshot({ "site/index.html": "<p>hi</p>" }),
      message: "The build needs an index.html at the project's root.",
    },
    {
      name: "reports a syntax error with its file and line",
      files: snapshot({
        "index.html": page('<script src="main.tsx"></script>'),
        "main.tsx": "const a = 1;\nconst b = ;\n",
      }),
      message: 'The build of main.tsx failed:\nmain.tsx:2:11: Unexpected ";"',
    },
    {
      name: "refuses packages, naming the import and the importing file",
      files: snapshot({
        "index.html": page('<script src="src/main.ts"></script>'),
        "src/main.ts": 'import { useState } from "react";\nconsole.log(useState);\n',
      }),
      message: expect.stringMatching(
        /^The build of src\/main\.ts failed:\nsrc\/main\.ts:1:26: Cannot import "react" in src\/main\.ts: it is a package/,
      ),
    },
    {
      name: "refuses a page that loads a missing entry point",
      files: snapshot({ "index.html": page('<script src="./src/main.tsx"></script>') }),
      message: "index.html loads the script ./src/main.tsx, which is not a file of the project.",
    },
    {
      name: "refuses a page over 5 MiB, naming it",
      files: snapshot({ "index.html": "<p>hi</p>", "big.html": new Uint8Array(5 * 1024 * 1024 + 1) }),
      message: "big.html has 5242881 bytes; the build takes pages of at most 5242880 (5 MiB).",
    },
  ])("$name", async ({ files, message }) => {
    expect((await buildError(files)).message).toEqual(message);
  });

  it.each(["../../../../../../etc/passwd", "/etc/passwd", `${process.cwd()}/package.json`, "./missing"])(
    "never reads the real filesystem: import %s",
    async (specifier) => {
      const error = await buildError(
        snapshot({
          "index.html": page('<script src="src/main.ts"></script>'),
          "src/main.ts": `import data from ${JSON.stringify(specifier)};\nconsole.log(data);\n`,
        }),
      );
      expect(error.message).toContain(`Cannot import "${specifier}" in src/main.ts: `);
      expect(error.message).toMatch(/it points outside the project|no file of the project matches it/);
    },
  );

  it("refuses too many files or too many bytes", async () => {
    const many = new Map([...Array(2_001).keys()].map((index) => [`f${index}.txt`, new Uint8Array(1)]));
    many.set("index.html", new Uint8Array(1));
    expect((await buildError(many)).message).toBe("The project has 2002 files; a build takes at most 2000.");

    const half = new Uint8Array(51 * 1024 * 1024);
    const large = new Map([
      ["index.html", half],
      ["b.bin", half],
    ]);
    expect((await buildError(large)).message).toMatch(
      /^The project's files total 106954752 bytes; a build takes at most 104857600/,
    );
  });

  it("stops with the signal's reason when aborted", async () => {
    const files = snapshot({ "index.html": page('<script src="main.ts"></script>'), "main.ts": "console.log(1)" });
    const reason = new Error("deployment canceled");
    await expect(buildSite(files, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);

    const controller = new AbortController();
    const building = buildSite(files, { signal: controller.signal });
    controller.abort(reason);
    await expect(building).rejects.toBe(reason);

    // esbuild's service survives the abort: the next build succeeds.
    expect([...(await buildSite(files)).keys()]).toEqual([
      "index.html",
      expect.stringMatching(/^main-[0-9a-f]{8}\.js$/),
    ]);
  });
});

describe("buildSite on hostile pages", () => {
  // Each shape makes a naive regular-expression scan run from every candidate to the page's end.
  it.each([
    ["unclosed comments", "<!--"],
    ["unclosed script tags", "<script "],
    ["script tags with an unclosed quote", '<script "'],
  ])("scans a page of %s in linear time", async (_, unit) => {
    await expectLinear(
      10_000,
      (n) => snapshot({ "index.html": unit.repeat(n) }),
      (files) => buildSite(files),
    );
  });

  it("finds the head's end on a page of unclosed comments in linear time, and links the stylesheet there", async () => {
    const pageOf = (n: number) =>
      snapshot({
        "index.html": `<html><head></head><body><script src="main.ts"></script>${"<!--".repeat(n)}`,
        "main.ts": 'import "./a.css";',
        "a.css": "b { color: red }",
      });
    const output = await buildSite(pageOf(3));
    expect(text(output, "index.html")).toMatch(
      /^<html><head><link rel="stylesheet" href="main-[0-9a-f]{8}\.css"><\/head><body><script type="module" src="main-[0-9a-f]{8}\.js"><\/script>(<!--){3}$/,
    );
    await expectLinear(10_000, pageOf, (files) => buildSite(files));
  });
});
