// A version's diff over HTTP on both storage drivers: what changed file by file (added, modified,
// deleted, binary) with unified patches, the base by default and asked for, the empty tree of
// version 1, the limits (a file over 1 MiB, the time budget), that only changed files are read, and
// that hostile files never hold up the server's answers to others.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import type { SchemaVersion } from "../generated/schema.d.ts";
import { diffContents, type DiffFiles } from "../src/domain/file-diff.ts";
import { applyFileChanges } from "../src/domain/files.ts";
import { getVersionDiff, MAX_DIFF_FILE_BYTES } from "../src/domain/version-diff.ts";
import { createVersion } from "../src/domain/versions.ts";
import { projects } from "../src/storage/schema.ts";
import { startProbe } from "./reliability/support/probe.ts";
import { expectApiError, expectBody } from "./support/api-client.ts";
import { forEachDriver } from "./support/database.ts";
import { suiteServer } from "./support/server.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const lines = (count: number, line: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => `${line(index)}\n`).join("");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);

forEachDriver("version diff", (driver) => {
  const server = suiteServer(driver);

  interface Project {
    readonly id: string;
    readonly partition: { workspaceId: string; environment: "live" | "test" };
  }

  async function newProject(name = "Diffs"): Promise<Project> {
    const { id } = expectBody(await server.client.post("/v1/projects", { name, prompt: "A page" }), 201);
    const [partition] = await server.storage.db
      .select({ workspaceId: projects.workspaceId, environment: projects.environment })
      .from(projects)
      .where(eq(projects.id, id));
    return { id, partition: partition! };
  }

  /** Writes (and deletes) the project's files, then records them as a checkpoint. */
  async function checkpoint(
    project: Project,
    writes: Record<string, string | Uint8Array>,
    deletes: string[] = [],
  ): Promise<SchemaVersion> {
    await server.storage.db.transaction((tx) =>
      applyFileChanges(tx, project.partition, project.id, {
        writes: Object.entries(writes).map(([path, content]) => ({
          path,
          content: typeof content === "string" ? encode(content) : content,
          contentType: "application/octet-stream",
        })),
        deletes,
      }),
    );
    return createVersion(server.storage.db, project.partition, project.id, { message: "checkpoint" });
  }

  async function diffOf(project: Project, version: SchemaVersion, base?: SchemaVersion) {
    const path = `/v1/projects/${project.id}/versions/${version.id}/diff` as const;
    return expectBody(await server.client.get(base ? `${path}?base=${base.id}` : path), 200);
  }

  it("lists the files that differ, sorted by path, with the + and - lines of each text change", async () => {
    const project = await newProject();
    const v1 = await checkpoint(project, {
      "src/app.js": "const a = 1;\nconst b = 2;\nconst c = 3;\n",
      "README.md": "# Notes\n",
      "logo.png": PNG,
      "same.txt": "unchanged\n",
    });
    const v2 = await checkpoint(
      project,
      {
        "src/app.js": "const a = 1;\nconst b = 20;\nconst c = 3;\n",
        "about.html": "<p>About</p>\n",
        "logo.png": PNG.map((byte) => byte ^ 1),
      },
      ["README.md"],
    );
    const diff = await diffOf(project, v2);
    expect(diff).toMatchObject({ base_version_id: v1.id, version_id: v2.id, truncated: false });
    expect(diff.files).toEqual([
      {
        path: "README.md",
        status: "deleted",
        additions: 0,
        deletions: 1,
        binary: false,
        patch: "--- a/README.md\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-# Notes\n",
      },
      {
        path: "about.html",
        status: "added",
        additions: 1,
        deletions: 0,
        binary: false,
        patch: "--- /dev/null\n+++ b/about.html\n@@ -0,0 +1,1 @@\n+<p>About</p>\n",
      },
      { path: "logo.png", status: "modified", additions: 0, deletions: 0, binary: true, patch: null },
      {
        path: "src/app.js",
        status: "modified",
        additions: 1,
        deletions: 1,
        binary: false,
        patch:
          "--- a/src/app.js\n+++ b/src/app.js\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n const c = 3;\n",
      },
    ]);
  });

  it("diffs version 1 against the empty tree, and a version against any base of its project", async () => {
    const project = await newProject();
    const v1 = await checkpoint(project, { "index.html": "<h1>Hi</h1>\n" });
    const v2 = await checkpoint(project, { "index.html": "<h1>Hello</h1>\n" });
    const v3 = await checkpoint(project, { "style.css": "h1 { color: teal }\n" });
    const first = await diffOf(project, v1);
    expect(first).toMatchObject({ base_version_id: null, version_id: v1.id, truncated: false });
    expect(first.files).toEqual([
      expect.objectContaining({
        path: "index.html",
        status: "added",
        additions: 1,
        patch: expect.stringContaining("+<h1>Hi</h1>"),
      }),
    ]);
    // The default base is the version before: v3 only added the stylesheet.
    expect((await diffOf(project, v3)).files.map((file) => [file.path, file.status])).toEqual([["style.css", "added"]]);
    const againstFirst = await diffOf(project, v3, v1);
    expect(againstFirst.base_version_id).toBe(v1.id);
    expect(againstFirst.files.map((file) => [file.path, file.status])).toEqual([
      ["index.html", "modified"],
      ["style.css", "added"],
    ]);
    // Backwards is a diff too, and a version against itself has none.
    expect((await diffOf(project, v1, v3)).files.map((file) => [file.path, file.status])).toEqual([
      ["index.html", "modified"],
      ["style.css", "deleted"],
    ]);
    expect((await diffOf(project, v2, v2)).files).toEqual([]);
  });

  it("answers 404 naming base for another project's version, and naming version_id for an unknown one", async () => {
    const project = await newProject();
    const other = await newProject("Other");
    const version = await checkpoint(project, { "a.txt": "a\n" });
    const elsewhere = await checkpoint(other, { "a.txt": "b\n" });
    expectApiError(
      await server.client.get(`/v1/projects/${project.id}/versions/${version.id}/diff?base=${elsewhere.id}`),
      404,
      "not_found",
      "base",
    );
    expectApiError(
      await server.client.get(`/v1/projects/${project.id}/versions/ver_0000000000000000/diff`),
      404,
      "not_found",
      "version_id",
    );
    expectApiError(
      await server.client.get(`/v1/projects/${other.id}/versions/${version.id}/diff`),
      404,
      "not_found",
      "version_id",
    );
    const testKey = await server.createKey({ environment: "test" });
    expectApiError(
      await server.as(testKey).get(`/v1/projects/${project.id}/versions/${version.id}/diff`),
      404,
      "not_found",
      "project_id",
    );
  });

  it("leaves out the patch of a file over 1 MiB (truncated), telling text from binary by its first chunk", async () => {
    const project = await newProject();
    const text = "x".repeat(MAX_DIFF_FILE_BYTES);
    const binary = new Uint8Array(MAX_DIFF_FILE_BYTES + 1).fill(7);
    await checkpoint(project, { "big.txt": `${text}\n`, "big.bin": binary, "small.txt": "a\n" });
    const v2 = await checkpoint(project, {
      "big.txt": `${text}y\n`,
      "big.bin": binary.map((byte, index) => (index ? 0 : byte)),
      "small.txt": "b\n",
    });
    const diff = await diffOf(project, v2);
    expect(diff.truncated).toBe(true);
    expect(diff.files).toEqual([
      { path: "big.bin", status: "modified", additions: 0, deletions: 0, binary: true, patch: null },
      { path: "big.txt", status: "modified", additions: 0, deletions: 0, binary: false, patch: null },
      expect.objectContaining({
        path: "small.txt",
        additions: 1,
        deletions: 1,
        patch: expect.stringContaining("-a\n+b\n"),
      }),
    ]);
  });

  it("reads only the files whose content changed: one pair of a project of 1,000 files", async () => {
    const project = await newProject();
    const files = Object.fromEntries(
      Array.from({ length: 1000 }, (_, index) => [`pages/page-${index}.html`, `<p>Page ${index}</p>\n`]),
    );
    await checkpoint(project, files);
    const v2 = await checkpoint(project, { "pages/page-500.html": "<p>Page five hundred</p>\n" });
    const asked: string[] = [];
    const counting: DiffFiles = async (request) => {
      asked.push(...request.pairs.map((pair) => pair.path));
      return diffContents(request);
    };
    const diff = await getVersionDiff(server.storage.db, counting, project.partition, project.id, v2.id);
    expect(asked).toEqual(["pages/page-500.html"]);
    expect(diff.files.map((file) => [file.path, file.additions, file.deletions])).toEqual([
      ["pages/page-500.html", 1, 1],
    ]);
  });

  it("never stalls its event loop 250 ms while it diffs hostile files: 5 MB one-liners, 20,000 changed lines, Myers' worst case", async () => {
    const project = await newProject();
    const shuffled = (index: number) => `line ${(index * 7919) % 40_000}`;
    await checkpoint(project, {
      "one-line-a.txt": "a".repeat(5_000_000),
      "one-line-b.txt": "b".repeat(5_000_000),
      "rewritten.txt": lines(20_000, (index) => `line ${index}`),
      "moved.txt": lines(40_000, (index) => `line ${index}`),
    });
    const v2 = await checkpoint(project, {
      "one-line-a.txt": "c".repeat(5_000_000),
      "one-line-b.txt": "d".repeat(5_000_000),
      "rewritten.txt": lines(20_000, (index) => `LINE ${index}`),
      "moved.txt": lines(40_000, shuffled),
    });
    // The test client checks answers against the contract on this event loop too, compiling its
    // validators on first use: compiled here, by a diff of nothing (which leaves the thread unstarted).
    expect((await diffOf(project, v2, v2)).files).toEqual([]);
    // The server's event loop (this process's): its longest stall while the diff runs. A stall the
    // diff causes comes back on every try; a busy machine's scheduling (other test files on both
    // cores) comes and goes, so a try over the bound is made again, three at the most.
    const tries: { stallMs: number; tookMs: number }[] = [];
    let answer: Awaited<ReturnType<typeof diffOf>> | undefined;
    while (tries.length < 3 && (tries.at(-1)?.stallMs ?? Infinity) >= 250) {
      const probe = startProbe(server.url, [{ path: "/healthz" }]);
      const stalls = monitorEventLoopDelay({ resolution: 10 });
      stalls.enable();
      const started = performance.now();
      const answered = await diffOf(project, v2).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      const tookMs = performance.now() - started;
      stalls.disable();
      const report = await probe.stop();
      if ("error" in answered) throw answered.error;
      answer = answered.value;
      tries.push({ stallMs: stalls.max / 1e6, tookMs });
      expect(report.failures).toEqual([]);
      expect(report.asked).toBeGreaterThan(0);
      // End to end, as the hardening suites bound it: a loaded machine's scheduling is in this figure too.
      expect(report.slowestMs, `the slowest /healthz while the diff took ${tookMs.toFixed(0)} ms`).toBeLessThan(2000);
    }
    const seen = tries.map(({ stallMs, tookMs }) => `${stallMs.toFixed(0)} ms in ${tookMs.toFixed(0)} ms`).join(", ");
    console.log(`hostile diff: the event loop's longest stall, per try: ${seen}`);
    expect(Math.min(...tries.map(({ stallMs }) => stallMs)), seen).toBeLessThan(250);
    const diff = answer!;
    expect(diff.truncated).toBe(true);
    expect(diff.files.map((file) => [file.path, file.additions, file.deletions, file.patch?.length ?? null])).toEqual([
      ["moved.txt", 0, 0, null],
      ["one-line-a.txt", 0, 0, null],
      ["one-line-b.txt", 0, 0, null],
      ["rewritten.txt", 20_000, 20_000, expect.any(Number)],
    ]);
    expect(diff.files[3]!.patch).toContain("\n-line 19999\n");
    expect(diff.files[3]!.patch).toContain("\n+LINE 19999\n");
  });
});
