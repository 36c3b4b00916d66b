import { describe, expect, it } from "vitest";
import { freePort, workerPorts } from "./net.ts";

describe("freePort", () => {
  it("never hands out one port twice before it is bound (a server's API and apps ports are taken together)", async () => {
    const ports = [];
    for (let i = 0; i < 400; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});

describe("workerPorts", () => {
  it("gives consecutive workers consecutive slices, round when they run out", () => {
    expect(workerPorts([10_000, 32_767], 1)).toEqual([11_024, 12_047]);
    expect(workerPorts([10_000, 32_767], 2)).toEqual([12_048, 13_071]);
    expect(workerPorts([10_000, 32_767], 22)).toEqual([10_000, 11_023]);
  });
});
