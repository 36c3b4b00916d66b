// How `pbs mcp` and `pbs listen`, clients of a running server rather than administration commands,
// find that server and the bearer they call it with.

/** What to tell a user who gave no key. */
export const KEY_REQUIRED = "give the key with --key or PB_API_KEY (an API key, or an OAuth access token)";

/** The key (`--key`, else PB_API_KEY; undefined when neither) and the server (`--url`, else PUBLIC_URL, else port 8080 here). */
export function serverClient(values: { readonly url?: string | undefined; readonly key?: string | undefined }, env: NodeJS.ProcessEnv) {
  return {
    key: values.key ?? (env.PB_API_KEY?.trim() || undefined),
    serverUrl: values.url ?? env.PUBLIC_URL?.trim() ?? "http://localhost:8080",
  };
}
