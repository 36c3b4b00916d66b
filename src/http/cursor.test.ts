import { describe, expect, it } from "vitest";
import { CursorError, createCursorCodec, listBound } from "./cursor.ts";
import type { CursorPosition } from "./cursor.ts";

const SECRET = "test-secret-0123456789abcdef";
const codec = createCursorCodec({ secret: SECRET });
const projects = listBound({ list: "projects", workspaceId: "ws_1", environment: "live" });
// A realistic worst case: microsecond timestamp with offset, a long id.
const position: CursorPosition = {
  created_at: "2030-01-31 23:59:59.123456+00",
  id: "prj_01JH8Z4X2R9Q7W6E5T4Y3U2I1O0P",
};

describe("cursor codec", () => {
  it("round-trips a position", () => {
    const c = codec.encode(position, projects);
    expect(codec.decode(c, projects)).toEqual({ ok: true, position });
    expect(codec.decodeOrThrow(c, projects)).toEqual(position);
  });

  it("is URL-safe, opaque and well under the contract's maxLength", () => {
    const c = codec.encode(position, projects);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(c.length).toBeLessThan(200);
    expect(c).not.toContain(position.id); // not readable as-is
    expect(encodeURIComponent(c)).toBe(c);
  });

  it("detects tampering with any single character", () => {
    const c = codec.encode(position, projects);
    let tampered = 0;
    for (let i = 0; i < c.length; i++) {
      const ch = c[i] === "A" ? "B" : "A";
      const forged = c.slice(0, i) + ch + c.slice(i + 1);
      const r = codec.decode(forged, projects);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(["tampered", "malformed"]).toContain(r.reason);
        if (r.reason === "tampered") tampered++;
      }
    }
    expect(tampered).toBeGreaterThan(c.length / 2);
  });

  it("detects a re-signed body under another secret, and a forged position", () => {
    const other = createCursorCodec({ secret: "another-secret-0123456789" });
    const r = codec.decode(other.encode(position, projects), projects);
    expect(r).toMatchObject({ ok: false, reason: "tampered", param: "cursor" });
    // Splice a different position into a genuine cursor: the MAC no longer matches.
    const genuine = Buffer.from(codec.encode(position, projects), "base64url");
    const body = Buffer.from(JSON.stringify(["1970-01-01 00:00:00+00", "prj_x"]));
    const forged = Buffer.concat([genuine.subarray(0, 29), body]).toString("base64url");
    expect(codec.decode(forged, projects)).toMatchObject({ ok: false, reason: "tampered" });
  });

  it("refuses a cursor of another list, filter set, workspace or environment", () => {
    const c = codec.encode(position, projects);
    const others = [
      listBound({ list: "deployments", workspaceId: "ws_1", environment: "live" }),
      listBound({ list: "projects", workspaceId: "ws_2", environment: "live" }),
      listBound({ list: "projects", workspaceId: "ws_1", environment: "test" }),
      listBound({ list: "projects", workspaceId: "ws_1", environment: "live", filters: { visibility: "public" } }),
    ];
    for (const bound of others) {
      expect(codec.decode(c, bound)).toMatchObject({ ok: false, reason: "wrong_list", param: "cursor" });
    }
    const filtered = listBound({
      list: "projects",
      workspaceId: "ws_1",
      environment: "live",
      filters: { visibility: "public", agent: "coding-agent-2" },
    });
    const fc = codec.encode(position, filtered);
    const otherFilter = listBound({
      list: "projects",
      workspaceId: "ws_1",
      environment: "live",
      filters: { visibility: "private", agent: "coding-agent-2" },
    });
    expect(codec.decode(fc, otherFilter)).toMatchObject({ ok: false, reason: "wrong_list" });
  });

  it("binds filters canonically: key order and absent values do not matter", () => {
    const a = listBound({
      list: "projects",
      workspaceId: "w",
      environment: "live",
      filters: { a: 1, b: "x", c: undefined },
    });
    const b = listBound({
      list: "projects",
      workspaceId: "w",
      environment: "live",
      filters: { b: "x", a: 1, d: null },
    });
    expect(a).toBe(b);
    expect(listBound({ list: "projects", workspaceId: "w", environment: "live" })).toBe(
      listBound({ list: "projects", workspaceId: "w", environment: "live", filters: {} }),
    );
    // Field boundaries are unambiguous.
    expect(listBound({ list: "a", workspaceId: "bc", environment: "live" })).not.toBe(
      listBound({ list: "ab", workspaceId: "c", environment: "live" }),
    );
  });

  it("refuses garbage as malformed", () => {
    const garbage = [
      "",
      "x",
      "not a cursor",
      "%%%",
      "abc.def",
      "A".repeat(600),
      "eyJmb28iOiJiYXIifQ",
      Buffer.alloc(40).toString("base64url"),
    ];
    for (const g of garbage) {
      expect(codec.decode(g, projects)).toMatchObject({ ok: false, reason: "malformed", param: "cursor" });
    }
    expect(() => codec.decodeOrThrow("nope", projects)).toThrow(CursorError);
    try {
      codec.decodeOrThrow("nope", projects);
    } catch (e) {
      expect((e as CursorError).reason).toBe("malformed");
      expect((e as CursorError).param).toBe("cursor");
    }
  });

  it("accepts cursors signed with a previous secret during rotation", () => {
    const oldCodec = createCursorCodec({ secret: "old-secret-0123456789abcdef" });
    const rotated = createCursorCodec({ secret: SECRET, previousSecrets: ["old-secret-0123456789abcdef"] });
    const c = oldCodec.encode(position, projects);
    expect(rotated.decode(c, projects)).toEqual({ ok: true, position });
    expect(codec.decode(c, projects)).toMatchObject({ ok: false, reason: "tampered" });
  });

  it("rejects short secrets", () => {
    expect(() => createCursorCodec({ secret: "short" })).toThrow(/16 bytes/);
  });
});
