import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles } from "../scripts/import-cycles.ts";

describe("import circles (issue #23)", () => {
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
