// npm run lint: ESLint (eslint.config.js) on the code, then Spectral (.spectral.yaml) on both
// generated documents; `--documents` runs Spectral alone (npm run build). Any finding fails,
// whatever its severity: the bar is zero errors and zero warnings. Other arguments go to ESLint
// (`npm run lint -- --fix`).
//
// ESLint keeps a cache in node_modules/.cache/eslint, by content: a second run lints only the
// files that changed. Type-aware rules can then miss a finding in an unchanged file that a change
// elsewhere caused; CI lints from a fresh clone, without a cache, and catches it.
//
// Also exports runSpectral() so test/spectral.test.ts lints its fixtures with
// exactly the same CLI and ruleset.

import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const ruleset = join(root, ".spectral.yaml");
export const documents = ["generated/openapi.yaml", "generated/openapi.3.1.yaml"].map((file) => join(root, file));

/** One finding of `spectral lint --format json`. */
export interface Finding {
  code: string | number;
  message: string;
  path: Array<string | number>;
  severity: number; // 0 error, 1 warning, 2 information, 3 hint
  source?: string;
  range: { start: { line: number; character: number } };
}

// The CLIs' entry points, run with this same Node (no reliance on PATH).
const require = createRequire(import.meta.url);
const spectralCli = join(dirname(require.resolve("@stoplight/spectral-cli/package.json")), "dist", "index.js");
const eslintCli = join(dirname(require.resolve("eslint/package.json")), "bin", "eslint.js");

/** What ESLint lints: the code, not what tools write (eslint.config.js ignores those within). */
const codeDirectories = [
  "src",
  "test",
  "scripts",
  "bench",
  "examples",
  ...readdirSync(join(root, "packages"))
    .map((name) => join("packages", name, "src"))
    .filter((dir) => existsSync(join(root, dir))),
];

/** Runs ESLint over the code; resolves with its exit code. */
function eslint(args: string[]): Promise<number> {
  const cache = ["--cache", "--cache-strategy", "content", "--cache-location", "node_modules/.cache/eslint/"];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [eslintCli, "--max-warnings", "0", ...cache, ...args, ...codeDirectories], {
      cwd: root,
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("close", (code) => resolvePromise(code ?? 1));
  });
}

/** Runs the Spectral CLI with our ruleset; resolves with its exit code and output. */
function spectral(
  args: string[],
  stdio: "inherit" | "pipe",
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [spectralCli, "lint", "--ruleset", ruleset, ...args], {
      cwd: root,
      stdio: ["ignore", stdio, stdio],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? 1, stdout, stderr }));
  });
}

/** Lints the given files and returns every finding (all severities). */
export async function runSpectral(files: string[]): Promise<Finding[]> {
  const { stdout, stderr } = await spectral(
    ["--format", "json", "--quiet", "--fail-severity", "hint", ...files],
    "pipe",
  );
  try {
    return JSON.parse(stdout) as Finding[];
  } catch {
    throw new Error(`spectral did not produce JSON output:\n${stdout}\n${stderr}`);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (!args.includes("--documents")) {
    const started = Date.now();
    if ((await eslint(args)) !== 0) {
      console.error("lint: ESLint failed (see eslint.config.js).");
      process.exit(1);
    }
    console.log(`lint: ${codeDirectories.join(", ")}: no findings (${((Date.now() - started) / 1000).toFixed(1)} s).`);
  }
  const missing = documents.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    console.error(`lint: missing ${missing.map((f) => relative(root, f)).join(", ")}. Run \`npm run build\` first.`);
    process.exit(1);
  }
  // The stylish format prints file:line:col, severity, rule, message and JSON path.
  const { code } = await spectral(["--format", "stylish", "--fail-severity", "hint", ...documents], "inherit");
  if (code === 0) {
    console.log(`lint: ${documents.map((f) => relative(root, f)).join(" and ")}: no findings.`);
  } else {
    console.error("lint: failed. Every finding counts, warnings and hints included (see .spectral.yaml).");
  }
  process.exit(code);
}

if (import.meta.main) await main();
