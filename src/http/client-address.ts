// Who is at the other end: the client address the audit log records and the per-address limit
// counts. TRUST_PROXY decides whether `X-Forwarded-For` is believed:
// - off (the default): the socket's peer address; `X-Forwarded-For` is ignored, since any client
//   can send one.
// - a hop count N (`true` means 1): N proxies stand in front of the server, each appending the
//   address it received the request from. The list [`X-Forwarded-For` entries…, socket address]
//   is read from the right and the entry N places left of the socket address is the client's: the
//   last one a trusted proxy wrote. Entries further left were written by the client and are
//   ignored.
// - a list of proxy addresses and CIDR ranges (`10.0.0.0/8, 192.168.1.7`, and the names
//   `loopback`, `linklocal`, `uniquelocal`): the list is read from the right, skipping addresses of
//   trusted proxies; the first address that is not one is the client's (the right-most untrusted
//   hop). When every address is a proxy's, the left-most is taken.
// These are Express's `trust proxy` semantics with one deliberate difference: `true` trusts one hop,
// not every hop (Express's `true` takes the left-most entry, which the client chooses).
// An entry that is not an IP address (a client's garbage, when more hops are trusted than there are
// proxies) is never taken: the address of the proxy that passed it on is. Ports (`1.2.3.4:5678`,
// `[2001:db8::1]:443`) are dropped, and IPv4-mapped IPv6 addresses are written as IPv4.
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/** TRUST_PROXY: off, a number of proxy hops, or the proxies' addresses and ranges. */
export type TrustProxy = false | { readonly hops: number } | { readonly proxies: readonly string[] };

const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/** Parses TRUST_PROXY; throws an Error saying what is wrong (the configuration names the variable). */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined) return false;
  const value = raw.trim().toLowerCase();
  if (["", "false", "0", "no", "off"].includes(value)) return false;
  if (["true", "yes", "on"].includes(value)) return { hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 20) throw new Error(`a hop count must be from 0 to 20, got ${hops}`);
    return { hops };
  }
  const proxies = value.split(",").map((part) => part.trim());
  for (const entry of proxies) proxyRanges(entry); // throws on a bad one
  return { proxies };
}

/** What the `proxies` entry `entry` trusts, as [address, prefix length] pairs. */
function proxyRanges(entry: string): Array<[string, number]> {
  const named = NAMED_RANGES[entry];
  if (named) return named.map((range) => proxyRanges(range)[0]!);
  const [address = "", prefix] = entry.split("/");
  const family = isIP(address);
  const bits = family === 4 ? 32 : 128;
  const length = prefix === undefined ? bits : /^\d+$/.test(prefix) ? Number(prefix) : Number.NaN;
  if (family === 0 || !(length >= 0 && length <= bits)) {
    throw new Error(
      `${JSON.stringify(entry)} is not an IP address, a CIDR range or one of ${Object.keys(NAMED_RANGES).join(", ")}`,
    );
  }
  return [[address, length]];
}

/** The function that tells a request's client address under `trust`. */
export function clientAddressResolver(trust: TrustProxy): (request: IncomingMessage) => string | null {
  if (trust === false || ("hops" in trust && trust.hops === 0))
    return (request) => normalize(request.socket?.remoteAddress);
  let isProxy: (address: string, hop: number) => boolean;
  if ("hops" in trust) {
    const { hops } = trust;
    isProxy = (_, hop) => hop < hops;
  } else {
    const list = new BlockList();
    for (const [address, prefix] of trust.proxies.flatMap(proxyRanges)) {
      list.addSubnet(address, prefix, isIP(address) === 4 ? "ipv4" : "ipv6");
    }
    isProxy = (address) => list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
  }
  return (request) => {
    const peer = normalize(request.socket?.remoteAddress);
    if (peer === null) return null;
    const forwarded = request.headers["x-forwarded-for"];
    if (!forwarded) return peer;
    const hops = (Array.isArray(forwarded) ? forwarded.join(",") : forwarded).split(",");
    let address = peer;
    for (let hop = 0; isProxy(address, hop); hop++) {
      const next = hops.length - 1 - hop;
      if (next < 0) break;
      const previous = normalize(hops[next]);
      if (previous === null) break;
      address = previous;
    }
    return address;
  };
}

/** An address as the audit log shows it: no port, IPv4-mapped IPv6 as IPv4; null when not an IP. */
function normalize(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let address = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.indexOf(":"));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) address = mapped[1]!;
  return isIP(address) === 0 ? null : address.toLowerCase();
}
