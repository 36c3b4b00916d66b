// `pbs listen`'s usage, apart from the command (listen.ts) so that pbs's help, which the server also
// loads (commands.ts, for its admin socket), does not load the client library with it.
export const LISTEN_USAGE = `pbs listen --forward-to <url> [--events a,b] [--project <project id>] [--secret whsec_…]
                [--url <server>] [--key <key>]
      Follows the server's live events and re-sends each to <url> (e.g. http://localhost:3000/webhooks)
      as a webhook delivery signed with a secret it prints (new each run unless --secret), one line
      per event with the receiver's answer. --events: types to forward (default all the key can
      read); --url, --key as for pbs mcp. A receiver that does not answer is tried 3 times; one that
      answers, whatever its status, once. Ctrl-C ends it.`;
