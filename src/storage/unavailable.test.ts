import { describe, expect, it } from "vitest";
import { isStorageUnavailable } from "./unavailable.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isStorageUnavailable", () => {
  it("recognises an unreachable database, however the driver and drizzle wrap it", () => {
    for (const error of [
      withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      withCode("read ECONNRESET", "ECONNRESET"),
      new Error("Connection terminated unexpectedly"),
      new Error("Connection terminated due to connection timeout"),
      new Error("timeout exceeded when trying to connect"),
      new Error("Client has encountered a connection error and is not queryable"),
      withCode("terminating connection due to administrator command", "57P01"),
      withCode("the database system is starting up", "57P03"),
      withCode("sorry, too many clients already", "53300"),
      withCode("connection failure", "08006"),
      new Error("Failed query: select 1", { cause: withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED") }),
      new AggregateError([withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")], "all addresses failed"),
    ]) {
      expect(isStorageUnavailable(error), error.message).toBe(true);
    }
  });

  it("leaves every other failure a bug", () => {
    for (const error of [
      withCode('duplicate key value violates unique constraint "projects_pkey"', "23505"),
      withCode('relation "nowhere" does not exist', "42P01"),
      withCode("canceling statement due to statement timeout", "57014"),
      new Error("Failed query: select", { cause: new TypeError("x is undefined") }),
      "a string",
      undefined,
    ]) {
      expect(isStorageUnavailable(error)).toBe(false);
    }
  });
});
