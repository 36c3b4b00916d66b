// Clean-up that need not hold up the next test (dropping a PostgreSQL database costs a checkpoint:
// 0.2–0.6 s on a busy server): started at once, awaited before the test file ends (the afterAll of
// test/support/setup.ts), where a failure is reported.
const pending = new Set<Promise<void>>();
const failures: unknown[] = [];

/** Starts `work` in the background of the current test file. */
export function inBackground(work: () => Promise<unknown>): void {
  const running: Promise<void> = work().then(
    () => {},
    (error: unknown) => void failures.push(error),
  );
  pending.add(running);
  void running.finally(() => pending.delete(running));
}

/** Waits for all background work; throws the first failure. */
export async function settleBackground(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
  if (failures.length > 0) throw failures.splice(0)[0];
}
