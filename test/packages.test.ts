// The published packages as people install them: `npm pack` each of packages/* once, install the
// tarballs into a fresh project outside the repository with the commands the packages' READMEs give,
// and there, with nothing of the repository on the way: the client from plain Node 22 and 24
// against a running server, a consumer's strict TypeScript (nodenext and bundler), an esbuild
// browser bundle in Chromium, the contract's documents through its exports, the mock's bin with a
// preflight, the MCP bridge's bin under the SDK's stdio client against a running server; publint and
// Are the Types Wrong on each tarball, and `npm publish --dry-run`. Node 22 is fetched once per
// machine from the npm registry (the `node` package) into ~/.cache.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type * as ClientPackage from "@project-builder/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationMeta } from "../generated/handlers.ts";
import { mcpTools } from "../generated/mcp-tools.ts";
import { contractFiles } from "../scripts/packages.ts";
import { describeWithBrowser, launchBrowser } from "./support/browser.ts";
import { responseErrors } from "./support/contract.ts";
import { pgliteDriver } from "./support/database.ts";
import { freePort } from "./support/net.ts";
import { repoRoot } from "./support/process.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

/** The Node 22 the client is tried with: pinned, so every run tries the same one. */
const NODE_22 = "22.23.3";
const packages = ["contract", "client", "mock", "mcp"] as const;
/** The packages built on the contract, handed over together: each one's README packs all three. */
const onContract = ["contract", "client", "mock"] as const;
const bin = (name: string) => join(repoRoot, "node_modules/.bin", name);

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (never throws for its exit code). */
async function exec(
  program: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(program, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number | string; stdout?: string; stderr?: string };
    return { code: typeof code === "number" ? code : null, stdout: stdout ?? "", stderr: stderr ?? String(error) };
  }
}

/** Like exec, but fails (with the program's output) unless it exits 0. */
async function succeed(
  program: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<string> {
  const ran = await exec(program, args, options);
  if (ran.code !== 0)
    throw new Error(`${program} ${args.join(" ")} exited with ${ran.code}:\n${ran.stdout}\n${ran.stderr}`);
  return ran.stdout;
}

/**
 * Node 22's binary, installed once per machine from the npm registry into the user's cache (as
 * .ci/run installs Node 24 into /tmp/node24): a fresh clone does not fetch it again. Installed beside
 * and moved into place whole, so a run at the same time never sees half of it.
 */
async function node22(): Promise<string> {
  const prefix = join(homedir(), ".cache", "project-builder-api", `node-${NODE_22}`);
  const binary = join(prefix, "node_modules/node/bin/node");
  const works = async () =>
    existsSync(binary) && (await exec(binary, ["--version"], { cwd: prefix })).stdout.trim() === `v${NODE_22}`;
  if (await works()) return binary;
  const partial = `${prefix}.${process.pid}.partial`;
  mkdirSync(partial, { recursive: true });
  await succeed("npm", ["install", "--prefix", partial, "--no-save", "--no-audit", "--no-fund", `node@${NODE_22}`], {
    cwd: partial,
  });
  rmSync(prefix, { recursive: true, force: true });
  try {
    renameSync(partial, prefix);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another run moved its own into place first
  }
  if (!(await works())) throw new Error(`Node ${NODE_22} did not install into ${prefix}`);
  return binary;
}

/** Every file under `dir`, with its size. */
function filesUnder(dir: string): { path: string; size: number }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, size: statSync(path).size };
    });
}

/** The packages installed in a project's node_modules (name → version), scoped ones included. */
function installedPackages(project: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const { path } of filesUnder(join(project, "node_modules"))) {
    if (!path.endsWith("/package.json")) continue;
    const manifest = JSON.parse(readFileSync(path, "utf8")) as { name?: string; version?: string };
    const folder = dirname(path);
    if (manifest.name && manifest.version && folder.endsWith(`node_modules/${manifest.name}`))
      found[manifest.name] = manifest.version;
  }
  return found;
}

/**
 * The arguments of the `npm install` of tarballs that packages/<name>/README.md gives its readers
 * (`npm install [--save-dev] ./project-builder-contract-*.tgz …`), each tarball's glob resolved to
 * the one packed tarball it matches.
 */
function documentedInstall(name: (typeof packages)[number]): string[] {
  const readme = readFileSync(join(repoRoot, "packages", name, "README.md"), "utf8");
  const command = readme.split("\n").find((line) => /^npm install .*\.tgz/.test(line));
  if (!command) throw new Error(`packages/${name}/README.md gives no npm install of its tarball`);
  return command
    .replace(/#.*/, "")
    .trim()
    .split(/\s+/)
    .slice(2)
    .map((argument) => {
      if (!argument.endsWith(".tgz")) return argument;
      const glob = new RegExp(`^${argument.replace(/^\.\//, "").replaceAll(".", "\\.").replaceAll("*", "[^/]*")}$`);
      const matches = Object.values(tarballs).filter((tarball) => glob.test(basename(tarball)));
      if (matches.length !== 1)
        throw new Error(`packages/${name}/README.md installs ${argument}, which matches ${matches.length} tarballs`);
      return matches[0]!;
    });
}

let work: string;
let tarballs: Record<(typeof packages)[number], string>;
let packed: Record<string, string[]>;
let consumer: string;
let alone: { bytes: number; packages: Record<string, string> };
let server: TestServer;
let node24: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "pb-packages-"));
  const destination = join(work, "tarballs");
  mkdirSync(destination);
  // Once for all three, as a release does (each package's prepack builds it first).
  const workspaces = packages.flatMap((name) => ["-w", `packages/${name}`]);
  const output = await succeed("npm", ["pack", ...workspaces, "--pack-destination", destination, "--json"], {
    cwd: repoRoot,
  });
  const report = JSON.parse(output.slice(output.search(/^\[/m))) as {
    name: string;
    filename: string;
    files: { path: string }[];
  }[];
  tarballs = Object.fromEntries(
    report.map((entry) => [entry.name.replace("@project-builder/", ""), join(destination, entry.filename)]),
  ) as typeof tarballs;
  packed = Object.fromEntries(report.map((entry) => [entry.name, entry.files.map((file) => file.path).sort()]));

  consumer = join(work, "consumer");
  cpSync(join(repoRoot, "test/fixtures/consumer"), consumer, { recursive: true });
  const install = (...specs: string[]) =>
    succeed("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", ...specs], {
      cwd: consumer,
    });
  // As the packages' READMEs say: the client with its contract, then the mock.
  await install(...documentedInstall("client"));
  alone = {
    bytes: filesUnder(join(consumer, "node_modules"))
      .filter(({ path }) => !path.includes("/node_modules/.package-lock.json"))
      .reduce((sum, file) => sum + file.size, 0),
    packages: installedPackages(consumer),
  };
  await install(...documentedInstall("mock"));

  node24 = process.execPath;
  server = await startTestServer(pgliteDriver, { webhooks: { deliver: true, allowPrivateNetworks: true } });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the tarballs", () => {
  it("hold the built files only: documents and types, compiled JavaScript and declarations", () => {
    expect(packed["@project-builder/contract"]).toEqual(
      [...Object.keys(contractFiles), "LICENSE", "README.md", "package.json"].sort(),
    );
    for (const name of ["@project-builder/client", "@project-builder/mock", "@project-builder/mcp"]) {
      const files = packed[name]!;
      expect(files.filter((file) => !file.startsWith("dist/")).sort(), name).toEqual([
        "LICENSE",
        "README.md",
        "package.json",
      ]);
      expect(
        files.filter((file) => file.startsWith("dist/")).every((file) => /\.(js|d\.ts)$/.test(file)),
        name,
      ).toBe(true);
    }
    expect(packed["@project-builder/client"]).toEqual(
      expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/node.js", "dist/node.d.ts"]),
    );
    expect(packed["@project-builder/mcp"]).toEqual(
      expect.arrayContaining(["dist/cli.js", "dist/index.js", "dist/index.d.ts"]),
    );
  });

  it("are those the packages' READMEs make and install, each its own with the contract (the MCP bridge alone)", () => {
    for (const name of packages) {
      const readme = readFileSync(join(repoRoot, "packages", name, "README.md"), "utf8");
      const built = name === "mcp" ? [name] : onContract;
      expect(readme, name).toContain(`npm pack ${built.map((each) => `-w packages/${each}`).join(" ")} `);
      expect(
        documentedInstall(name)
          .filter((argument) => argument.endsWith(".tgz"))
          .sort(),
        name,
      ).toEqual([...new Set([...(name === "mcp" ? [] : [tarballs.contract]), tarballs[name]])].sort());
    }
  });

  it("install client and contract alone in 3.5 MB at most, with none of the server's dependencies", () => {
    const serverDependencies = Object.keys(
      (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { dependencies: object }).dependencies,
    );
    expect(Object.keys(alone.packages).sort()).toEqual([
      "@project-builder/client",
      "@project-builder/contract",
      "eventsource-parser",
      "openapi-fetch",
      "openapi-typescript-helpers",
    ]);
    expect(Object.keys(alone.packages).filter((name) => serverDependencies.includes(name))).toEqual([]);
    expect(alone.bytes).toBeLessThanOrEqual(3_500_000);
    console.log(
      `client + contract installed: ${(alone.bytes / 1e6).toFixed(2)} MB in ${Object.keys(alone.packages).length} packages`,
    );
  });

  it("pass publint and Are the Types Wrong (ESM only: no CommonJS entry to check) with no problem", async () => {
    for (const name of packages) {
      const lint = await exec(bin("publint"), ["run", tarballs[name], "--strict"], { cwd: work });
      expect(lint.code, `publint ${name}:\n${lint.stdout}${lint.stderr}`).toBe(0);
      // The contract's YAML and Markdown subpaths are files, not modules: nothing for TypeScript to resolve.
      const notModules =
        name === "contract" ? ["--exclude-entrypoints", "./openapi.yaml", "./openapi.3.1.yaml", "./CHANGELOG.md"] : [];
      const types = await exec(
        bin("attw"),
        [tarballs[name], "--profile", "esm-only", "--format", "ascii", ...notModules],
        { cwd: work },
      );
      expect(types.code, `attw ${name}:\n${types.stdout}${types.stderr}`).toBe(0);
    }
  }, 120_000);

  it("pass `npm publish --dry-run` (nothing is published)", async () => {
    const workspaces = packages.flatMap((name) => ["-w", `packages/${name}`]);
    // The packs above ran each package's prepack (its build): publish what they built.
    const published = await exec("npm", ["publish", "--dry-run", "--ignore-scripts", ...workspaces], {
      cwd: repoRoot,
    });
    expect(published.code, published.stderr).toBe(0);
    for (const name of packages) expect(published.stdout).toContain(`+ @project-builder/${name}@`);
  }, 120_000);
});

describe("@project-builder/contract, installed", () => {
  it("resolves its documents through its exports, byte for byte those of generated/", async () => {
    const resolve = `for (const file of process.argv.slice(1)) console.log(import.meta.resolve("@project-builder/contract/" + file));`;
    const documents = ["openapi.yaml", "openapi.json", "openapi.3.1.yaml", "CHANGELOG.md"];
    const urls = (await succeed(node24, ["--input-type=module", "-e", resolve, ...documents], { cwd: consumer }))
      .trim()
      .split("\n");
    expect(urls).toHaveLength(documents.length);
    for (const [i, file] of documents.entries()) {
      const installed = new URL(urls[i]!).pathname;
      expect(installed.startsWith(join(consumer, "node_modules/@project-builder/contract/")), installed).toBe(true);
      expect(readFileSync(installed).equals(readFileSync(join(repoRoot, contractFiles[file]!))), file).toBe(true);
    }
    expect(
      readFileSync(join(consumer, "node_modules/@project-builder/contract/index.d.ts")).equals(
        readFileSync(join(repoRoot, "generated/schema.d.ts")),
      ),
    ).toBe(true);
  });
});

/** What test/fixtures/consumer/node-client.mjs prints: what it saw, and the delivery it verified. */
interface ConsumerRun {
  node: string;
  got: unknown;
  paginated: unknown;
  error: unknown;
  webhook: unknown;
  nodeRequest: unknown;
  stream: unknown;
  delivery: { secret: string; headers: Record<string, string>; body: string };
}

describe("@project-builder/client, installed", () => {
  // One run per Node version, shared by the tests that read it (the browser verifies its delivery).
  const runs = new Map<string, Promise<ConsumerRun>>();
  const runClient = (version: "22" | "24") => {
    if (!runs.has(version)) {
      runs.set(
        version,
        (async () => {
          const node = version === "22" ? await node22() : node24;
          const env = {
            PB_API_KEY: await server.createKey({ workspace: `consumer-node-${version}` }),
            PB_BASE_URL: server.url,
          };
          return JSON.parse(await succeed(node, ["node-client.mjs"], { cwd: consumer, env })) as ConsumerRun;
        })(),
      );
    }
    return runs.get(version)!;
  };

  it.each(["22", "24"] as const)(
    "runs in plain Node %s: create, get, paginate, ApiError, a delivery the server signed verified, tampered refused, an event stream resumed",
    async (version) => {
      const seen = await runClient(version);
      expect(seen.node).toMatch(new RegExp(`^v${version}\\.`));
      expect(seen.got).toEqual({ id: true, name: "First" });
      expect(seen.paginated).toEqual(["Third", "Second", "First"]);
      expect(seen.error).toEqual({ apiError: true, status: 404, code: "not_found" });
      expect(seen.webhook).toEqual({
        verified: { type: "webhook.test", id: true },
        tampered: "no_matching_signature",
        wrongSecret: "no_matching_signature",
        fetchRequest: "webhook.test",
      });
      expect(seen.nodeRequest).toEqual({ genuine: "200 webhook.test", tampered: "400 no_matching_signature" });
      expect(seen.stream).toEqual({
        events: ["project.created evt_stream1 true", "project.created evt_stream2 true"],
        lastEventIds: [null, "evt_stream1"],
      });
    },
    120_000,
  );

  it.each(["nodenext", "bundler"])(
    "type-checks a consumer's strict TypeScript (moduleResolution %s): right uses compile, wrong paths and fields do not",
    async (resolution) => {
      const compiled = await exec(bin("tsc"), ["-p", `tsconfig.${resolution}.json`], { cwd: consumer });
      expect(compiled.stdout + compiled.stderr).toBe("");
      expect(compiled.code).toBe(0);
    },
    120_000,
  );

  describeWithBrowser("bundled by esbuild for the browser", () => {
    let page: Server;
    let origin: string;
    beforeAll(async () => {
      // esbuild refuses `node:` imports with --platform=browser: the bundle is the proof there are none.
      await succeed(
        bin("esbuild"),
        ["browser-entry.mjs", "--bundle", "--platform=browser", "--format=esm", "--outfile=bundle.js"],
        { cwd: consumer },
      );
      const bundle = readFileSync(join(consumer, "bundle.js"));
      page = createServer((req, res) => {
        if (req.url === "/bundle.js") res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
        else
          res
            .writeHead(200, { "content-type": "text/html" })
            .end('<!doctype html><script type="module" src="/bundle.js"></script>');
      });
      await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
      origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    }, 120_000);
    afterAll(() => new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve())));

    it("verifies the delivery the server signed in Chromium, refuses it tampered, and calls the mock across origins", async () => {
      const { delivery } = await runClient("24");
      const mock = await startMockBin("24");
      const browser = await launchBrowser();
      try {
        const tab = await browser.newPage();
        await tab.goto(origin);
        await tab.waitForFunction(() => "projectBuilder" in globalThis);
        const seen = await tab.evaluate(
          async ({ delivery, mockUrl }) => {
            const { createClient, verifyWebhook, WebhookVerificationError } = (
              globalThis as unknown as { projectBuilder: typeof ClientPackage }
            ).projectBuilder;
            const event = await verifyWebhook(delivery.secret, delivery.headers, delivery.body);
            const tampered = await verifyWebhook(
              delivery.secret,
              delivery.headers,
              delivery.body.replace('"webhook.test"', '"project.deleted"'),
            ).then(
              () => "verified",
              (error: Error) => (error instanceof WebhookVerificationError ? error.reason : String(error)),
            );
            const client = createClient({ apiKey: "svc_test_browser", baseUrl: mockUrl });
            const project = await client.GET("/v1/projects/{project_id}", {
              params: { path: { project_id: "prj_8kF2mQ9xLp3vR7tZ" } },
            });
            return {
              type: event.type,
              tampered,
              project: project.id,
              secureContext: (globalThis as unknown as { isSecureContext: boolean }).isSecureContext,
            };
          },
          { delivery, mockUrl: mock.url },
        );
        expect(seen).toEqual({
          type: "webhook.test",
          tampered: "no_matching_signature",
          project: "prj_8kF2mQ9xLp3vR7tZ",
          secureContext: true,
        });
      } finally {
        await browser.close();
      }
    }, 120_000);
  });
});

// ---------------------------------------------------------------------------------------------
// The mock's bin

const mocks = new Map<string, Promise<{ url: string; child: ChildProcess; output: string[] }>>();
const mockOptions = { "22": ["--dynamic"], "24": [] } as const;
afterAll(async () => {
  for (const mock of mocks.values()) (await mock.catch(() => undefined))?.child.kill();
});

/**
 * `project-builder-mock --port N --host 127.0.0.1` as a frontend team runs it (the bin on PATH,
 * under Node `version`; `--dynamic` under 22), resolved once it says where it listens.
 */
function startMockBin(version: "22" | "24") {
  if (!mocks.has(version)) {
    mocks.set(
      version,
      (async () => {
        const node = version === "22" ? await node22() : node24;
        const port = await freePort();
        const args = ["--port", String(port), "--host", "127.0.0.1", ...mockOptions[version]];
        const child = spawn(join(consumer, "node_modules/.bin/project-builder-mock"), args, {
          cwd: consumer,
          env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` },
        });
        const output: string[] = [];
        const url = await new Promise<string>((resolve, reject) => {
          child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
            output.push(chunk);
            const listening = /mock is listening on (http:\/\/\S+)/.exec(output.join(""));
            if (listening) resolve(listening[1]!);
          });
          child.stderr.setEncoding("utf8").on("data", (chunk: string) => output.push(chunk));
          child.on("exit", (code) =>
            reject(new Error(`project-builder-mock exited with ${code}:\n${output.join("")}`)),
          );
        });
        return { url, child, output };
      })(),
    );
  }
  return mocks.get(version)!;
}

describe("@project-builder/mock, installed", () => {
  it.each(["22", "24"] as const)(
    "serves the contract with CORS under Node %s, preflight included",
    async (version) => {
      const mock = await startMockBin(version);
      expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const origin = "http://localhost:5173";
      const preflight = await fetch(`${mock.url}/v1/projects`, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "authorization, content-type",
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
      expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
      expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");

      const listed = await fetch(`${mock.url}/v1/projects`, {
        headers: { Origin: origin, Authorization: "Bearer svc_test_anything" },
      });
      expect(listed.status).toBe(200);
      expect(listed.headers.get("access-control-allow-origin")).toBe(origin);
      expect(await responseErrors("listProjects", 200, await listed.json())).toEqual([]);
      // The documented example, or with --dynamic a random project: either is valid against the contract.
      const got = await fetch(`${mock.url}/v1/projects/prj_8kF2mQ9xLp3vR7tZ`, {
        headers: { Authorization: "Bearer svc_test_anything" },
      });
      const project = (await got.json()) as { id: string };
      expect(await responseErrors("getProject", got.status, project)).toEqual([]);
      if (version === "22") expect(project.id).not.toBe("prj_8kF2mQ9xLp3vR7tZ");
      else expect(project.id).toBe("prj_8kF2mQ9xLp3vR7tZ");
      const refused = await fetch(`${mock.url}/v1/projects`, {
        method: "POST",
        headers: { Authorization: "Bearer svc_test_anything", "Content-Type": "application/json" },
        body: "{}",
      });
      // Refused as the server refuses it: 400 invalid_request naming the field.
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { code: string; param: string } }).error).toMatchObject({
        code: "invalid_request",
        param: "name",
      });
    },
    120_000,
  );
});

describe("@project-builder/mcp, installed", () => {
  let agent: string;
  let bridge: string;
  beforeAll(async () => {
    // A folder of its own, as a desktop agent's npx would make: nothing of the contract or the client.
    agent = join(work, "agent");
    mkdirSync(agent);
    await succeed(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", ...documentedInstall("mcp")],
      { cwd: agent },
    );
    bridge = join(agent, "node_modules/.bin/project-builder-mcp");
  }, 300_000);

  it.each(["22", "24"] as const)(
    "serves the server's tools over stdio under Node %s (through npx under 24), each call a request of the server with the key of PROJECT_BUILDER_API_KEY",
    async (version) => {
      const node = version === "22" ? await node22() : node24;
      const scopes = ["projects:read", "projects:write"];
      const key = await server.createKey({ workspace: `agent-mcp-${version}`, scopes });
      const transport = new StdioClientTransport({
        ...(version === "24"
          ? { command: "npx", args: ["--no-install", "project-builder-mcp", "--url", server.url] }
          : { command: node, args: [bridge, "--url", server.url] }),
        cwd: agent,
        env: { PROJECT_BUILDER_API_KEY: key, PATH: `${dirname(node)}:${process.env.PATH}` },
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const client = new Client({ name: "packages-test", version: "1.0.0" });
      try {
        await client.connect(transport);
        expect(client.getServerVersion()).toMatchObject({ name: "project-builder-api" });
        const { tools } = await client.listTools();
        const allowed = mcpTools
          .filter(({ tool }) => operationMeta[tool.name].scopes.every((scope) => scopes.includes(scope)))
          .map(({ tool }) => tool.name);
        expect(tools.map((tool) => tool.name).sort()).toEqual(allowed.sort());
        expect(allowed).toContain("createProject");
        const created = await client.callTool(
          {
            name: "createProject",
            arguments: { body: { name: `Through the bridge on ${version}`, prompt: "A clock" } },
          },
          CallToolResultSchema,
        );
        expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy();
        const { id } = created.structuredContent as { id: string };
        const read = await client.callTool({ name: "getProject", arguments: { project_id: id } }, CallToolResultSchema);
        expect(read.structuredContent).toMatchObject({ id, name: `Through the bridge on ${version}` });
        const requestId = (created._meta as Record<string, string>)["project-builder/request_id"]!;
        expect(await server.auditRow(requestId)).toMatchObject({
          tool: "createProject",
          status: 201,
          userAgent: expect.stringMatching(/^project-builder-mcp\/\d+\.\d+\.\d+$/),
        });
      } finally {
        await client.close();
      }
      expect(stderr).toBe("");
    },
    120_000,
  );

  it("refuses to start without PROJECT_BUILDER_API_KEY: one line on standard error, exit code 1", async () => {
    const ran = await exec(bridge, ["--url", server.url], { cwd: agent, env: { PROJECT_BUILDER_API_KEY: "" } });
    expect(ran).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "project-builder-mcp: set PROJECT_BUILDER_API_KEY to an API key (svc_live_… or svc_test_…) or an OAuth access token.\n",
    });
  });
});
