// Proving that work grows linearly with its input, without a wall-clock threshold: the time of size
// 8n over the time of size n is about 8 for linear work and 64 for quadratic work, on any machine.
// The bound between them is their geometric mean, 8^1.5 ≈ 22.6: a linear pass may take 2.8 times
// its share and still pass, and quadratic work fails by as wide a margin. Measured with two
// busy-loops and an allocating process beside the test on this 2-core machine, linear passes took
// up to 2.7 times their share (the larger input's working set does not fit the cache a busy sibling
// hyperthread leaves it), which a ratio of 4n ÷ n against 8 could not absorb (8.5 to 10.9 in a
// loaded CI run); quadratic work measured 53 to 58.
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
const BATCHES = 5;

/** How much larger the large input is than the small one. */
const GROWTH = 8;

/**
 * How many times longer `run(input(GROWTH × n))` takes than `run(input(n))`. Inputs are made outside
 * the timing; the work is warmed up first so that the JIT's first compilations are not counted.
 */
export async function growthRatio<T>(
  n: number,
  input: (size: number) => T,
  run: (input: T) => unknown,
): Promise<number> {
  const small = input(n);
  const large = input(GROWTH * n);
  await run(small);
  const best = [Infinity, Infinity];
  for (let batch = 0; batch < BATCHES; batch++) {
    for (const [index, value] of [small, large].entries()) {
      let runs = 0;
      const started = cpuMs();
      let elapsed: number;
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

/** Linear work's ratio (GROWTH) and quadratic work's (GROWTH²) lie this far on either side of it. */
const BOUND = GROWTH ** 1.5;
/** Measurements at the most; the first under the bound passes. */
const ATTEMPTS = 3;

/**
 * Eight times the input takes about eight times the time, not 64 (quadratic work). Interference
 * comes and goes (a garbage collection, a busy sibling core), so a linear pass over the bound is
 * measured again; quadratic work is over it in every attempt, so the best of a few still fails it.
 */
export async function expectLinear<T>(
  n: number,
  input: (size: number) => T,
  run: (input: T) => unknown,
): Promise<void> {
  const ratios: number[] = [];
  while (ratios.length < ATTEMPTS) {
    const ratio = await growthRatio(n, input, run);
    if (ratio < BOUND) return;
    ratios.push(ratio);
  }
  const measured = ratios.map((ratio) => ratio.toFixed(2)).join(", ");
  expect(
    Math.min(...ratios),
    `${GROWTH} times the input multiplied the time by ${measured} in ${ATTEMPTS} attempts`,
  ).toBeLessThan(BOUND);
}
