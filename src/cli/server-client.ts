// How `pbs mcp` and `pbs listen`, clients of a running server rather than administration commands,
// find that server and the bearer they call it with, and read the arguments they share.
import { parseArgs, type ParseArgsOptionDescriptor } from "node:util";

/** What to tell a user who gave no key. */
/** Where a command that talks to a server writes: its output, and its messages (named after it). */
export interface Io {
  readonly out: (line: string) => void;
  readonly error: (message: string) => void;
}

/** Standard output, and standard error with each message prefixed `pbs <command>: `. */
export function stdio(command: string): Io {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    error: (message) => process.stderr.write(`pbs ${command}: ${message}\n`),
  };
}

export const KEY_REQUIRED = "give the key with --key or PB_API_KEY (an API key, or an OAuth access token)";

/** The key (`--key`, else PB_API_KEY; undefined when neither) and the server (`--url`, else PUBLIC_URL, else port 8080 here). */
export function serverClient(
  values: { readonly url?: string | undefined; readonly key?: string | undefined },
  env: NodeJS.ProcessEnv,
) {
  return {
    key: values.key ?? (env.PB_API_KEY?.trim() || undefined),
    serverUrl: values.url ?? env.PUBLIC_URL?.trim() ?? "http://localhost:8080",
  };
}

/** The options every client of a server takes: where the server is, the key, and --help. */
const CLIENT_OPTIONS = {
  url: { type: "string" },
  key: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * A client's arguments: its own `options` and --url, --key and --help. A number is the status to exit
 * with at once: 2 once `io.error` has said what is wrong with them, 0 once `io.help` has shown the usage.
 */
export function clientArgs<Options extends Record<string, ParseArgsOptionDescriptor>>(
  argv: readonly string[],
  options: Options,
  usage: string,
  io: { readonly error: (message: string) => void; readonly help: (text: string) => void },
) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { ...options, ...CLIENT_OPTIONS }, strict: true });
  } catch (error) {
    io.error(`${(error as Error).message}\nUsage: ${usage}`);
    return 2;
  }
  if ((parsed.values as { help?: boolean }).help) {
    io.help(`Usage: ${usage}`);
    return 0;
  }
  return parsed.values;
}
