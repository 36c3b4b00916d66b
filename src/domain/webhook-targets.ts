// Where webhook deliveries may go. A delivery is a request the service makes on a caller's behalf,
// so the caller must not be able to aim it at the service's own network: loopback, private,
// link-local (cloud metadata at 169.254.169.254), unique-local, IPv4-mapped IPv6, unspecified,
// multicast and reserved addresses are refused, at registration and again at every attempt. The
// host is resolved, every address it resolves to is checked, and the connection goes to the
// address that was checked (`lookup` below), so a DNS answer that changes between the check and the
// connection (rebinding) cannot reach a refused address.
//
// WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (local development, tests) lifts the address rule and allows
// plain http. Without it only https URLs to public addresses are accepted.
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { InvalidInputError } from "./errors.ts";

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

// One list per family: a BlockList matches IPv4 addresses against IPv4-mapped IPv6 subnets too, so
// one list holding ::ffff:0:0/96 would refuse every IPv4 address.
const refusedV4 = new BlockList();
const refusedV6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  refusedV4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128],
  ["::ffff:0:0", 96], // IPv4-mapped
  ["64:ff9b::", 96], // NAT64: maps IPv4, private ones included
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  refusedV6.addSubnet(network, prefix, "ipv6");
}

/** Why `address` is no place for a delivery, or undefined when it is public. */
export function refusedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const listed = family === 4 ? refusedV4.check(address, "ipv4") : refusedV6.check(address, "ipv6");
  return listed ? `${address} is a loopback, private, link-local or reserved address` : undefined;
}

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
      if (reason) throw new RefusedAddressError(`${hostname} resolves to ${address}, which deliveries may not reach: ${reason}`);
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
      if (url.length > MAX_WEBHOOK_URL_LENGTH) throw new InvalidInputError(`The url is longer than ${MAX_WEBHOOK_URL_LENGTH} characters.`, "url");
      const schemes = options.allowPrivateNetworks ? ["https:", "http:"] : ["https:"];
      if (!schemes.includes(parsed.protocol) || !/^https?:\/\//i.test(url)) {
        throw new InvalidInputError(
          options.allowPrivateNetworks ? "The url must start with https:// or http://." : "Webhook deliveries are only sent over https: the url must start with https://.",
          "url",
        );
      }
      if (parsed.username || parsed.password) throw new InvalidInputError("The url must not carry credentials (user:password@).", "url");
      try {
        await addressesOf(parsed.hostname);
      } catch (error) {
        if (error instanceof RefusedAddressError) throw new InvalidInputError(`The url cannot be used: ${error.message}.`, "url");
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
          if (!first) return callback(Object.assign(new Error(`${hostname} has no usable address`), { code: "ENOTFOUND" }), "", 4);
          callback(null, first.address, first.family);
        },
        (error: Error) => callback(Object.assign(error, { code: (error as NodeJS.ErrnoException).code ?? "EREFUSED" }), "", 4),
      );
    },
  };
}

/** The host resolves to an address deliveries may not reach. */
export class RefusedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RefusedAddressError";
  }
}
