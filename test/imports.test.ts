import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, upwardImports } from "../scripts/imports.ts";

describe("import circles", () => {
  it("src/ has none, type-only imports included", () => {
    expect(importCycles("src")).toEqual([]);
  });

  it("finds a circle, through a type-only import and a folder, and leaves a test's imports out", () => {
    const root = mkdtempSync(join(tmpdir(), "cycles-"));
    try {
      mkdirSync(join(root, "domain"));
      writeFileSync(join(root, "domain", "a.ts"), 'import { b } from "./b.ts";\nexport const a = b;\n');
      writeFileSync(join(root, "domain", "b.ts"), 'import type { C } from "../c.ts";\nexport const b = 1 as C;\n');
      writeFileSync(join(root, "c.ts"), 'export { a } from "./domain/a.ts";\nexport type C = number;\n');
      writeFileSync(join(root, "d.ts"), 'import { a } from "./domain/a.ts";\nexport const d = a;\n');
      writeFileSync(join(root, "d.test.ts"), 'import { d } from "./d.ts";\nexport { d };\n');
      writeFileSync(join(root, "e.ts"), 'import { d } from "./d.test.ts";\nexport const e = d;\n');
      expect(importCycles(root)).toEqual([["c.ts", "domain/a.ts", "domain/b.ts"]]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("import arrows", () => {
  it("in src/ all point down the layers of docs/architecture.md, type-only imports included", () => {
    expect(upwardImports("src")).toEqual([]);
  });

  it("finds an arrow up, one sideways, and a module in no layer; a room's own imports and the top layer's are fine", () => {
    const root = mkdtempSync(join(tmpdir(), "arrows-"));
    const layers = [["main.ts", "cli/"], ["handlers/", "console/"], ["domain/"]];
    try {
      for (const folder of ["cli", "handlers", "console", "domain", "extra"]) mkdirSync(join(root, folder));
      writeFileSync(join(root, "main.ts"), 'import "./cli/run.ts";\nimport "./handlers/a.ts";\n');
      writeFileSync(join(root, "cli", "run.ts"), 'import "../main.ts";\nimport "./args.ts";\n');
      writeFileSync(join(root, "cli", "args.ts"), "export {};\n");
      writeFileSync(
        join(root, "handlers", "a.ts"),
        'import type { T } from "../console/page.ts";\nimport "../domain/rule.ts";\nexport type U = T;\n',
      );
      writeFileSync(join(root, "console", "page.ts"), "export type T = number;\n");
      writeFileSync(
        join(root, "domain", "rule.ts"),
        'import type { U } from "../handlers/a.ts";\nexport type V = U;\n',
      );
      writeFileSync(join(root, "extra", "x.ts"), "export {};\n");
      expect(upwardImports(root, layers)).toEqual([
        "domain/rule.ts → handlers/a.ts",
        "extra/x.ts: in no layer",
        "handlers/a.ts → console/page.ts",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
