// The one error table: every error class the domain exports has a status and a code of the contract,
// found by reading the domain's modules, so that a new class without a row fails here.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ForbiddenError, TooManyStreamsError } from "../domain/errors.ts";
import { domainFailure, toHttpError } from "./errors.ts";

const root = join(import.meta.dirname, "..", "..");
const document = JSON.parse(readFileSync(join(root, "generated", "openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  components: { schemas: { ErrorCode: { enum: string[] } } };
};
const codes = document.components.schemas.ErrorCode.enum;
/** Every status an operation of the contract declares. */
const declared = new Set(
  Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) => Object.keys(operation.responses ?? {})),
  ),
);

type ErrorClass = new (...args: unknown[]) => Error;

/** The Error subclasses the modules of src/domain/ export, by name. */
async function domainErrorClasses(): Promise<Map<string, ErrorClass>> {
  const folder = join(root, "src", "domain");
  const found = new Map<string, ErrorClass>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))) {
    const exports = (await import(join(folder, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value === "function" && value.prototype instanceof Error) found.set(name, value as ErrorClass);
    }
  }
  return found;
}

describe("the one error table", () => {
  it("maps every error class of the domain to a status and a code the contract declares", async () => {
    const classes = await domainErrorClasses();
    expect([...classes.keys()]).toEqual(expect.arrayContaining(["NotFoundError", "ForbiddenError"]));
    for (const [name, type] of classes) {
      const failure = domainFailure(new type("what went wrong", 1));
      expect(failure, `${name} has no row in src/http/errors.ts`).toBeDefined();
      expect(failure!.status, name).toBeGreaterThanOrEqual(400);
      expect(declared, `${name}: no operation declares ${failure!.status}`).toContain(String(failure!.status));
      expect(codes, name).toContain(failure!.code);
      expect(toHttpError(new type("what went wrong", 1))).toMatchObject({
        status: failure!.status,
        code: failure!.code,
      });
    }
  });

  it("answers a role that does not allow the action 403 forbidden", () => {
    expect(toHttpError(new ForbiddenError("Only an owner can make or change an owner."))).toMatchObject({
      status: 403,
      code: "forbidden",
      message: "Only an owner can make or change an owner.",
      param: null,
    });
  });

  it("carries what a kind needs besides: the streams' Retry-After", () => {
    expect(toHttpError(new TooManyStreamsError("Too many streams.", 7))).toMatchObject({
      status: 429,
      code: "too_many_streams",
      headers: { "Retry-After": "7" },
    });
  });

  it("knows nothing else: any other error is a bug (500)", () => {
    class Unmapped extends Error {}
    expect(domainFailure(new Unmapped("x"))).toBeUndefined();
    expect(toHttpError(new Error("x"))).toBeUndefined();
  });
});
