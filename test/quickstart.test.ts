// README.md's quick start, run as a reader runs it: its `npm start` line starts the server (on
// ports and a data directory of its own, through the variables the README names), then its second
// block runs as written in bash, the API's address alone pointed at that server. It must end with
// the project ready through `pbs wait`, a deployment ready with an address, and that address
// answering with an HTML page, so the README's commands cannot drift from what works.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, it } from "vitest";
import { openApp } from "./support/apps-client.ts";
import { repoRoot, run } from "./support/process.ts";

/** The fenced sh blocks of README.md's `## Quick start` section, each as its text. */
function quickStartBlocks(): string[] {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf("\n## Quick start\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

// Both terminals: the README's variables, and nothing of the test run's that would change what
// they do (a database, a public URL, a model, a key). DATA_DIR is the test's own, made by the test.
const env: Record<string, string> = {
  PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
  PORT: "0",
  APPS_PORT: "0",
  DATABASE_URL: "",
  REDIS_URL: "",
  PUBLIC_URL: "",
  AGENT_BASE_URL: "",
  PB_API_KEY: "",
  LOG_LEVEL: "",
};
let server: ChildProcess | undefined;

afterAll(async () => {
  if (server?.pid) {
    // npm, and the server it started, are the process group bash led: each is gone before the
    // data directory is removed (the server writes to it until it has stopped).
    const group = -server.pid;
    const alive = () => {
      try {
        process.kill(group, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (alive()) process.kill(group, "SIGTERM");
    for (let waited = 0; alive() && waited < 15_000; waited += 50) await sleep(50);
    if (alive()) process.kill(group, "SIGKILL");
  }
  if (env.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
});

/** Runs the `npm start` line in bash, as its own process group; resolves with the API's and the apps' addresses. */
function start(line: string): Promise<{ url: string; appsUrl: string }> {
  const child = spawn("bash", ["-c", line], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
  });
  server = child;
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      // npm's own lines ("> project-builder-api@… start") come first; the server logs JSON.
      for (const line of lines.filter((text) => text.startsWith("{"))) {
        const { msg, url, apps } = JSON.parse(line) as { msg: string; url?: string; apps?: string };
        if (msg === "listening") {
          const local = (address: string) => address.replace("0.0.0.0", "127.0.0.1");
          resolve({ url: local(url!), appsUrl: local(apps!) });
        }
      }
    });
    child.on("exit", (code) => reject(new Error(`npm start exited with ${code} before listening`)));
    child.on("error", reject);
  });
}

it("starts the server, waits for a project and its deployment, and the app answers", async () => {
  const [install, terminal] = quickStartBlocks();
  const [npmCi, npmStart, ...rest] = install!.trimEnd().split("\n");
  expect(npmCi).toBe("npm ci");
  expect(npmStart).toMatch(/^npm start\b/);
  expect(rest).toEqual([]);
  // `npm ci` is not run: this checkout's dependencies are installed, and installing them again would
  // take minutes and replace node_modules under every other test running from it.

  env.DATA_DIR = mkdtempSync(join(tmpdir(), "pbs-quickstart-"));
  const { url, appsUrl } = await start(npmStart!);

  const readmeApi = "API=http://127.0.0.1:8080 ";
  expect(terminal).toContain(readmeApi);
  const script = terminal!.replace(readmeApi, `API=${url} `);
  const { code, stdout, stderr } = await run("bash", ["-e", "-c", script], env);
  expect(code, `${stdout}\n${stderr}`).toBe(0);

  const [, projectId] = /^(prj_\w+) ready$/m.exec(stdout) ?? [];
  expect(projectId, stdout).toBeDefined();
  const [, , appUrl] = /^(dpl_\w+) ready (http:\/\/\S+)$/m.exec(stdout) ?? [];
  expect(appUrl, stdout).toMatch(/^http:\/\/[a-z0-9-]+\.localhost:\d+\//);

  // Node does not resolve `*.localhost` as browsers do: openApp asks the apps listener with its Host.
  const app = await openApp(appsUrl, appUrl!);
  expect(app.status).toBe(200);
  expect(app.headers["content-type"]).toMatch(/^text\/html/);
  expect(app.text).toMatch(/<html/i);
}, 180_000);
