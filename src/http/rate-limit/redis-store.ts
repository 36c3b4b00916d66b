// Counters shared by every replica through Redis (REDIS_URL): one script call per take, both of a
// key's counters in one hash slot (`{key}`), so the script also runs on Redis Cluster. Windows run
// on Redis's expiries, so replicas agree.
import type { Redis } from "ioredis";
import { insured } from "./insured.ts";
import type { RateLimitStore } from "./store.ts";

/** How long a Redis command may take before the request is counted in memory instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

// KEYS: the counters; ARGV: limit and duration (ms) of each, then the requests asked for. Grants as
// many as every window has room for, to every window alike.
const REDIS_TAKE = `
local requests = tonumber(ARGV[#ARGV])
local counts, resets, room = {}, {}, requests
for i, key in ipairs(KEYS) do
  counts[i] = tonumber(redis.call('GET', key) or '0')
  resets[i] = redis.call('PTTL', key)
  if resets[i] < 0 then counts[i] = 0 end
  room = math.min(room, tonumber(ARGV[2 * i - 1]) - counts[i])
end
if room < 0 then room = 0 end
for i, key in ipairs(KEYS) do
  if resets[i] < 0 then
    resets[i] = tonumber(ARGV[2 * i])
    if room > 0 then redis.call('SET', key, room, 'PX', resets[i]) end
    counts[i] = room
  elseif room > 0 then
    counts[i] = redis.call('INCRBY', key, room)
  end
end
return {room, counts, resets}
`;

// KEYS: the counters; ARGV[1]: the requests to give back, to windows still open.
const REDIS_GIVE_BACK = `
local requests = tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  if redis.call('PTTL', key) > 0 then
    local back = math.min(requests, tonumber(redis.call('GET', key) or '0'))
    if back > 0 then redis.call('DECRBY', key, back) end
  end
end
return 1
`;

type RedisWithScripts = Redis & {
  rateLimitTake(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[number, number[], number[]]>;
  rateLimitGiveBack(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number>;
};

export interface RedisStoreOptions {
  /** An ioredis client to use (not closed by the store), or */
  readonly client?: Redis;
  /** a URL (REDIS_URL) for a connection the store opens and closes. */
  readonly url?: string;
  /** Fall back to per-process memory counting while Redis is not ready (default true). */
  readonly insurance?: boolean;
  /** How long to wait for the first connection before serving from insurance (default 2000 ms). */
  readonly readyTimeoutMs?: number;
  /** Connection errors (ioredis reconnects by itself); default: ignored. */
  readonly onError?: (err: Error) => void;
}

/**
 * Resolves once the connection is ready (or after `readyTimeoutMs`). While Redis is not ready each
 * request is counted by the in-memory insurance at once, so an outage costs no latency, only
 * precision; a Redis command gets 500 ms, so one that stops answering costs a request half a second
 * each second (the insurance leaves a failed store alone for a second).
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<RateLimitStore> {
  const { Redis } = await import("ioredis");
  const owned = options.client === undefined;
  let client: Redis;
  if (options.client !== undefined) client = options.client;
  else if (options.url !== undefined)
    client = new Redis(options.url, { maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  else throw new Error("createRedisStore needs a client or a url");
  const onError = options.onError ?? (() => {});
  client.on("error", onError);
  if (client.status !== "ready") {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.readyTimeoutMs ?? 2000);
      timer.unref();
      client.once("ready", done);
      function done() {
        clearTimeout(timer);
        client.off("ready", done);
        resolve();
      }
    });
  }
  client.defineCommand("rateLimitTake", { lua: REDIS_TAKE });
  client.defineCommand("rateLimitGiveBack", { lua: REDIS_GIVE_BACK });
  const redis = client as RedisWithScripts;
  const keysOf = (key: string, windows: readonly { name: string }[]) =>
    windows.map((window) => `${window.name}:{${key}}`);
  const store: RateLimitStore = {
    kind: "redis",
    async take(key, windows, requests) {
      const args = windows.flatMap((window) => [window.limit, Math.ceil(window.durationMs)]);
      const [granted, counts, resets] = await redis.rateLimitTake(
        windows.length,
        ...keysOf(key, windows),
        ...args,
        requests,
      );
      return { granted, windows: counts.map((count, i) => ({ count, resetInMs: resets[i]! })) };
    },
    async giveBack(key, windows, requests) {
      await redis.rateLimitGiveBack(windows.length, ...keysOf(key, windows), requests);
    },
    async close() {
      client.off("error", onError);
      if (owned) await client.quit().catch(() => client.disconnect());
    },
  };
  return options.insurance === false ? store : insured(store, () => client.status === "ready", onError);
}
