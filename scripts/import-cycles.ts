// Import circles between a tree's modules (issue #23: none may remain). Every relative import
// counts, type-only ones too: a type one side borrows from the other belongs in a module both use.
// `node scripts/import-cycles.ts [folder]` prints each circle's files; test/import-cycles.test.ts
// keeps src/ free of them.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const IMPORT = /(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

/** The groups of modules (tests left out) that import each other round a circle, as paths under `root`. */
export function importCycles(root: string): string[][] {
  const files = sourceFiles(resolve(root));
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1] ?? match[2]!);
      if (known.has(target)) targets.add(target);
    }
    edges.set(file, [...targets]);
  }
  // Tarjan's strongly connected components; a component of more than one module is a circle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== file);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

if (import.meta.main) {
  const root = process.argv[2] ?? "src";
  const circles = importCycles(root);
  for (const circle of circles) console.log(circle.join("  ↔  "));
  console.log(`${circles.length} import circle(s) in ${root}/`);
  process.exitCode = circles.length > 0 ? 1 : 0;
}
