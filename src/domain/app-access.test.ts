import { describe, expect, it } from "vitest";
import { ACCESS_TOKEN_TTL_MS, createAppAccess } from "./app-access.ts";

const local = createAppAccess({ secret: "s".repeat(32), appsDomain: undefined, appsPort: () => 8081 });
const hosted = createAppAccess({ secret: "s".repeat(32), appsDomain: "Apps.Example.com", appsPort: () => 8081 });

describe("app origins", () => {
  it("puts each label on an origin of its own", () => {
    expect(local.origin("shop-abc123")).toBe("http://shop-abc123.localhost:8081/");
    expect(hosted.origin("shop-abc123")).toBe("https://shop-abc123.apps.example.com/");
    expect(local.secure).toBe(false);
    expect(hosted.secure).toBe(true);
  });

  it("reads the label from a Host header, and nothing else", () => {
    expect(local.labelOf("shop-abc123.localhost:8081")).toBe("shop-abc123");
    expect(local.labelOf("SHOP-ABC123.LOCALHOST")).toBe("shop-abc123");
    expect(hosted.labelOf("shop-abc123.apps.example.com.")).toBe("shop-abc123");
    for (const host of [
      undefined,
      "localhost:8081",
      "127.0.0.1:8081",
      "a.b.localhost",
      "-bad.localhost",
      "shop.example.com",
      "x.apps.example.com.evil.com",
    ]) {
      expect(local.labelOf(host), String(host)).toBeUndefined();
    }
    expect(hosted.labelOf("shop.localhost")).toBeUndefined();
  });
});

describe("private-app tokens", () => {
  const now = new Date("2026-11-23T12:00:00Z");

  it("grant the project they were made for until they expire", () => {
    const token = local.token("prj_a", now);
    expect(local.verify(token, "prj_a", now)).toBe(true);
    expect(local.verify(token, "prj_a", new Date(now.getTime() + ACCESS_TOKEN_TTL_MS - 1000))).toBe(true);
    expect(local.verify(token, "prj_a", new Date(now.getTime() + ACCESS_TOKEN_TTL_MS + 1000))).toBe(false);
    expect(local.verify(token, "prj_b", now)).toBe(false);
  });

  it("refuse tampering, other secrets and garbage", () => {
    const token = local.token("prj_a", now);
    const [expires, signature] = token.split(".");
    expect(local.verify(`${Number(expires) + 3600}.${signature}`, "prj_a", now)).toBe(false);
    expect(local.verify(`${expires}.${signature!.slice(0, -1)}A`, "prj_a", now)).toBe(false);
    const other = createAppAccess({ secret: "t".repeat(32), appsDomain: undefined, appsPort: () => 8081 });
    expect(other.verify(token, "prj_a", now)).toBe(false);
    for (const garbage of [undefined, "", "x", "1.2", `${expires}.${signature}.extra`])
      expect(local.verify(garbage, "prj_a", now)).toBe(false);
  });

  it("are added to the urls of private projects only", () => {
    const url = "http://shop-abc123.localhost:8081/";
    expect(local.present(url, "prj_a", "public", now)).toBe(url);
    expect(local.present(url, "prj_a", "unlisted", now)).toBe(url);
    const signed = new URL(local.present(url, "prj_a", "private", now));
    expect(signed.origin).toBe("http://shop-abc123.localhost:8081");
    expect(local.verify(signed.searchParams.get("access_token")!, "prj_a", now)).toBe(true);
  });
});
