// Proving that work grows linearly with its input, without a wall-clock threshold: the time of size
// 4n over the time of size n is about 4 for linear work and 16 for quadratic work, on any machine.
// The bound between them is their geometric mean, 8: a linear pass may take twice its share (a
// garbage collection in a worker whose heap earlier files have grown, measured at 1.5 times with
// inputs only twice as large) and still pass, and quadratic work fails by as wide a margin.
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

/** How much larger the large input is than the small one. */
const GROWTH = 4;

/**
 * How many times longer `run(input(GROWTH × n))` takes than `run(input(n))`. Inputs are made outside
 * the timing; the work is warmed up first so that the JIT's first compilations are not counted.
 */
export async function growthRatio<T>(n: number, input: (size: number) => T, run: (input: T) => unknown): Promise<number> {
  const small = input(n);
  const large = input(GROWTH * n);
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

/** Four times the input takes about four times the time, not sixteen (quadratic work). */
export async function expectLinear<T>(n: number, input: (size: number) => T, run: (input: T) => unknown): Promise<void> {
  const ratio = await growthRatio(n, input, run);
  expect(ratio, `${GROWTH} times the input multiplied the time by ${ratio.toFixed(2)}`).toBeLessThan(GROWTH ** 1.5);
}
