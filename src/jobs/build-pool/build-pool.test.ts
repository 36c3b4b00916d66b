import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { AgentError } from "../../agents/agent.ts";
import { editProject, type BuiltinRequest } from "../../agents/builtin/edit.ts";
import { diffContents, LEFT_OUT, type DiffRequest } from "../../domain/file-diff.ts";
import { BuildError, buildSite } from "./build-site.ts";
import { createBuildPool, type BuildPool, type BuildPoolOptions } from "./build-pool.ts";

const encoder = new TextEncoder();
const site = new Map([
  ["index.html", encoder.encode('<html><head></head><body><script src="main.ts"></script></body></html>')],
  ["main.ts", encoder.encode('import "./a.css";\nconsole.log(1 as number);\n')],
  ["a.css", encoder.encode("b { color: red }")],
]);
const request: BuiltinRequest = {
  agent: "coding-agent-1",
  prompt: "Make it dark",
  project: { name: "Mine", template: "blank" },
  initial: false,
  files: { "index.html": "<!--".repeat(100_000) },
};
const running = () => new AbortController().signal;

let pools: BuildPool[] = [];
afterEach(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  pools = [];
});

function pool(options: Partial<BuildPoolOptions> = {}): BuildPool {
  const created = createBuildPool({ threads: 1, timeoutMs: 60_000, ...options });
  pools.push(created);
  return created;
}

/** This process's child processes named `name`, zombies included (they have exited but were never reaped). */
function children(name: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // pid (comm) state ppid …
        const [, comm, ppid] = /^\d+ \((.*)\) \S+ (\d+) /.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))!;
        return comm === name && Number(ppid) === process.pid;
      } catch {
        return false; // gone since the directory was listed
      }
    })
    .map(Number);
}

describe("build pool", () => {
  it("builds and edits in a thread exactly as in this one", async () => {
    const threads = pool();
    expect(await threads.buildSite(site)).toEqual(await buildSite(site));
    expect(await threads.editProject(request, running())).toEqual(editProject(request));
  });

  it("diffs files in a thread exactly as in this one, and past its time limit leaves every patch out", async () => {
    const diffs: DiffRequest = {
      pairs: [
        { path: "a.txt", before: encoder.encode("one\ntwo\n"), after: encoder.encode("one\n2\n") },
        { path: "b.bin", before: null, after: new Uint8Array([0, 1]) },
      ],
      budgetMs: 1000,
    };
    const { diffs: inThread } = await pool().diffFiles(diffs);
    expect(inThread).toEqual(diffContents(diffs).diffs);
    expect(await pool({ timeoutMs: 1 }).diffFiles(diffs)).toEqual({ diffs: [LEFT_OUT, LEFT_OUT], spentMs: 1000 });
  });

  it("keeps a BuildError a BuildError", async () => {
    const error = await pool()
      .buildSite(new Map([["app.ts", encoder.encode("")]]))
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).message).toBe("The build needs an index.html at the project's root.");
  });

  it("fails a build or an edit past its time limit with an error naming it", async () => {
    // A thread takes longer than 1 ms to start, let alone to build.
    const threads = pool({ timeoutMs: 1 });
    await expect(threads.buildSite(site)).rejects.toThrow(new BuildError("The build passed its time limit of 1 ms."));
    await expect(threads.editProject(request, running())).rejects.toThrow(
      new AgentError(
        "agent_error",
        "The built-in agent passed its time limit of 1 ms while editing the project's files.",
      ),
    );
  });

  it("fails a build past its memory limit with an error naming it", async () => {
    // A page of 5 MiB that is one tag with 740,000 attributes, all kept until the tag ends.
    const pages = new Map([...site, ["many.html", encoder.encode("<a x=1 ".repeat(740_000))]]);
    const error = await pool({ memoryMb: 32 })
      .buildSite(pages)
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).message).toBe("The build passed its memory limit of 32 MB.");
  });

  it("leaves no esbuild process behind, running or a zombie, after a build, when a thread is replaced or the pool closes", async () => {
    const before = children("esbuild");
    const esbuilds = () => children("esbuild").filter((pid) => !before.includes(pid));
    const threads = pool();
    await threads.buildSite(site);
    expect(esbuilds()).toEqual([]);
    // A task cut short retires its thread. This one (an edit of 5,000,000 tags: seconds of work)
    // keeps its thread busy past the second a retired thread has to answer, so the thread is
    // terminated mid-task: an esbuild service it still held would be left a zombie.
    await expect(
      threads.editProject({ ...request, files: { "index.html": "<a ".repeat(5_000_000) } }, AbortSignal.timeout(1)),
    ).rejects.toThrow();
    await threads.buildSite(site);
    expect(esbuilds()).toEqual([]);
    await threads.close();
    expect(esbuilds()).toEqual([]);
  });
});
