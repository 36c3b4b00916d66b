import { describe, expect, it } from "vitest";
import { refusedAddressReason } from "./webhook-targets.ts";

describe("refusedAddressReason", () => {
  it("refuses loopback, private, link-local, unique-local, mapped, NAT64, unspecified, multicast and reserved addresses", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "10.0.0.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:8.8.8.8",
      "64:ff9b::a00:1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
    ]) {
      expect(refusedAddressReason(address), address).toBeDefined();
    }
  });

  it("accepts public addresses of both families", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "192.169.0.1", "2606:2800:220:1::1", "2001:4860:4860::8888"]) {
      expect(refusedAddressReason(address), address).toBeUndefined();
    }
  });
});
