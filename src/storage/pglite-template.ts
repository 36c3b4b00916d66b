// A migrated PGlite cluster kept as a tarball, so that a new data directory starts from a copy
// (~0.5 s) instead of running initdb in WebAssembly and every migration (~3 s or more). One per
// PGlite version and migration set, in node_modules/.cache (kept across reboots, rebuilt by `npm ci`):
// `npm ci` prepares it (scripts/prepare.ts), the first server to start without it saves one, and the
// test suites clone it for every database they open.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { migrationsFolder } from "./migrator.ts";

const root = join(import.meta.dirname, "..", "..");
const cacheDir = join(root, "node_modules", ".cache", "project-builder-api");

/** Where the template of this PGlite version and migration set lives (whether or not it exists yet). */
export async function templatePath(): Promise<string> {
  const hash = createHash("sha256");
  // A new PGlite may write clusters an older one cannot read: its version is part of the name.
  hash.update(await readFile(join(root, "node_modules", "@electric-sql", "pglite", "package.json")));
  for (const file of await listFiles(migrationsFolder)) {
    hash.update(`${file}\n`);
    hash.update(await readFile(join(migrationsFolder, file)));
  }
  return join(cacheDir, `pglite-template-${hash.digest("hex").slice(0, 16)}.tar`);
}

/** The template, when one has been saved. */
export async function readTemplate(): Promise<Blob | undefined> {
  const bytes = await readFile(await templatePath()).catch(() => undefined);
  return bytes ? new Blob([new Uint8Array(bytes)]) : undefined;
}

/** Saves a freshly migrated cluster as the template; written whole or not at all. */
export async function saveTemplate(tarball: Blob): Promise<void> {
  const path = await templatePath();
  await mkdir(cacheDir, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, new Uint8Array(await tarball.arrayBuffer()));
  await rename(partial, path); // atomic: readers never see half a file
}

/**
 * The template, built by `build` when there is none. Processes building at once (test files run in
 * parallel workers) take turns: a directory created with mkdir is the lock, and the others wait for
 * the file to appear.
 */
export async function templateOrBuild(build: () => Promise<Blob>): Promise<Blob> {
  const path = await templatePath();
  const lock = `${path}.lock`;
  const deadline = Date.now() + 120_000;
  await mkdir(cacheDir, { recursive: true });
  for (;;) {
    const saved = await readTemplate();
    if (saved) return saved;
    try {
      await mkdir(lock);
    } catch {
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (age > 120_000) await rm(lock, { recursive: true, force: true }); // its builder died
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock} to go`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      if (!(await readTemplate())) await saveTemplate(await build());
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const files = await Promise.all(
    entries.map(async (entry) =>
      entry.isDirectory() ? listFiles(dir, join(prefix, entry.name)) : [join(prefix, entry.name)],
    ),
  );
  return files.flat().sort();
}
