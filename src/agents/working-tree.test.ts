import { describe, expect, it } from "vitest";
import { AgentError } from "./agent.ts";
import {
  MAX_AGENT_FILE_BYTES,
  MAX_PROJECT_FILES,
  MAX_RUN_WRITE_BYTES,
  WorkingTree,
  type StoredFile,
} from "./working-tree.ts";

const stored = (path: string, text: string): StoredFile => ({
  path,
  sizeBytes: text.length,
  contentType: "text/plain",
  sha256: "0".repeat(64),
  read: async () => new TextEncoder().encode(text),
});

const refusal = (write: () => void) => {
  try {
    write();
  } catch (error) {
    return error instanceof AgentError ? error.code : "other";
  }
  return "none";
};

describe("WorkingTree", () => {
  it("lays writes and deletes over the files a run started with, and reports only the changes", async () => {
    const tree = new WorkingTree([
      stored("index.html", "<p>old</p>"),
      stored("notes.txt", "keep"),
      stored("old.css", "x"),
    ]);
    tree.write("index.html", "<p>new</p>");
    tree.write("src/app.ts", "export {}");
    expect(tree.delete("old.css")).toBe(true);
    expect(tree.delete("missing.txt")).toBe(false);
    expect(tree.list()).toEqual(["index.html", "notes.txt", "src/app.ts"]);
    expect(await tree.readText("index.html")).toBe("<p>new</p>");
    expect(await tree.readText("notes.txt")).toBe("keep");
    expect(await tree.read("old.css")).toBeUndefined();
    const changes = tree.changes();
    expect(changes.writes.map((write) => [write.path, write.contentType])).toEqual([
      ["index.html", "text/html"],
      ["src/app.ts", "text/typescript"],
    ]);
    expect(changes.deletes).toEqual(["old.css"]);
  });

  it("refuses paths outside the project", () => {
    const tree = new WorkingTree([]);
    for (const path of ["../x", "/etc/passwd", "a/../../b", "a//b", "", ".", "a\\\\b", "a\u0000b"]) {
      expect(
        refusal(() => tree.write(path, "x")),
        JSON.stringify(path),
      ).toBe("invalid_output");
    }
    expect(refusal(() => tree.delete("../x"))).toBe("invalid_output");
    expect(tree.list()).toEqual([]);
  });

  it("refuses a file over the size limit, files past the count limit, and a run writing too much", () => {
    const tree = new WorkingTree([]);
    expect(refusal(() => tree.write("big.bin", new Uint8Array(MAX_AGENT_FILE_BYTES + 1)))).toBe("invalid_output");
    expect(refusal(() => tree.write("max.bin", new Uint8Array(MAX_AGENT_FILE_BYTES)))).toBe("none");

    const full = new WorkingTree(Array.from({ length: MAX_PROJECT_FILES }, (_, i) => stored(`f${i}.txt`, "")));
    expect(refusal(() => full.write("one-more.txt", "x"))).toBe("invalid_output");
    expect(refusal(() => full.write("f0.txt", "replacing is fine"))).toBe("none");

    const busy = new WorkingTree([]);
    const chunk = new Uint8Array(MAX_AGENT_FILE_BYTES);
    for (let i = 0; i < MAX_RUN_WRITE_BYTES / MAX_AGENT_FILE_BYTES; i++) busy.write(`part${i}.bin`, chunk);
    expect(refusal(() => busy.write("last.bin", "x"))).toBe("invalid_output");
  });
});
