import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddressResolver, parseTrustProxy } from "./client-address.ts";

const request = (peer: string | undefined, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  }) as unknown as IncomingMessage;

describe("client address", () => {
  it("is the socket's peer when TRUST_PROXY is off, whatever X-Forwarded-For says", () => {
    const address = clientAddressResolver(parseTrustProxy(undefined));
    expect(address(request("10.0.0.5", "203.0.113.9"))).toBe("10.0.0.5");
    expect(address(request("::ffff:192.0.2.1"))).toBe("192.0.2.1");
    expect(address(request("2001:DB8::1"))).toBe("2001:db8::1");
    expect(address(request(undefined))).toBeNull();
  });

  it("with one trusted hop (true), is the right-most X-Forwarded-For entry: what the proxy wrote, not what the client sent", () => {
    const address = clientAddressResolver(parseTrustProxy("true"));
    expect(address(request("10.0.0.5", "203.0.113.9"))).toBe("203.0.113.9");
    // The client sent its own X-Forwarded-For; the proxy appended the address it saw.
    expect(address(request("10.0.0.5", "1.2.3.4, 203.0.113.9"))).toBe("203.0.113.9");
    expect(address(request("10.0.0.5"))).toBe("10.0.0.5");
    // Several X-Forwarded-For fields arrive as one, joined by commas.
    expect(address(request("10.0.0.5", "1.2.3.4,203.0.113.9"))).toBe("203.0.113.9");
  });

  it("with N hops, is the entry N places left of the peer; fewer entries give the left-most", () => {
    const address = clientAddressResolver(parseTrustProxy("2"));
    expect(address(request("10.0.0.5", "6.6.6.6, 203.0.113.9, 10.0.0.7"))).toBe("203.0.113.9");
    expect(address(request("10.0.0.5", "203.0.113.9"))).toBe("203.0.113.9");
    expect(clientAddressResolver(parseTrustProxy("0"))(request("10.0.0.5", "203.0.113.9"))).toBe("10.0.0.5");
  });

  it("never takes an entry that is not an IP address: the proxy that passed it on is taken instead", () => {
    const address = clientAddressResolver(parseTrustProxy("2"));
    expect(address(request("10.0.0.5", "not-an-ip, 10.0.0.7"))).toBe("10.0.0.7");
    expect(clientAddressResolver(parseTrustProxy("1"))(request("10.0.0.5", "<script>"))).toBe("10.0.0.5");
  });

  it("drops ports and unwraps IPv4-mapped addresses in X-Forwarded-For", () => {
    const address = clientAddressResolver(parseTrustProxy("1"));
    expect(address(request("10.0.0.5", "203.0.113.9:41234"))).toBe("203.0.113.9");
    expect(address(request("10.0.0.5", "[2001:db8::7]:443"))).toBe("2001:db8::7");
    expect(address(request("10.0.0.5", "::ffff:203.0.113.9"))).toBe("203.0.113.9");
  });

  it("with a list of proxies, is the right-most address that is not a trusted proxy's", () => {
    const address = clientAddressResolver(parseTrustProxy("10.0.0.0/8, 192.168.1.7, loopback"));
    expect(address(request("10.0.0.5", "1.2.3.4, 203.0.113.9, 192.168.1.7, 10.1.2.3"))).toBe("203.0.113.9");
    // A peer that is not a trusted proxy is the client, whatever it forwards.
    expect(address(request("198.51.100.1", "203.0.113.9"))).toBe("198.51.100.1");
    expect(address(request("::ffff:127.0.0.1", "203.0.113.9"))).toBe("203.0.113.9");
    // Every address a proxy's: the left-most.
    expect(address(request("10.0.0.5", "10.0.0.9, 192.168.1.7"))).toBe("10.0.0.9");
    const v6 = clientAddressResolver(parseTrustProxy("fc00::/7"));
    expect(v6(request("fd00::1", "2001:db8::9, fd00::2"))).toBe("2001:db8::9");
  });

  it("refuses TRUST_PROXY values it cannot read", () => {
    for (const bad of ["maybe", "10.0.0.0/33", "10.0.0/8", "300.1.1.1", "21", "10.0.0.1,,10.0.0.2"]) {
      expect(() => parseTrustProxy(bad), bad).toThrow();
    }
  });
});
