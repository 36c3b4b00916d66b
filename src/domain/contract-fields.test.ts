import { describe, expect, it } from "vitest";
import { contractFields, errorOf } from "./contract-fields.ts";

describe("contractFields", () => {
  it("renames the columns snake_case, in the order given, and writes dates as ISO 8601 text", () => {
    const row = {
      id: "x",
      sizeBytes: 3,
      createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
      readyAt: null,
      secretHash: "h",
    };
    const fields = contractFields(row, ["id", "createdAt", "readyAt", "sizeBytes"]);
    expect(JSON.stringify(fields)).toBe(
      '{"id":"x","created_at":"2026-01-02T03:04:05.006Z","ready_at":null,"size_bytes":3}',
    );
  });

  it("makes an error of a code and message, or null without a code", () => {
    expect(errorOf({ errorCode: "build_failed", errorMessage: null })).toEqual({ code: "build_failed", message: "" });
    expect(errorOf({ errorCode: null, errorMessage: "left over" })).toBeNull();
  });
});
