// A few worker threads for work that must never run on the API's event loop (see build-pool.ts),
// each running one task at a time under a wall-clock limit and a heap limit (`resourceLimits`).
// Past either, the task fails with ThreadLimitError at once and its thread is replaced: no task
// outlives its limit or keeps the thread from the next.
//
// A thread is retired gracefully when it answers: it stops the child processes it spawned
// (esbuild's service) and waits for their exit, and is terminated then. A process whose thread is
// terminated first still exits (its stdin closes) but is never reaped: it stays a zombie until the
// server exits. A thread that does not answer within a second is terminated all the same, so a
// task keeps a child process only while it waits on it (build-thread.ts stops esbuild's service
// once a build has bundled: see childrenExited).
import { subscribe } from "node:diagnostics_channel";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { parentPort, Worker } from "node:worker_threads";
import { formatDuration } from "../format-duration.ts";

/** What the pool tells a thread. */
export type ToThread = { kind: "task"; id: number; task: string; input: unknown } | { kind: "stop" };
/** What a thread answers: a task's value or failure, or that it stopped its child processes. */
export type FromThread =
  | { kind: "done"; id: number; value: unknown }
  | { kind: "failed"; id: number; error: TaskFailure; retire: boolean }
  | { kind: "stopped" };

export interface TaskFailure {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** A task passed its thread's time or memory limit. */
export class ThreadLimitError extends Error {
  readonly limit: "time" | "memory";
  /** The limit for people: `60 seconds`, `512 MB`. */
  readonly amount: string;
  constructor(limit: "time" | "memory", amount: string) {
    super(`passed its ${limit} limit of ${amount}`);
    this.name = "ThreadLimitError";
    this.limit = limit;
    this.amount = amount;
  }
}

/** An error a task threw in its thread: its name, message and code, as the thread saw them. */
export class TaskError extends Error {
  readonly code: string | undefined;
  constructor(failure: TaskFailure) {
    super(failure.message);
    this.name = failure.name;
    this.code = failure.code;
  }
}

export interface ThreadPoolOptions {
  /** The module each thread runs; it calls serveTasks. */
  readonly script: URL;
  /** Threads at most. */
  readonly threads: number;
  /** A task's wall-clock limit, from the moment it is handed to a thread. */
  readonly timeoutMs: number;
  /** A thread's heap limit (V8's old generation), in MB. */
  readonly memoryMb: number;
}

export interface ThreadPool {
  /** Runs `task` on `input` in a thread; an abort fails it with the signal's reason (and replaces its thread). */
  run<T>(task: string, input: unknown, signal?: AbortSignal): Promise<T>;
  /** Fails what is queued or running, and ends every thread. */
  close(): Promise<void>;
}

/** How long a retired thread has to stop its child processes before it is terminated. */
const STOP_GRACE_MS = 1_000;

interface Job {
  readonly id: number;
  readonly task: string;
  readonly input: unknown;
  readonly settle: (outcome: { value: unknown } | { error: unknown }) => void;
}

interface Thread {
  readonly worker: Worker;
  job: Job | undefined;
  limit: NodeJS.Timeout | undefined;
  /** Why the thread died, when it did. */
  error: NodeJS.ErrnoException | undefined;
  retiring: Promise<void> | undefined;
  stopped: (() => void) | undefined;
}

export function createThreadPool(options: ThreadPoolOptions): ThreadPool {
  const threads = new Set<Thread>();
  const queue: Job[] = [];
  let nextId = 0;
  let closed = false;
  const closedError = () => new Error("The build threads are closed.");

  function run<T>(task: string, input: unknown, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (closed) return reject(closedError());
      if (signal?.aborted) return reject(signal.reason);
      const abort = () => cancel(job, signal!.reason);
      const job: Job = {
        id: nextId++,
        task,
        input,
        settle(outcome) {
          signal?.removeEventListener("abort", abort);
          if ("error" in outcome) reject(outcome.error);
          else resolve(outcome.value as T);
        },
      };
      signal?.addEventListener("abort", abort, { once: true });
      queue.push(job);
      dispatch();
    });
  }

  function dispatch(): void {
    while (queue.length > 0) {
      const working = [...threads].filter((thread) => !thread.retiring);
      let thread = working.find((candidate) => !candidate.job);
      if (!thread) {
        if (working.length >= options.threads) return;
        thread = spawn();
      }
      start(thread, queue.shift()!);
    }
  }

  function start(thread: Thread, job: Job): void {
    thread.job = job;
    thread.limit = setTimeout(
      () => fail(thread, new ThreadLimitError("time", formatDuration(options.timeoutMs))),
      options.timeoutMs,
    );
    thread.worker.postMessage({ kind: "task", id: job.id, task: job.task, input: job.input } satisfies ToThread);
  }

  /** Takes the thread's job off it, for it to be settled. */
  function release(thread: Thread): Job | undefined {
    const job = thread.job;
    clearTimeout(thread.limit);
    thread.job = undefined;
    return job;
  }

  /** The thread's job fails with `error`, and the thread is replaced. */
  function fail(thread: Thread, error: unknown): void {
    release(thread)?.settle({ error });
    void retire(thread);
    dispatch();
  }

  function cancel(job: Job, reason: unknown): void {
    const queued = queue.indexOf(job);
    if (queued !== -1) {
      queue.splice(queued, 1);
      job.settle({ error: reason });
      return;
    }
    const thread = [...threads].find((candidate) => candidate.job === job);
    if (thread) fail(thread, reason);
  }

  function spawn(): Thread {
    const worker = new Worker(options.script, { resourceLimits: { maxOldGenerationSizeMb: options.memoryMb } });
    // The server's listeners keep the process alive; a pool left open must not.
    worker.unref();
    const thread: Thread = {
      worker,
      job: undefined,
      limit: undefined,
      error: undefined,
      retiring: undefined,
      stopped: undefined,
    };
    worker.on("message", (message: FromThread) => {
      if (message.kind === "stopped") return thread.stopped?.();
      // A job that already failed (its limit, an abort) answers late: nobody waits for it.
      if (thread.job?.id !== message.id) return;
      const job = release(thread)!;
      if (message.kind === "done") {
        job.settle({ value: message.value });
      } else {
        job.settle({ error: new TaskError(message.error) });
        if (message.retire) void retire(thread);
      }
      dispatch();
    });
    worker.on("error", (error: Error) => {
      thread.error = error;
    });
    worker.on("exit", () => {
      threads.delete(thread);
      thread.stopped?.();
      const outOfMemory = thread.error?.code === "ERR_WORKER_OUT_OF_MEMORY";
      const error = outOfMemory
        ? new ThreadLimitError("memory", `${options.memoryMb} MB`)
        : new Error(`A build thread stopped: ${thread.error?.message ?? "it exited"}`);
      release(thread)?.settle({ error });
      dispatch();
    });
    threads.add(thread);
    return thread;
  }

  function retire(thread: Thread): Promise<void> {
    thread.retiring ??= (async () => {
      const stopped = new Promise<void>((resolve) => {
        const grace = setTimeout(resolve, STOP_GRACE_MS);
        thread.stopped = () => {
          clearTimeout(grace);
          resolve();
        };
      });
      thread.worker.postMessage({ kind: "stop" } satisfies ToThread);
      await stopped;
      await thread.worker.terminate();
    })();
    return thread.retiring;
  }

  return {
    run,
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.settle({ error: closedError() });
      await Promise.all(
        [...threads].map((thread) => {
          release(thread)?.settle({ error: closedError() });
          return retire(thread);
        }),
      );
    },
  };
}

/** The child processes this thread has spawned (serveTasks watches for them) that have not exited. */
const children = new Set<ChildProcess>();

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * In a thread that serves tasks: resolves once every child process it has spawned has exited and
 * been reaped, which only its own event loop can do.
 */
export async function childrenExited(): Promise<void> {
  await Promise.all([...children].filter(isRunning).map((child) => once(child, "exit")));
}

/**
 * The body of a thread's module: runs the tasks the pool sends, by name. An error the task is
 * expected to throw (one of `expected`: the input's fault) is reported as it is; any other is
 * reported too, and the thread asks to be replaced, lest it stay broken (esbuild's service gone).
 */
export function serveTasks(
  tasks: Record<string, (input: never) => unknown>,
  expected: ReadonlyArray<abstract new (...args: never[]) => Error> = [],
): void {
  const port = parentPort!;
  subscribe("child_process", (message) => {
    const child = (message as { process: ChildProcess }).process;
    children.add(child);
    child.once("exit", () => children.delete(child));
  });
  const post = (message: FromThread) => port.postMessage(message);

  const serve = async (message: ToThread) => {
    if (message.kind === "stop") {
      const running = [...children].filter(isRunning);
      for (const child of running) child.kill();
      await childrenExited();
      return post({ kind: "stopped" });
    }
    try {
      post({ kind: "done", id: message.id, value: await tasks[message.task]!(message.input as never) });
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      const code = (error as { code?: unknown }).code;
      const failure: TaskFailure = {
        name: error.name,
        message: error.message,
        ...(typeof code === "string" ? { code } : {}),
      };
      post({ kind: "failed", id: message.id, error: failure, retire: !expected.some((type) => error instanceof type) });
    }
  };
  // What escapes `serve` (a message that cannot be posted) ends the thread, and the pool replaces it.
  port.on("message", (message: ToThread) => void serve(message));
}
