// Where webhook deliveries may go. A delivery is a request the service makes on a caller's behalf,
// so the caller must not be able to aim it at the service's own network. The host is resolved,
// every address it resolves to is checked, and the connection goes to the address that was checked
// (`lookup` below), so a DNS answer that changes between the check and the connection (rebinding)
// cannot reach a refused address. Checked at registration and again at every attempt.
//
// Which addresses are refused: one table (`refusedRanges`), each range with what it is.
// - Every range IANA's special-purpose registries mark as not globally reachable: loopback,
//   private, carrier-grade NAT, link-local (cloud metadata at 169.254.169.254), unique-local and
//   site-local, benchmarking, documentation, discard, SRv6, multicast, reserved; and IPv6 outside
//   2000::/3, the only block allocated for unicast. No receiver can have such an address, so refusing
//   one costs nothing, and a network that uses one internally stays out of reach.
// - IPv6 forms that carry an IPv4 address, which a translator, a tunnel or the host's own stack may
//   turn into an IPv4 connection:
//   - 6to4 (2002::/16), NAT64 with the well-known prefix (64:ff9b::/96, what DNS64 answers in an
//     IPv6-only network) and Teredo (2001::/32: its server's IPv4 and its client's, every bit
//     inverted) are real addresses of real receivers: each is refused only when an IPv4 address it
//     carries is, and accepted when those are public.
//   - IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96, deprecated) and IPv4-translated
//     (::ffff:0:0:0/96, RFC 2765, withdrawn) addresses are only ever written by hand — no DNS name
//     answers one, and the IPv4 address can be written itself — and the local-use NAT64 prefix
//     (64:ff9b:1::/48) puts the IPv4 address where its operator chose: they are refused whole.
// Not covered, because the address says nothing of them: a network-specific NAT64 prefix (RFC 6052)
// or an ISATAP tunnel the host itself is configured with.
//
// WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (local development, tests) lifts the address rule and allows
// plain http. Without it only https URLs to public addresses are accepted.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { InvalidInputError, RefusedAddressError } from "./errors.ts";

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Resolves a hostname to every address it has, as dns.lookup with `all: true` does. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface WebhookTargets {
  /** The URL if deliveries may be sent to it; InvalidInputError naming `url` otherwise. */
  check(url: string): Promise<string>;
  /** A `lookup` for node:http that resolves, refuses what is not allowed, and connects to what it checked. */
  readonly lookup: LookupFunction;
  /** Why an address is refused, or undefined when deliveries may go there. */
  refusal(address: string): string | undefined;
}

interface RefusedRange {
  /** The range, in CIDR notation. */
  readonly range: string;
  /** What it is, as the refusal says it. */
  readonly is: string;
  /**
   * For a form that carries IPv4 addresses, the byte offsets where they are (`inverted`: every bit
   * flipped): an address in it is refused only when one of them is.
   */
  readonly carries?: readonly { readonly at: number; readonly inverted?: true }[];
}

/** The most specific range that holds an address decides: 64:ff9b::/96 inside ::/3, ::1/128 inside ::/96. */
const refusedRanges: readonly RefusedRange[] = [
  { range: "0.0.0.0/8", is: '"this network", unspecified' },
  { range: "10.0.0.0/8", is: "private (RFC 1918)" },
  { range: "100.64.0.0/10", is: "shared address space, carrier-grade NAT (RFC 6598)" },
  { range: "127.0.0.0/8", is: "loopback" },
  { range: "169.254.0.0/16", is: "link-local, cloud metadata" },
  { range: "172.16.0.0/12", is: "private (RFC 1918)" },
  { range: "192.0.0.0/24", is: "IETF protocol assignments" },
  { range: "192.0.2.0/24", is: "documentation (RFC 5737)" },
  { range: "192.88.99.0/24", is: "6to4 relay anycast, deprecated (RFC 7526)" },
  { range: "192.168.0.0/16", is: "private (RFC 1918)" },
  { range: "198.18.0.0/15", is: "benchmarking (RFC 2544)" },
  { range: "198.51.100.0/24", is: "documentation (RFC 5737)" },
  { range: "203.0.113.0/24", is: "documentation (RFC 5737)" },
  { range: "224.0.0.0/4", is: "multicast" },
  { range: "240.0.0.0/4", is: "reserved, broadcast" },

  { range: "::/3", is: "outside 2000::/3, not allocated for unicast" },
  { range: "4000::/2", is: "outside 2000::/3, not allocated for unicast" },
  { range: "8000::/1", is: "outside 2000::/3, not allocated for unicast" },
  { range: "::/128", is: "unspecified" },
  { range: "::1/128", is: "loopback" },
  { range: "::/96", is: "IPv4-compatible, deprecated (RFC 4291)" },
  { range: "::ffff:0:0/96", is: "IPv4-mapped" },
  { range: "::ffff:0:0:0/96", is: "IPv4-translated (RFC 2765)" },
  { range: "64:ff9b::/96", is: "NAT64 (RFC 6052)", carries: [{ at: 12 }] },
  { range: "64:ff9b:1::/48", is: "local-use NAT64 (RFC 8215)" },
  { range: "100::/64", is: "discard-only (RFC 6666)" },
  { range: "100:0:0:1::/64", is: "dummy prefix (RFC 9780)" },
  { range: "2001::/32", is: "Teredo (RFC 4380)", carries: [{ at: 4 }, { at: 12, inverted: true }] },
  { range: "2001:2::/48", is: "benchmarking (RFC 5180)" },
  { range: "2001:10::/28", is: "ORCHID, deprecated (RFC 4843)" },
  { range: "2001:db8::/32", is: "documentation (RFC 3849)" },
  { range: "2002::/16", is: "6to4 (RFC 3056)", carries: [{ at: 2 }] },
  { range: "3fff::/20", is: "documentation (RFC 9637)" },
  { range: "5f00::/16", is: "SRv6 segment identifiers (RFC 9602)" },
  { range: "fc00::/7", is: "unique-local" },
  { range: "fe80::/10", is: "link-local" },
  { range: "fec0::/10", is: "site-local, deprecated (RFC 3879)" },
  { range: "ff00::/8", is: "multicast" },
];

/** The address as bytes (4 or 16), or undefined when it is not an IP address. A zone (`%eth0`) is ignored. */
function bytesOf(address: string): Uint8Array | undefined {
  const plain = address.replace(/%.*$/, "");
  const family = isIP(plain);
  if (family === 4) return Uint8Array.from(plain.split(".").map(Number));
  if (family !== 6) return undefined;
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) as its two groups.
  const hex = plain.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
  );
  const [head = "", tail] = hex.split("::");
  const groupsOf = (part: string) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const before = groupsOf(head);
  const after = tail === undefined ? [] : groupsOf(tail);
  const groups = [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  return Uint8Array.from(groups.flatMap((group) => [group >> 8, group & 0xff]));
}

const ranges = refusedRanges.map((entry) => {
  const [network = "", prefix = ""] = entry.range.split("/");
  return { ...entry, network: bytesOf(network)!, prefix: Number(prefix) };
});

function contains(range: { network: Uint8Array; prefix: number }, bytes: Uint8Array): boolean {
  if (range.network.length !== bytes.length) return false;
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, range.prefix - bit))) & 0xff;
    if (((range.network[bit / 8]! ^ bytes[bit / 8]!) & mask) !== 0) return false;
  }
  return true;
}

/** Why an address (as bytes) is no place for a delivery — "in 127.0.0.0/8: loopback" — or undefined. */
function whyRefused(bytes: Uint8Array): string | undefined {
  let range: (typeof ranges)[number] | undefined;
  for (const candidate of ranges) {
    if (contains(candidate, bytes) && (!range || candidate.prefix > range.prefix)) range = candidate;
  }
  if (!range) return undefined;
  const why = `in ${range.range}: ${range.is}`;
  if (!range.carries) return why;
  for (const { at, inverted } of range.carries) {
    const ipv4 = bytes.subarray(at, at + 4).map((byte) => (inverted ? byte ^ 0xff : byte));
    const carried = whyRefused(ipv4);
    if (carried) return `${why}, and carries ${ipv4.join(".")}, which is ${carried}`;
  }
  return undefined;
}

/** Why `address` is no place for a delivery, or undefined when it is public. */
export function refusedAddressReason(address: string): string | undefined {
  const bytes = bytesOf(address);
  if (!bytes) return `${address} is not an IP address`;
  const why = whyRefused(bytes);
  return why && `${address} is ${why}`;
}

/** What a developer does to receive deliveries on their own machine. */
const LOCAL_DELIVERIES =
  "To receive deliveries on your own machine, forward them with `pbs listen --forward-to <url>`, or (on a development server) set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.";

export function createWebhookTargets(options: { allowPrivateNetworks: boolean; resolve?: Resolver }): WebhookTargets {
  const resolve: Resolver = options.resolve ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
  const refusal = (address: string) => (options.allowPrivateNetworks ? undefined : refusedAddressReason(address));

  /** Every address of the host, or an error saying which one is refused. */
  async function addressesOf(hostname: string): Promise<{ address: string; family: number }[]> {
    const literal = hostname.replace(/^\[|\]$/g, "");
    const addresses = isIP(literal) ? [{ address: literal, family: isIP(literal) }] : await resolve(hostname);
    if (addresses.length === 0) throw new Error(`${hostname} has no address`);
    for (const { address } of addresses) {
      const reason = refusal(address);
      if (reason)
        throw new RefusedAddressError(`${hostname} resolves to ${address}, which deliveries may not reach: ${reason}`);
    }
    return addresses;
  }

  return {
    refusal,
    async check(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new InvalidInputError("The url must be an absolute URL.", "url");
      }
      if (url.length > MAX_WEBHOOK_URL_LENGTH)
        throw new InvalidInputError(`The url is longer than ${MAX_WEBHOOK_URL_LENGTH} characters.`, "url");
      const schemes = options.allowPrivateNetworks ? ["https:", "http:"] : ["https:"];
      if (!schemes.includes(parsed.protocol) || !/^https?:\/\//i.test(url)) {
        throw new InvalidInputError(
          options.allowPrivateNetworks
            ? "The url must start with https:// or http://."
            : `Webhook deliveries are only sent over https: the url must start with https://. ${LOCAL_DELIVERIES}`,
          "url",
        );
      }
      if (parsed.username || parsed.password)
        throw new InvalidInputError("The url must not carry credentials (user:password@).", "url");
      try {
        await addressesOf(parsed.hostname);
      } catch (error) {
        if (error instanceof RefusedAddressError)
          throw new InvalidInputError(`The url cannot be used: ${error.message}. ${LOCAL_DELIVERIES}`, "url");
        // A name that does not resolve yet is accepted: its deliveries fail, and retry, until it does.
      }
      return url;
    },
    lookup(hostname, lookupOptions, callback) {
      addressesOf(hostname).then(
        (addresses) => {
          const wanted = typeof lookupOptions === "object" ? lookupOptions.family : undefined;
          const usable = addresses.filter(({ family }) => !wanted || wanted === family || wanted === `IPv${family}`);
          if (typeof lookupOptions === "object" && lookupOptions.all) return callback(null, usable);
          const [first] = usable;
          if (!first)
            return callback(
              Object.assign(new Error(`${hostname} has no usable address`), { code: "ENOTFOUND" }),
              "",
              4,
            );
          callback(null, first.address, first.family);
        },
        (error: Error) =>
          callback(Object.assign(error, { code: (error as NodeJS.ErrnoException).code ?? "EREFUSED" }), "", 4),
      );
    },
  };
}
