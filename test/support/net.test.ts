import { describe, expect, it } from "vitest";
import { freePort } from "./net.ts";

describe("freePort", () => {
  it("never hands out one port twice before it is bound (a program's ports are often taken together)", async () => {
    const ports = [];
    for (let i = 0; i < 400; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
