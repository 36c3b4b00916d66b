// Derives everything in generated/ from spec/: the OpenAPI documents (3.0 canonical, in YAML and
// JSON; 3.1 for publishing), the openapi-typescript types, the typed server stubs and the MCP tools. Deterministic, so that
// `npm run check` can rebuild into a temporary directory and compare byte for byte.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { renderHandlers } from "./handlers-template.ts";
import { renderMcpTools } from "./mcp-tools-template.ts";

export const root = resolve(import.meta.dirname, "..");
export const generatedFiles = [
  "openapi.yaml",
  "openapi.json",
  "openapi.3.1.yaml",
  "schema.d.ts",
  "handlers.ts",
  "mcp-tools.ts",
] as const;

const bin = (name: string) => join(root, "node_modules", ".bin", name);

/** Runs a tool, showing its output only when it fails (the compilers are chatty on success). */
function quietly(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { cwd: root, stdio: "pipe" });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${stdout?.toString() ?? ""}${stderr?.toString() ?? ""}`);
    throw new Error(`${command.split("/").pop()} failed`, { cause: error });
  }
}

export function generate(outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  const tspOut = mkdtempSync(join(tmpdir(), "tsp-"));
  try {
    quietly(bin("tsp"), ["compile", join(root, "spec/main.tsp"), "--output-dir", tspOut, "--warn-as-error"]);
    copyFileSync(join(tspOut, "@typespec/openapi3/3.0.0/openapi.yaml"), join(outDir, "openapi.yaml"));
    copyFileSync(join(tspOut, "@typespec/openapi3/3.1.0/openapi.yaml"), join(outDir, "openapi.3.1.yaml"));
    // The same 3.0 document as JSON: what the server loads at start (parsing the YAML took ~0.4 s).
    const document: unknown = parse(readFileSync(join(outDir, "openapi.yaml"), "utf8"));
    writeFileSync(join(outDir, "openapi.json"), `${JSON.stringify(document, null, 2)}\n`);
  } finally {
    rmSync(tspOut, { recursive: true, force: true });
  }
  quietly(bin("openapi-typescript"), [
    join(outDir, "openapi.yaml"),
    ...["--output", join(outDir, "schema.d.ts"), "--default-non-nullable", "false", "--root-types"],
  ]);
  writeFileSync(join(outDir, "handlers.ts"), renderHandlers(readFileSync(join(outDir, "openapi.yaml"), "utf8")));
  writeFileSync(join(outDir, "mcp-tools.ts"), renderMcpTools(readFileSync(join(outDir, "openapi.3.1.yaml"), "utf8")));
}
