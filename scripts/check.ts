// `npm run check`: the static checks CI runs besides the tests. generated/ (and the client's
// idempotent-route table) must equal a fresh build of spec/ (drift), docs/configuration.md a fresh
// render of src/config.ts's variables, the packages must be at the contract's version, every file
// must be formatted as Prettier writes it, the code and both documents must lint clean, everything
// must type-check, and the contract must not break the last released one.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import { vendoredRedoc } from "../src/http/front-door.ts";
import { configurationDocIsFresh } from "./configuration-doc.ts";
import { redocBundle } from "./docs.ts";
import { generate, generatedFiles, root } from "./generate.ts";
import { idempotentRoutesFile, renderIdempotentRoutes, versionProblems } from "./packages.ts";

/**
 * Runs one step. Its own output says what failed; this says which step it was and how it ended, for
 * a step that ends without a word (killed for its memory or time, say).
 */
function run(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { cwd: root, stdio: "inherit" });
  } catch (error) {
    const { status, signal } = error as { status: number | null; signal: NodeJS.Signals | null };
    const step = [command, ...args].map((part) => (isAbsolute(part) ? relative(root, part) : part)).join(" ");
    console.error(`check: \`${step}\` failed (${signal ? `killed by ${signal}` : `exit code ${status}`}).`);
    process.exit(1);
  }
}

const fresh = mkdtempSync(join(tmpdir(), "generated-"));
try {
  generate(fresh);
  const drifted: string[] = generatedFiles.filter(
    (file) => readFileSync(join(fresh, file), "utf8") !== readFileSync(join(root, "generated", file), "utf8"),
  );
  if (
    renderIdempotentRoutes(readFileSync(join(fresh, "openapi.yaml"), "utf8")) !==
    readFileSync(idempotentRoutesFile, "utf8")
  ) {
    drifted.push("packages/client/src/idempotent-routes.ts");
  }
  if (drifted.length > 0) {
    console.error(
      `generated files differ from spec/: ${drifted.join(", ")}. Run \`npm run build\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log("drift: generated/ matches spec/");
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
if (!configurationDocIsFresh()) {
  console.error(
    "docs/configuration.md differs from the variables src/config.ts declares. Run `npm run build` and commit the result.",
  );
  process.exit(1);
}
console.log("drift: docs/configuration.md matches src/config.ts");
if (!existsSync(vendoredRedoc) || readFileSync(vendoredRedoc, "utf8") !== redocBundle()) {
  console.error(
    "src/http/vendor/redoc.standalone.js differs from the installed redoc package's bundle. Run `npm run build` and commit the result.",
  );
  process.exit(1);
}
console.log("drift: src/http/vendor/redoc.standalone.js matches the redoc package");
const outOfStep = versionProblems();
if (outOfStep.length > 0) {
  console.error(`versions: ${outOfStep.join("; ")}. Release with \`npm run release\`, which keeps them in step.`);
  process.exit(1);
}
console.log("versions: the packages are at the contract's version");
// Cached by content in node_modules/.cache/prettier, as ESLint is; a fresh clone (CI) checks every file.
run(join(root, "node_modules/.bin/prettier"), [
  "--check",
  "--cache",
  "--cache-strategy",
  "content",
  "--log-level",
  "warn",
  ".",
]);
console.log("format: every file is as Prettier writes it");
run(process.execPath, [join(root, "scripts/lint.ts")]);
run(join(root, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"]);
run(process.execPath, [join(root, "scripts/check-breaking.ts")]);
console.log("check: ok");
