// Asking a server for something, over and over, from a thread of its own: the test servers run on
// the test's own event loop, so a client there would stall with the server it measures (and find
// every answer quick). The thread's requests wait, and are timed, while the server is stalled.
import { once } from "node:events";
import { parentPort, Worker, workerData } from "node:worker_threads";

export interface ProbeRequest {
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ProbeReport {
  /** Requests sent. */
  readonly asked: number;
  /** The slowest answer, in milliseconds. */
  readonly slowestMs: number;
  /** Requests not answered 200, with what they got. */
  readonly failures: readonly string[];
}

/** Starts asking `baseUrl` for `requests` in turn, one at a time, until stopped. */
export function startProbe(baseUrl: string, requests: readonly ProbeRequest[]): { stop(): Promise<ProbeReport> } {
  const worker = new Worker(new URL(import.meta.url), { workerData: { probe: { baseUrl, requests } } });
  return {
    async stop() {
      worker.postMessage("stop");
      const [report] = (await once(worker, "message")) as [ProbeReport];
      await worker.terminate();
      return report;
    },
  };
}

const probe = (workerData as { probe?: { baseUrl: string; requests: ProbeRequest[] } } | null)?.probe;
if (probe) {
  let stopped = false;
  parentPort!.once("message", () => {
    stopped = true;
  });
  let asked = 0;
  let slowestMs = 0;
  const failures: string[] = [];
  while (!stopped) {
    for (const request of probe.requests) {
      const started = performance.now();
      try {
        const answer = await fetch(new URL(request.path, probe.baseUrl), {
          headers: request.headers,
          signal: AbortSignal.timeout(120_000),
        });
        await answer.arrayBuffer();
        if (answer.status !== 200) failures.push(`${request.path}: ${answer.status}`);
      } catch (error) {
        failures.push(`${request.path}: ${(error as Error).message}`);
      }
      slowestMs = Math.max(slowestMs, performance.now() - started);
      asked += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  parentPort!.postMessage({ asked, slowestMs, failures } satisfies ProbeReport);
}
