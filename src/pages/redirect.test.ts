import { describe, expect, it } from "vitest";
import { safeNext, sameOriginPath } from "./redirect.ts";

describe("sameOriginPath", () => {
  it("keeps paths of this origin, in their resolved form", () => {
    expect(sameOriginPath("/")).toBe("/");
    expect(sameOriginPath("/a/b?c=d&e")).toBe("/a/b?c=d&e");
    expect(sameOriginPath("/a/./b/../c")).toBe("/a/c");
    expect(sameOriginPath("/a/b#fragment")).toBe("/a/b");
    expect(sameOriginPath("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example"); // an encoded slash is a character of one segment
  });

  it("refuses what resolves to another host, however it is spelled", () => {
    for (const target of [
      "//evil.example/x",
      "/\\evil.example/x",
      "/\\/evil.example/x",
      "/..//evil.example/x",
      "/.//evil.example/x",
      "/%2e//evil.example/x",
      "/%2e%2e//evil.example/x",
      "/settings/..//evil.example/x",
      "/settings/%2e%2e//evil.example/x",
      "/settings/.%2e//evil.example/x",
      "/settings/%2E%2E//evil.example/x",
      "/settings/..\\\\evil.example/x",
      "/settings/../..//evil.example",
      "/\t/evil.example/x",
      "/\n/evil.example/x",
      "https://evil.example/",
      "http://redirect.invalid/settings", // an absolute URL, even of the base used to resolve
      "javascript:alert(1)",
      "evil.example",
      "",
      `/${"a".repeat(5000)}`,
    ]) {
      expect(sameOriginPath(target), JSON.stringify(target)).toBeUndefined();
    }
  });

  it("with `within`, keeps only those paths and what is below them", () => {
    const within = ["/settings", "/oauth/authorize"];
    expect(sameOriginPath("/settings", { within })).toBe("/settings");
    expect(sameOriginPath("/settings/w/acme/keys?x=1", { within })).toBe("/settings/w/acme/keys?x=1");
    expect(sameOriginPath("/oauth/authorize?client_id=x", { within })).toBe("/oauth/authorize?client_id=x");
    expect(sameOriginPath("/settings/../oauth/authorize?a=b", { within })).toBe("/oauth/authorize?a=b");
    for (const target of [
      "/settingsx",
      "/v1/projects",
      "/settings/../v1/projects",
      "/oauth/token",
      "/settings/..//evil.example/x",
    ]) {
      expect(sameOriginPath(target, { within }), target).toBeUndefined();
    }
  });
});

describe("safeNext", () => {
  it("answers /settings for anything but a console or authorization path", () => {
    expect(safeNext(null)).toBe("/settings");
    expect(safeNext("/settings/w/acme/audit?kind=actions")).toBe("/settings/w/acme/audit?kind=actions");
    expect(safeNext("/settings/..//evil.example/x")).toBe("/settings");
    expect(safeNext("/settings/%2e%2e//evil.example/x")).toBe("/settings");
  });
});
