import { describe, expect, it } from "vitest";
import { refusedAddressReason } from "./webhook-targets.ts";

// Each range with addresses in it that are refused and, where the range judges by the IPv4 address
// it carries (6to4, NAT64, Teredo), addresses in it that are accepted, beside neighbours just outside.
const ranges: { range: string; refused: string[]; accepted?: string[] }[] = [
  // IPv4
  { range: "0.0.0.0/8", refused: ["0.0.0.0", "0.1.2.3"] },
  { range: "10.0.0.0/8", refused: ["10.0.0.1", "10.255.255.255"], accepted: ["11.0.0.1", "9.255.255.255"] },
  { range: "100.64.0.0/10", refused: ["100.64.0.1", "100.127.255.254"], accepted: ["100.63.255.255", "100.128.0.1"] },
  { range: "127.0.0.0/8", refused: ["127.0.0.1", "127.255.0.9"] },
  {
    range: "169.254.0.0/16",
    refused: ["169.254.169.254", "169.254.0.1"],
    accepted: ["169.253.255.255", "169.255.0.1"],
  },
  { range: "172.16.0.0/12", refused: ["172.16.0.1", "172.31.255.255"], accepted: ["172.15.255.255", "172.32.0.1"] },
  { range: "192.0.0.0/24", refused: ["192.0.0.8"], accepted: ["192.0.1.1"] },
  { range: "192.0.2.0/24", refused: ["192.0.2.1"], accepted: ["192.0.3.1"] },
  { range: "192.88.99.0/24", refused: ["192.88.99.1"], accepted: ["192.88.98.1"] },
  { range: "192.168.0.0/16", refused: ["192.168.1.1"], accepted: ["192.169.0.1", "192.167.255.255"] },
  { range: "198.18.0.0/15", refused: ["198.18.0.1", "198.19.255.255"], accepted: ["198.20.0.1", "198.17.255.255"] },
  { range: "198.51.100.0/24", refused: ["198.51.100.7"], accepted: ["198.51.101.7"] },
  { range: "203.0.113.0/24", refused: ["203.0.113.9"], accepted: ["203.0.114.9"] },
  { range: "224.0.0.0/4", refused: ["224.0.0.1", "239.255.255.255"] },
  { range: "240.0.0.0/4", refused: ["240.0.0.1", "255.255.255.255"], accepted: ["223.255.255.255"] },
  // IPv6 that is not a public unicast address
  { range: "::/128", refused: ["::", "0:0:0:0:0:0:0:0"] },
  { range: "::1/128", refused: ["::1"] },
  { range: "100::/64", refused: ["100::1", "100::ffff:ffff:ffff:ffff"] },
  { range: "100:0:0:1::/64", refused: ["100:0:0:1::1"] },
  { range: "2001:2::/48", refused: ["2001:2::1"], accepted: ["2001:3::1"] },
  { range: "2001:10::/28", refused: ["2001:10::1", "2001:1f::1"] },
  { range: "2001:db8::/32", refused: ["2001:db8::1", "2001:db8:ffff::1"], accepted: ["2001:db9::1", "2001:db7::1"] },
  { range: "3fff::/20", refused: ["3fff::1", "3fff:fff::1"], accepted: ["3fff:1000::1"] },
  { range: "5f00::/16", refused: ["5f00::1"] },
  { range: "fc00::/7", refused: ["fc00::1", "fd12:3456::1"] },
  { range: "fe80::/10", refused: ["fe80::1", "fe80::1%eth0"] },
  { range: "fec0::/10", refused: ["fec0::1"] },
  { range: "ff00::/8", refused: ["ff02::1"] },
  {
    range: "outside 2000::/3",
    refused: ["1::1", "4000::1", "e000::1"],
    accepted: ["2606:2800:220:1::1", "2001:4860:4860::8888", "2c0f:fb50:4003::1"],
  },
  // IPv6 forms that carry an IPv4 address
  { range: "::/96 (IPv4-compatible)", refused: ["::127.0.0.1", "::7f00:1", "::a9fe:a9fe", "::8.8.8.8"] },
  {
    range: "::ffff:0:0/96 (IPv4-mapped)",
    refused: ["::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:8.8.8.8", "::ffff:808:808"],
  },
  { range: "::ffff:0:0:0/96 (IPv4-translated)", refused: ["::ffff:0:127.0.0.1", "::ffff:0:808:808"] },
  {
    range: "64:ff9b::/96 (NAT64)",
    refused: ["64:ff9b::a00:1", "64:ff9b::127.0.0.1", "64:ff9b::169.254.169.254", "64:ff9b::c0a8:101"],
    accepted: ["64:ff9b::808:808", "64:ff9b::93.184.216.34"],
  },
  { range: "64:ff9b:1::/48 (local-use NAT64)", refused: ["64:ff9b:1::808:808", "64:ff9b:1:ffff::7f00:1"] },
  {
    range: "2002::/16 (6to4)",
    refused: ["2002:7f00:1::1", "2002:a9fe:a9fe::1", "2002:a00:1::", "2002:c0a8:101:5::1", "2002:c000:201::1"],
    accepted: ["2002:808:808::1", "2002:5db8:d822:1::1"],
  },
  {
    // 2001:0:<server IPv4>:<flags>:<port>:<client IPv4, every bit inverted>
    range: "2001::/32 (Teredo)",
    refused: [
      "2001:0:4136:e378:8000:63bf:80ff:fffe", // client 127.0.0.1
      "2001:0:4136:e378:8000:63bf:5601:5601", // client 169.254.169.254
      "2001:0:4136:e378:8000:63bf:f5ff:fffe", // client 10.0.0.1
      "2001:0:a00:1:8000:63bf:f7f7:f7f7", // server 10.0.0.1
    ],
    accepted: ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "2001:4:112::1"], // server 65.54.227.120, client 8.8.8.8; AS112
  },
];

describe("refusedAddressReason", () => {
  it.each(ranges)("$range", ({ refused, accepted = [] }) => {
    for (const address of refused) expect(refusedAddressReason(address), address).toBeDefined();
    for (const address of accepted) expect(refusedAddressReason(address), address).toBeUndefined();
  });

  it("names the range and, for a form that carries one, the IPv4 address refused", () => {
    expect(refusedAddressReason("169.254.169.254")).toMatch(/169\.254\.0\.0\/16.*link-local/);
    expect(refusedAddressReason("2002:a9fe:a9fe::1")).toMatch(/6to4.*169\.254\.169\.254.*link-local/);
    expect(refusedAddressReason("2001:0:4136:e378:8000:63bf:80ff:fffe")).toMatch(/Teredo.*127\.0\.0\.1.*loopback/);
    expect(refusedAddressReason("::7f00:1")).toMatch(/IPv4-compatible/);
  });

  it("accepts public addresses of both families", () => {
    for (const address of [
      "93.184.216.34",
      "8.8.8.8",
      "1.1.1.1",
      "2606:2800:220:1::1",
      "2001:4860:4860::8888",
      "2a00:1450:4001:80b::200e",
    ]) {
      expect(refusedAddressReason(address), address).toBeUndefined();
    }
  });

  it("refuses what is not an IP address", () => {
    for (const address of ["example.com", "", "1.2.3", "::g"])
      expect(refusedAddressReason(address), address).toBeDefined();
  });
});
