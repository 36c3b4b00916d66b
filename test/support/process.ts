// The server and `pbs` as operators run them: child processes of `node src/main.ts` and
// `src/cli/pbs.ts` with the environment a test gives them.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { runAdminCommand } from "../../src/cli/run-pbs.ts";

export const repoRoot = join(import.meta.dirname, "..", "..");

/**
 * Every child started here that has not exited. A case that times out leaves its child running (a
 * `pbs migrate` orphaned that way spun for 20 minutes on a data directory already removed), so
 * they are killed when the test file ends (test/support/setup.ts).
 */
const running = new Set<ChildProcess>();

function tracked<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once("exit", () => running.delete(child));
  child.once("error", () => running.delete(child));
  return child;
}

/** Kills (SIGKILL) the children this file started that are still running. */
export function killLeftoverChildren(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

/** Runs a command to its end, with `input` on its standard input; answers its exit code and output. */
export function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  input = "",
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = tracked(spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env } }));
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** `pbs` as operators run it (the file itself, executable), with `input` piped to it (`--password-stdin`). */
export function runPbs(
  args: string[],
  env: Record<string, string>,
  input = "",
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return run(join(repoRoot, "src/cli/pbs.ts"), args, env, input);
}

/**
 * Starts the server (`node src/main.ts`, or `command`: a program and its arguments, run in the
 * repository) and resolves with its base URL once it logs that it listens.
 */
export async function startServer(
  env: Record<string, string>,
  command: readonly string[] = [process.execPath, "src/main.ts"],
): Promise<{ child: ChildProcess; url: string; logs: string[] }> {
  const [program, ...args] = command;
  // What it logs at info is how it is followed: when it listens, and where.
  const child = tracked(spawn(program!, args, { cwd: repoRoot, env: { ...process.env, LOG_LEVEL: "info", ...env } }));
  const logs: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        logs.push(line);
        const entry = JSON.parse(line) as { msg: string; url?: string };
        if (entry.msg === "listening") resolve(entry.url!.replace("0.0.0.0", "127.0.0.1"));
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code} before listening`)));
    // Not started at all (the node binary gone, say): fail now rather than wait for a timeout.
    child.on("error", reject);
  });
  return { child, url, logs };
}

/**
 * Runs a `pbs` administration command in this process, as the executable would with `env` (on the
 * embedded database, through the admin socket of the server holding it), and answers what it
 * printed; fails unless it exits 0. For tests that provision workspaces and keys; cli.test.ts runs
 * the executable itself.
 */
export async function pbs(args: string[], env: Record<string, string>): Promise<string> {
  const { code, stdout, stderr } = await runAdminCommand(args, { ...process.env, ...env });
  if (code !== 0) throw new Error(`pbs ${args.join(" ")} exited with ${code}: ${stderr}`);
  return stdout;
}
