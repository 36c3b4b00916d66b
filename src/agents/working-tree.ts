// A project's files as an agent sees them during a run: the files the project had when the run
// started (read lazily from storage), with the agent's writes and deletes laid over them. Nothing
// reaches storage until the run succeeds and the worker applies `changes()`.
//
// Every write is checked here, so no agent can step outside the project or past its limits: a path
// must be a valid project path (the contract's ProjectFilePath: no `..`, no leading `/`), a file at
// most MAX_AGENT_FILE_BYTES, the tree at most MAX_PROJECT_FILES files, a run's writes at most
// MAX_RUN_WRITE_BYTES in all. A breach throws AgentError `invalid_output` and fails the run.
import { validPath, type FileWrite } from "../domain/files.ts";
import { InvalidInputError } from "../domain/errors.ts";
import { AgentError } from "./errors.ts";

export const MAX_AGENT_FILE_BYTES = 1024 * 1024;
export const MAX_PROJECT_FILES = 500;
export const MAX_RUN_WRITE_BYTES = 10 * 1024 * 1024;

/** A file the project had when the run started; its content is read only if the agent asks. */
export interface StoredFile {
  readonly path: string;
  readonly sizeBytes: number;
  readonly contentType: string;
  readonly sha256: string;
  read(): Promise<Uint8Array>;
}

export type { FileWrite };

export interface TreeChanges {
  /** Files written (new or replaced), in path order. */
  readonly writes: FileWrite[];
  /** Paths of files that existed at the start and were deleted, in path order. */
  readonly deletes: string[];
}

type Entry = { kind: "stored"; file: StoredFile } | { kind: "written"; write: FileWrite };

const TEXT_TYPES: Record<string, string> = {
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  jsx: "text/jsx",
  ts: "text/typescript",
  tsx: "text/tsx",
  json: "application/json",
  svg: "image/svg+xml",
  md: "text/markdown",
  txt: "text/plain",
  xml: "application/xml",
  webmanifest: "application/manifest+json",
};

/** The media type a file written by an agent is stored with, from its extension. */
export function contentTypeOf(path: string): string {
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return TEXT_TYPES[extension] ?? "application/octet-stream";
}

export class WorkingTree {
  readonly #entries = new Map<string, Entry>();
  readonly #initial: ReadonlySet<string>;
  #writtenBytes = 0;

  constructor(files: Iterable<StoredFile>) {
    for (const file of files) this.#entries.set(file.path, { kind: "stored", file });
    this.#initial = new Set(this.#entries.keys());
  }

  /** Every path in the tree, sorted. */
  list(): string[] {
    return [...this.#entries.keys()].sort();
  }

  /** The file's content, or undefined when the tree has no such path. */
  async read(path: string): Promise<Uint8Array | undefined> {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    return entry.kind === "written" ? entry.write.content : entry.file.read();
  }

  /** The file's content as UTF-8 text, or undefined when the tree has no such path. */
  async readText(path: string): Promise<string | undefined> {
    const content = await this.read(path);
    return content === undefined ? undefined : new TextDecoder().decode(content);
  }

  /** Creates or replaces the file. AgentError `invalid_output` when the path or a limit is broken. */
  write(path: string, content: string | Uint8Array): void {
    const checked = checkedPath(path);
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    if (bytes.length > MAX_AGENT_FILE_BYTES) {
      throw new AgentError(
        "invalid_output",
        `The agent wrote ${checked} with ${bytes.length} bytes; a file may have at most ${MAX_AGENT_FILE_BYTES}.`,
      );
    }
    if (!this.#entries.has(checked) && this.#entries.size >= MAX_PROJECT_FILES) {
      throw new AgentError(
        "invalid_output",
        `The agent tried to create ${checked}, past the limit of ${MAX_PROJECT_FILES} files in a project.`,
      );
    }
    this.#writtenBytes += bytes.length;
    if (this.#writtenBytes > MAX_RUN_WRITE_BYTES) {
      throw new AgentError("invalid_output", `The agent wrote more than ${MAX_RUN_WRITE_BYTES} bytes in one run.`);
    }
    this.#entries.set(checked, {
      kind: "written",
      write: { path: checked, content: bytes, contentType: contentTypeOf(checked) },
    });
  }

  /** Removes the file; true when there was one. */
  delete(path: string): boolean {
    return this.#entries.delete(checkedPath(path));
  }

  /** What the run changed against the files it started with. */
  changes(): TreeChanges {
    const writes: FileWrite[] = [];
    for (const path of this.list()) {
      const entry = this.#entries.get(path)!;
      if (entry.kind === "written") writes.push(entry.write);
    }
    const deletes = [...this.#initial].filter((path) => !this.#entries.has(path)).sort();
    return { writes, deletes };
  }
}

function checkedPath(path: string): string {
  try {
    return validPath(path);
  } catch (error) {
    if (error instanceof InvalidInputError)
      throw new AgentError("invalid_output", `The agent used an invalid file path: ${error.message}`);
    throw error;
  }
}
