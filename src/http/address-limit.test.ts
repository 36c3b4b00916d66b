import { afterEach, describe, expect, it } from "vitest";
import { addressKey, createAddressLimiter, type AddressLimiter } from "./address-limit.ts";

describe("address limiter", () => {
  let clock = Date.UTC(2030, 0, 1);
  const limiters: AddressLimiter[] = [];
  const limiter = (options: { limit: number; maxAddresses?: number }) => {
    const created = createAddressLimiter({ ...options, now: () => clock });
    limiters.push(created);
    return created;
  };
  afterEach(() => {
    for (const created of limiters.splice(0)) created.close();
  });

  it("refuses an address once it has failed `limit` times in its window, until the window ends", () => {
    const limits = limiter({ limit: 3 });
    for (let i = 0; i < 3; i++) {
      expect(limits.refusal("203.0.113.9")).toBeUndefined();
      limits.failed("203.0.113.9");
      clock += 1000;
    }
    const refusal = limits.refusal("203.0.113.9");
    expect(refusal).toEqual({
      retryAfterSeconds: 57,
      window: {
        policy: "address",
        limit: 3,
        windowSeconds: 60,
        remaining: 0,
        used: 3,
        resetSeconds: 57,
        resetAt: (clock + 57_000) / 1000,
        exceeded: true,
      },
    });
    expect(limits.refusal("203.0.113.10")).toBeUndefined();
    clock += 57_000;
    expect(limits.refusal("203.0.113.9")).toBeUndefined();
    limits.failed("203.0.113.9");
    expect(limits.refusal("203.0.113.9")).toBeUndefined();
  });

  it("counts an IPv6 address by its /64", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::7")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("192.0.2.1")).toBe("192.0.2.1");
    expect(addressKey(null)).toBe("unknown");
    const limits = limiter({ limit: 2 });
    limits.failed("2001:db8:1:2::1");
    limits.failed("2001:db8:1:2::2");
    expect(limits.refusal("2001:db8:1:2:ffff::9")).toBeDefined();
    expect(limits.refusal("2001:db8:1:3::1")).toBeUndefined();
  });

  it("tracks at most `maxAddresses` addresses, forgetting the oldest", () => {
    const limits = limiter({ limit: 1, maxAddresses: 100 });
    for (let i = 0; i < 10_000; i++) limits.failed(`10.0.${i >> 8}.${i & 255}`);
    expect(limits.refusal("10.0.39.15")).toBeDefined(); // the last one
    expect(limits.refusal("10.0.0.0")).toBeUndefined(); // long forgotten
    let tracked = 0;
    for (let i = 0; i < 10_000; i++) if (limits.refusal(`10.0.${i >> 8}.${i & 255}`)) tracked++;
    expect(tracked).toBe(100);
  });

  it("limits nothing with a limit of 0", () => {
    const limits = limiter({ limit: 0 });
    for (let i = 0; i < 100; i++) limits.failed("203.0.113.9");
    expect(limits.refusal("203.0.113.9")).toBeUndefined();
  });
});
