// The published packages (packages/*), built from the contract:
//   @project-builder/contract  generated/'s documents and types and CHANGELOG.md, copied byte for byte
//   @project-builder/client    packages/client/src compiled by tsc to dist/ (ESM JavaScript and .d.ts)
//   @project-builder/mock      packages/mock/src compiled likewise (the `project-builder-mock` bin)
//   @project-builder/mcp       packages/mcp/src compiled likewise (the `project-builder-mcp` bin); a
//                              pipe to the server's /mcp, so it needs nothing of the contract
// generated/ stays the one committed copy of the contract: the contract package's files are
// git-ignored copies, made here. The client's idempotent-route table (packages/client/src/
// idempotent-routes.ts) is generated from the document by `npm run build` and committed, like
// generated/, and checked for drift by `npm run check`.
//
//   node scripts/packages.ts [contract|client|mock|mcp …]   # all of them when none is named
//
// Run by `npm ci` (prepare), `npm run build`, and each package's `prepack` (so `npm pack` and
// `npm publish` always pack a fresh build). Only files whose content changed are written, each
// atomically, so a test reading dist/ never sees one half written while another test packs.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { parse } from "yaml";

const root = join(import.meta.dirname, "..");
export const packagesDir = join(root, "packages");
export const packageNames = ["contract", "client", "mock", "mcp"] as const;
export type PackageName = (typeof packageNames)[number];
/** The packages built on the contract, which depend on it at its version. */
const onContract: readonly PackageName[] = ["client", "mock"];

/** The contract package's files and where each comes from, byte for byte. */
export const contractFiles: Readonly<Record<string, string>> = {
  "openapi.yaml": "generated/openapi.yaml",
  "openapi.json": "generated/openapi.json",
  "openapi.3.1.yaml": "generated/openapi.3.1.yaml",
  "index.d.ts": "generated/schema.d.ts",
  "CHANGELOG.md": "CHANGELOG.md",
};

export const idempotentRoutesFile = join(packagesDir, "client/src/idempotent-routes.ts");

/** Writes `content` to `path` unless it already holds exactly that; through a rename, so readers see the old file or the new one. */
function writeIfChanged(path: string, content: Buffer | string): void {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  if (existsSync(path) && readFileSync(path).equals(bytes)) return;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

const methods = ["get", "put", "post", "patch", "delete"] as const;

/** packages/client/src/idempotent-routes.ts from the document: `METHOD /path` of each operation that declares an `Idempotency-Key` header. */
export function renderIdempotentRoutes(openapiYaml: string): string {
  type Parameter = { $ref?: string; in?: string; name?: string };
  const document = parse(openapiYaml) as {
    paths: Record<string, Partial<Record<(typeof methods)[number], { parameters?: Parameter[] }>>>;
    components?: { parameters?: Record<string, Parameter> };
  };
  const resolve = (parameter: Parameter) =>
    parameter.$ref
      ? document.components?.parameters?.[decodeURIComponent(parameter.$ref.replace("#/components/parameters/", ""))]
      : parameter;
  const routes = Object.entries(document.paths).flatMap(([path, item]) =>
    methods
      .filter((method) =>
        item[method]?.parameters?.some((p) => resolve(p)?.in === "header" && resolve(p)?.name === "Idempotency-Key"),
      )
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
  return `// Generated from the contract (openapi.yaml) by scripts/packages.ts. Do not edit: change spec/ and run \`npm run build\`.

/** \`METHOD /path/{template}\` of every operation that takes an Idempotency-Key: the client adds one to these. */
export const idempotentRoutes: ReadonlySet<string> = new Set([
${routes.map((route) => `  ${JSON.stringify(route)},`).join("\n")}
]);
`;
}

/** Copies the contract's files into packages/contract. */
function buildContract(): void {
  for (const [file, source] of Object.entries(contractFiles))
    writeIfChanged(join(packagesDir, "contract", file), readFileSync(join(root, source)));
}

/**
 * tsc rewrites the sources' relative `./x.ts` imports to `./x.js` in the JavaScript it emits, but not
 * in the declarations (microsoft/TypeScript#61037): TypeScript reads those either way, other tools
 * (editors, the types' checkers) look for a file that is not there.
 */
function withJsSpecifiers(declarations: string): string {
  return declarations.replace(/(\bfrom\s+|\bimport\s*\(\s*)(["'])(\.\.?\/[^"']+)\.ts\2/g, "$1$2$3.js$2");
}

/** tsc over a package's src/ into a temporary folder, then its dist/ made equal to that folder's files. */
function compile(name: PackageName): void {
  const dir = join(packagesDir, name);
  const out = mkdtempSync(join(tmpdir(), `pb-${name}-`));
  try {
    try {
      execFileSync(join(root, "node_modules/.bin/tsc"), ["-p", join(dir, "tsconfig.json"), "--outDir", out], {
        cwd: dir,
        stdio: "pipe",
      });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
      process.stderr.write(`${stdout?.toString() ?? ""}${stderr?.toString() ?? ""}`);
      throw new Error(`packages/${name}: tsc failed`, { cause: error });
    }
    const built = readdirSync(out, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    const dist = join(dir, "dist");
    const wanted = new Set(built.map((entry) => relative(out, join(entry.parentPath, entry.name))));
    for (const file of wanted) {
      mkdirSync(dirname(join(dist, file)), { recursive: true });
      const content = readFileSync(join(out, file));
      writeIfChanged(join(dist, file), file.endsWith(".d.ts") ? withJsSpecifiers(content.toString()) : content);
    }
    if (existsSync(dist)) {
      for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
        const file = relative(dist, join(entry.parentPath, entry.name));
        if (entry.isFile() && !wanted.has(file)) rmSync(join(dist, file));
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Builds the named packages (all when none): the contract's copy first, which the others compile against. */
export function buildPackages(names: readonly PackageName[] = packageNames): void {
  buildContract();
  for (const name of names) if (name !== "contract") compile(name);
}

// ---------------------------------------------------------------------------------------------
// Versions: the packages are released together, at the contract's version

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

export const readManifest = (name: PackageName): Manifest =>
  JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8")) as Manifest;

/** The contract's version: `info.version` of generated/openapi.yaml (spec/main.tsp). */
export function contractVersion(): string {
  return (parse(readFileSync(join(root, "generated/openapi.yaml"), "utf8")) as { info: { version: string } }).info
    .version;
}

/** What keeps the packages out of step with the contract and the changelog; empty when in step. */
export function versionProblems(): string[] {
  const version = contractVersion();
  const problems: string[] = [];
  for (const name of packageNames) {
    const manifest = readManifest(name);
    if (manifest.version !== version) problems.push(`${manifest.name} is ${manifest.version}, the contract ${version}`);
    const contract = manifest.dependencies?.["@project-builder/contract"];
    if (onContract.includes(name) && contract !== version)
      problems.push(`${manifest.name} depends on @project-builder/contract ${contract}, not ${version}`);
  }
  const changelog = readFileSync(join(root, "CHANGELOG.md"), "utf8");
  if (!new RegExp(`^## ${version.replaceAll(".", "\\.")}\\b`, "m").test(changelog))
    problems.push(`CHANGELOG.md has no "## ${version}" section`);
  return problems;
}

if (import.meta.main) {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !(packageNames as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`packages: no package ${unknown.join(", ")} (known: ${packageNames.join(", ")})`);
    process.exit(1);
  }
  buildPackages(names.length > 0 ? (names as PackageName[]) : packageNames);
  console.log(`packages: built ${names.length > 0 ? names.join(", ") : packageNames.join(", ")}`);
}
