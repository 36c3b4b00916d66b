// Authenticate once per credential per short interval: what a bearer secret resolves to (its
// principal, or why it is refused) is kept in memory, so a warm request costs no database work to
// authenticate. Revocation stays immediate because the database announces every change to a
// credential (storage/notifications.ts) and the cache forgets the workspace it concerns:
// - a change committed by this process is heard before the code that made it carries on;
// - a change committed elsewhere is heard as soon as PostgreSQL delivers it to this replica;
// - while the feed cannot promise that (its connection is down), nothing is cached at all.
// A lookup that overlaps a change is not stored (the generation check): it may have read the row as
// it was before.
//
// Entries also age out on their own: a principal when its key expires, and when its last use is a
// minute old (the next request looks it up again, which records the use, as `last_used_at` promises);
// a refusal after a minute. Both maps are bounded; a flood of random secrets only churns the map of
// refusals, never the principals.
import type { Principal, Refusal } from "../domain/keys.ts";
import { hashSecret } from "../domain/keys.ts";
import { LAST_USED_RESOLUTION_MS } from "../domain/last-use.ts";
import type { ChangeFeed } from "../storage/notifications.ts";

type Authenticate = (secret: string) => Promise<Principal | Refusal>;

export interface PrincipalCacheOptions {
  /** The lookup behind the cache. */
  readonly authenticate: Authenticate;
  readonly changes: ChangeFeed;
  /** Principals kept (default 10,000). */
  readonly maxPrincipals?: number;
  /** Refusals kept (default 1,000). */
  readonly maxRefusals?: number;
  readonly now?: () => number;
}

export interface PrincipalCache {
  readonly authenticate: Authenticate;
  /** What the cache knows of a secret, without looking it up: undefined when it knows nothing fresh. */
  fromMemory(secret: string): Principal | Refusal | undefined;
  /** Stops listening for changes. */
  close(): void;
}

interface Entry {
  readonly result: Principal | Refusal;
  readonly workspaceId: string | undefined;
  /** Looked up again from this time on (epoch ms). */
  readonly freshUntil: number;
}

const REFUSAL_TTL_MS = 60_000;

export function createPrincipalCache(options: PrincipalCacheOptions): PrincipalCache {
  const now = options.now ?? Date.now;
  const principals = new BoundedMap(options.maxPrincipals ?? 10_000);
  const refusals = new BoundedMap(options.maxRefusals ?? 1_000);
  // Bumped by every change heard: a lookup that began before one is not stored.
  let generation = 0;

  const unsubscribe = options.changes.subscribe({
    changed(payload) {
      generation++;
      if (payload === "+") {
        // A new credential: a secret refused as unknown may be it now.
        refusals.deleteWhere((entry) => entry.workspaceId === undefined);
      } else if (payload === "*") {
        principals.clear();
        refusals.clear();
      } else {
        principals.deleteWhere((entry) => entry.workspaceId === payload);
        refusals.deleteWhere((entry) => entry.workspaceId === payload);
      }
    },
    gap() {
      generation++;
      principals.clear();
      refusals.clear();
    },
  });

  function cachedResult(hash: string, at: number): Principal | Refusal | undefined {
    const cached = principals.get(hash) ?? refusals.get(hash);
    return cached && cached.freshUntil > at && options.changes.connected ? cached.result : undefined;
  }

  async function authenticate(secret: string): Promise<Principal | Refusal> {
    const hash = hashSecret(secret);
    const at = now();
    const cached = cachedResult(hash, at);
    if (cached) return cached;

    const seen = generation;
    const listening = options.changes.connected;
    const result = await options.authenticate(secret);
    if (listening && options.changes.connected && generation === seen) {
      if ("refused" in result) {
        principals.delete(hash);
        refusals.set(hash, { result, workspaceId: result.workspaceId, freshUntil: at + REFUSAL_TTL_MS });
      } else {
        refusals.delete(hash);
        const freshUntil = principalFreshUntil(result);
        if (freshUntil > at) principals.set(hash, { result, workspaceId: result.workspace.id, freshUntil });
      }
    }
    return result;
  }

  return { authenticate, fromMemory: (secret) => cachedResult(hashSecret(secret), now()), close: unsubscribe };
}

function principalFreshUntil({ key }: Principal): number {
  if (!key.lastUsedAt) return 0;
  const reuse = key.lastUsedAt.getTime() + LAST_USED_RESOLUTION_MS;
  return key.expiresAt ? Math.min(reuse, key.expiresAt.getTime()) : reuse;
}

/** A Map that forgets its oldest entry when full. */
class BoundedMap {
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  constructor(max: number) {
    this.#max = max;
  }
  get(key: string): Entry | undefined {
    return this.#entries.get(key);
  }
  set(key: string, entry: Entry): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, entry);
  }
  delete(key: string): void {
    this.#entries.delete(key);
  }
  deleteWhere(test: (entry: Entry) => boolean): void {
    for (const [key, entry] of this.#entries) if (test(entry)) this.#entries.delete(key);
  }
  clear(): void {
    this.#entries.clear();
  }
}
