// The first look at a bearer secret, in memory: whether it can be a credential at all, before the
// principal cache or the database are asked.
//
// Decisions:
// - An API key ends in a checksum keyed by the deployment's credential secret (domain/keys.ts): one
//   whose checksum fails is forged, and is refused without a lookup. A flood of random keys
//   therefore costs no database work whatever its source, and the per-address limit
//   (address-limit.ts) need not stand between a valid key and its lookup: a key whose checksum
//   holds is looked up even from a refused address, so no client is locked out by the failures of
//   others behind the same address (an office's NAT, every client behind a proxy without
//   TRUST_PROXY).
// - Keys without a checksum (the form a database may hold from earlier versions) are told by a set
//   of the first 16 hex digits of the hashes of the database's keys, loaded at start (~70 bytes a
//   key): a secret of that shape whose hash is not in the set is forged too. Which keys lack a
//   checksum, the database cannot tell, so the set holds every key's hash; it is never pruned (a
//   revoked key in it costs a lookup, which refuses it, once a minute at most: the principal cache
//   remembers refusals). New keys all carry a checksum, but a replica of an earlier version still
//   running beside this one (a rolling deploy) creates keys without: when the database announces a
//   new credential, the set is marked stale, and the next secret of that shape that misses it reads
//   the keys created since the last load (with a margin for the replicas' clocks) before it is judged.
// - OAuth access tokens carry no checksum: they are `unscreened`, looked up while their address is
//   not refused, and taken from memory only (the principal cache) while it is.
import type { Database } from "../storage/index.ts";
import type { ChangeFeed } from "../storage/notifications.ts";
import { sharedSecret } from "../storage/secrets.ts";
import {
  CREDENTIAL_SECRET,
  hashSecret,
  isKeyWithoutChecksum,
  keyChecksumHolds,
  keyHashesSince,
} from "../domain/keys.ts";

/**
 * What memory tells of a secret: `forged` (it cannot be a key: refused without a lookup),
 * `plausible` (a key whose checksum holds, or a known key without one: looked up), or `unscreened`
 * (a credential this screen cannot judge: an OAuth access token).
 */
export type Screening = "forged" | "plausible" | "unscreened";

export interface KeyScreen {
  /** Settles at once but when a stale set must be read again first (at most once per new credential announced). */
  screen(secret: string): Promise<Screening>;
  /** Stops listening for new credentials. */
  close(): void;
}

/** How far back a reload reaches past the previous one: room for the clocks of the processes that create keys. */
const CLOCK_MARGIN_MS = 10 * 60_000;
const HASH_PREFIX_LENGTH = 16;

export async function openKeyScreen(options: {
  db: Database;
  changes: ChangeFeed;
  /** Whether a secret is a credential of another kind, which this screen leaves unjudged. */
  unscreened?: (secret: string) => boolean;
  now?: () => number;
}): Promise<KeyScreen> {
  const { db, changes } = options;
  const now = options.now ?? Date.now;
  const credentialSecret = await sharedSecret(db, CREDENTIAL_SECRET);
  const known = new Set<string>();
  let loadedFrom = now();
  for (const hash of await keyHashesSince(db, null)) known.add(hash.slice(0, HASH_PREFIX_LENGTH));
  let stale = false;
  let reloading: Promise<void> | undefined;

  const unsubscribe = changes.subscribe({
    changed(payload) {
      if (payload === "+") stale = true;
    },
    gap() {
      stale = true;
    },
  });

  function reload(): Promise<void> {
    reloading ??= (async () => {
      stale = false;
      const started = now();
      try {
        const since = new Date(loadedFrom - CLOCK_MARGIN_MS);
        for (const hash of await keyHashesSince(db, since)) known.add(hash.slice(0, HASH_PREFIX_LENGTH));
        loadedFrom = started;
      } catch (error) {
        stale = true;
        throw error;
      } finally {
        reloading = undefined;
      }
    })();
    return reloading;
  }

  async function screen(secret: string): Promise<Screening> {
    if (options.unscreened?.(secret)) return "unscreened";
    if (keyChecksumHolds(secret, credentialSecret)) return "plausible";
    if (!isKeyWithoutChecksum(secret)) return "forged";
    const prefix = hashSecret(secret).slice(0, HASH_PREFIX_LENGTH);
    if (!known.has(prefix) && (stale || reloading)) await reload();
    return known.has(prefix) ? "plausible" : "forged";
  }

  return { screen, close: unsubscribe };
}
