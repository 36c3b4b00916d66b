// Where a tenant's code and content are worked on: a deployment's build (esbuild and the rewriting
// of its pages, src/jobs/build-pool/build-site.ts), the built-in agent's edits of its files
// (src/agents/builtin/edit.ts) and the patches of a version's diff (src/domain/file-diff.ts) run in
// threads (thread-pool.ts), never on the API's event loop, each task within its pool's time limit
// and BUILD_MEMORY_MB of heap. Builds and edits have BUILD_WORKERS threads per process; the API
// has a pool of its own for diffs (app.ts), so a request never waits behind a build.
//
// A task past a limit fails as its input's fault, with an error that names the limit: a
// BuildError (the deployment ends `failed`, `build_error`) or an AgentError (the run ends `failed`,
// `agent_error`). Neither is thrown to pg-boss, so the job is not retried into the same wall. A
// diff past a limit answers its patches left out.
import { AgentError } from "../../agents/agent.ts";
import type { BuiltinEdit, BuiltinRequest } from "../../agents/builtin/edit.ts";
import { LEFT_OUT, type DiffAnswer, type DiffRequest } from "../../domain/file-diff.ts";
import { BuildError } from "./build-site.ts";
import { createThreadPool, TaskError, ThreadLimitError } from "./thread-pool.ts";

/** A build thread's heap limit: room for the largest build (100 MiB of files) with its pages decoded. */
export const BUILD_MEMORY_MB = 512;

export interface BuildPoolOptions {
  /** Threads (BUILD_WORKERS). */
  readonly threads: number;
  /** A task's wall-clock limit (BUILD_TIMEOUT). */
  readonly timeoutMs: number;
  /** A thread's heap limit (default BUILD_MEMORY_MB). */
  readonly memoryMb?: number;
}

export interface BuildPool {
  /** buildSite in a thread: its result, or a BuildError as it throws one or for a limit. */
  buildSite(files: ReadonlyMap<string, Uint8Array>): Promise<Map<string, Uint8Array>>;
  /** editProject in a thread: its result, or an AgentError for a limit. */
  editProject(request: BuiltinRequest, signal: AbortSignal): Promise<BuiltinEdit>;
  /** diffContents in a thread; past a limit, every patch of the request left out. */
  diffFiles(request: DiffRequest): Promise<DiffAnswer>;
  /** Ends the threads (their tasks in flight fail). */
  close(): Promise<void>;
}

export function createBuildPool(options: BuildPoolOptions): BuildPool {
  const pool = createThreadPool({
    script: new URL("./build-thread.ts", import.meta.url),
    threads: options.threads,
    timeoutMs: options.timeoutMs,
    memoryMb: options.memoryMb ?? BUILD_MEMORY_MB,
  });
  return {
    buildSite: (files) =>
      pool.run<Map<string, Uint8Array>>("buildSite", files).catch((error: unknown) => {
        throw error instanceof ThreadLimitError ? new BuildError(`The build ${error.message}.`) : revived(error);
      }),
    editProject: (request, signal) =>
      pool.run<BuiltinEdit>("editProject", request, signal).catch((error: unknown) => {
        throw error instanceof ThreadLimitError
          ? new AgentError("agent_error", `The built-in agent ${error.message} while editing the project's files.`)
          : revived(error);
      }),
    diffFiles: (request) =>
      pool.run<DiffAnswer>("diffFiles", request).catch((error: unknown) => {
        if (!(error instanceof ThreadLimitError)) throw error;
        return { diffs: request.pairs.map(() => LEFT_OUT), spentMs: request.budgetMs };
      }),
    close: () => pool.close(),
  };
}

/** A BuildError thrown in a thread is one here too. */
function revived(error: unknown): unknown {
  return error instanceof TaskError && error.name === "BuildError" ? new BuildError(error.message) : error;
}
