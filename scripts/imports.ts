// How a tree's modules import each other: no circles, and arrows only down the layers that
// docs/architecture.md draws ("The layers and their arrows"). Every relative import counts, type-only
// ones too: a type one side borrows from the other belongs in a module both use, and a type a lower
// room takes from a higher one belongs in the lower one. `node scripts/imports.ts [folder]` prints each
// circle's files and each arrow that points up or sideways; test/imports.test.ts keeps src/ free of
// both.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const IMPORT = /(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

/**
 * src/'s rooms (a folder, or a module at its top), from the top layer down. A module imports from
 * its own room or from a lower layer; the first layer's modules compose the others and may import
 * each other.
 */
export const SRC_LAYERS: readonly (readonly string[])[] = [
  ["main.ts", "boot.ts", "server.ts", "app.ts", "config.ts", "cli/"],
  ["handlers/", "mcp/", "console/", "oauth/", "apps/"],
  ["pages/", "jobs/"],
  ["http/", "agents/"],
  ["domain/"],
  ["storage/"],
  ["html/", "request-body.ts", "stream-bodies.ts", "logger.ts", "listen.ts"],
];

/** Each module of the tree under `root` (tests left out), with the modules of the tree it imports. */
function importGraph(root: string): Map<string, string[]> {
  const files = sourceFiles(root);
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
  return edges;
}

/**
 * The imports under `root` that do not point down `layers`, as `from → to` (paths under `root`), and
 * a module in no room of the layers as `from: in no layer`.
 */
export function upwardImports(root: string, layers: readonly (readonly string[])[] = SRC_LAYERS): string[] {
  const base = resolve(root);
  const roomOf = (file: string) => {
    const path = relative(base, file);
    return path.includes(sep) ? `${path.slice(0, path.indexOf(sep))}/` : path;
  };
  const layerOf = (room: string) => layers.findIndex((layer) => layer.includes(room));
  const wrong: string[] = [];
  for (const [file, targets] of importGraph(base)) {
    const room = roomOf(file);
    const layer = layerOf(room);
    if (layer === -1) {
      wrong.push(`${relative(base, file)}: in no layer`);
      continue;
    }
    for (const target of targets) {
      const targetRoom = roomOf(target);
      if (targetRoom === room || layerOf(targetRoom) > layer || (layer === 0 && layerOf(targetRoom) === 0)) continue;
      wrong.push(`${relative(base, file)} → ${relative(base, target)}`);
    }
  }
  return wrong.sort();
}

/** The groups of modules (tests left out) that import each other round a circle, as paths under `root`. */
export function importCycles(root: string): string[][] {
  const base = resolve(root);
  const edges = importGraph(base);
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
      component.push(relative(base, member));
    } while (member !== file);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
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
  const upward = root === "src" ? upwardImports(root) : [];
  for (const arrow of upward) console.log(arrow);
  if (root === "src") console.log(`${upward.length} import(s) not pointing down the layers`);
  process.exitCode = circles.length + upward.length > 0 ? 1 : 0;
}
