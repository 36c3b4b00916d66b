// Proving that work grows linearly with its input, without a wall-clock threshold: the time of size
// 2n over the time of size n is about 2 for linear work and 4 for quadratic work, on any machine.
// The time is this thread's CPU time, not the wall clock's: on a loaded machine (other test files in
// parallel, other processes) the wall clock also counts the time other work had the core, which
// made a linear pass look quadratic now and then.
import { expect } from "vitest";

/** Milliseconds of CPU this thread has used (the work measured runs on it). */
const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** Each size is run until it has used this much CPU, so a fast linear pass is timed as steadily as a slow one. */
const BATCH_MS = 40;
/** Batches per size, alternating sizes; the fastest counts (the others met a GC or a busy core). */
const BATCHES = 3;

/**
 * How many times longer `run(input(2n))` takes than `run(input(n))`. Inputs are made outside the
 * timing; the work is warmed up first so that the JIT's first compilations are not counted.
 */
export async function growthRatio<T>(n: number, input: (size: number) => T, run: (input: T) => unknown): Promise<number> {
  const small = input(n);
  const large = input(2 * n);
  await run(small);
  const best = [Infinity, Infinity];
  for (let batch = 0; batch < BATCHES; batch++) {
    for (const [index, value] of [small, large].entries()) {
      let runs = 0;
      const started = cpuMs();
      let elapsed = 0;
      do {
        await run(value);
        runs += 1;
        elapsed = cpuMs() - started;
      } while (elapsed < BATCH_MS);
      best[index] = Math.min(best[index]!, elapsed / runs);
    }
  }
  return best[1]! / best[0]!;
}

/** Doubling the input at most about doubles the time (quadratic work would quadruple it). */
export async function expectLinear<T>(n: number, input: (size: number) => T, run: (input: T) => unknown): Promise<void> {
  const ratio = await growthRatio(n, input, run);
  expect(ratio, `doubling the input multiplied the time by ${ratio.toFixed(2)}`).toBeLessThan(3);
}
