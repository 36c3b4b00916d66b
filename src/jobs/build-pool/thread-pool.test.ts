import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  createThreadPool,
  TaskError,
  ThreadLimitError,
  type ThreadPool,
  type ThreadPoolOptions,
} from "./thread-pool.ts";

const script = new URL("../../../test/fixtures/pool-thread.ts", import.meta.url);
let pools: ThreadPool[] = [];
afterEach(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  pools = [];
});

function pool(options: Partial<ThreadPoolOptions> = {}): ThreadPool {
  const created = createThreadPool({ script, threads: 1, timeoutMs: 10_000, memoryMb: 64, ...options });
  pools.push(created);
  return created;
}

const threadId = (threads: ThreadPool, ms = 0) => threads.run<number>("threadId", ms);

/** Whether the process exists at all: a zombie (exited, never reaped) still does. */
function exists(pid: number): boolean {
  try {
    readFileSync(`/proc/${pid}/stat`);
    return true;
  } catch {
    return false;
  }
}

describe("thread pool", () => {
  it("runs tasks in a thread and reports their errors by name and code", async () => {
    const threads = pool();
    const first = await threadId(threads);
    expect(first).toBeGreaterThan(0);
    const failure = await threads.run("fail", "bad input").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TaskError);
    expect(failure).toMatchObject({ name: "InputError", message: "bad input", code: "bad_input" });
    // An expected error leaves the thread as it was; any other has it replaced.
    expect(await threadId(threads)).toBe(first);
    await expect(threads.run("crash", "bug")).rejects.toMatchObject({ name: "TypeError", message: "bug" });
    expect(await threadId(threads)).not.toBe(first);
  });

  it("fails a task past its time limit at once, and replaces its thread", async () => {
    // Long enough for a new thread to start and answer on a loaded machine (300 ms was not, with
    // test files in parallel: the limit counts a task's wait for its thread's start).
    const limitMs = 2000;
    const threads = pool({ timeoutMs: limitMs });
    const first = await threadId(threads);
    // The task never ends: the limit ends it.
    const started = Date.now();
    const error = await threads.run("spin", null).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ThreadLimitError);
    expect(error).toMatchObject({ limit: "time", amount: "2 seconds", message: "passed its time limit of 2 seconds" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(limitMs - 50);
    const next = await threadId(threads);
    expect(next).not.toBe(first);
  });

  it("fails a task past its memory limit, and replaces its thread", async () => {
    const threads = pool({ memoryMb: 32 });
    const error = await threads.run("allocate", null).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ThreadLimitError);
    expect(error).toMatchObject({ limit: "memory", amount: "32 MB" });
    expect(await threadId(threads)).toBeGreaterThan(0);
  });

  it("runs at most `threads` tasks at once; the others wait their turn", async () => {
    const threads = pool({ threads: 2 });
    const ids = await Promise.all([1, 2, 3, 4, 5, 6].map(() => threadId(threads, 50)));
    expect(new Set(ids).size).toBe(2);
  });

  it("fails an aborted task with the signal's reason, queued or running", async () => {
    const threads = pool();
    const first = await threadId(threads);
    const reason = new Error("canceled");
    const running = new AbortController();
    const queued = new AbortController();
    const spinning = threads.run("spin", null, running.signal);
    const waiting = threads.run("threadId", 0, queued.signal);
    queued.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    running.abort(reason);
    await expect(spinning).rejects.toBe(reason);
    expect(await threadId(threads)).not.toBe(first);
    await expect(threads.run("threadId", 0, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it("ends a retired thread's child processes and reaps them, so none is left running or a zombie", async () => {
    // Long enough for a new thread to start and spawn on a loaded machine (500 ms was not, with test
    // files in parallel).
    const threads = pool({ timeoutMs: 3000 });
    const byLimit = await threads.run<number>("spawnChild", null);
    expect(exists(byLimit)).toBe(true);
    // The thread waits (idle) past its limit: it is retired, its child with it.
    await expect(threadId(threads, 6_000)).rejects.toBeInstanceOf(ThreadLimitError);
    const byClose = await threads.run<number>("spawnChild", null);
    await threads.close();
    await expect.poll(() => [exists(byLimit), exists(byClose)]).toEqual([false, false]);
    await expect(threads.run("threadId", 0)).rejects.toThrow("The build threads are closed.");
  });
});
