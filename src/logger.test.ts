import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, requestLogger } from "./logger.ts";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, destination, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("logger", () => {
  it("writes JSON lines at the configured level, with the request id on a request's lines", () => {
    const out = capture();
    const logger = createLogger({ level: "info", destination: out.destination });
    logger.debug("hidden");
    requestLogger(logger, "req_abc12345").info({ status: 200 }, "request");
    expect(out.records()).toHaveLength(1);
    expect(out.records()[0]).toMatchObject({ level: 30, request_id: "req_abc12345", status: 200, msg: "request" });
  });

  it("never writes an Authorization header or a secret", () => {
    const out = capture();
    const logger = createLogger({ level: "trace", destination: out.destination });
    const secret = "svc_live_0123456789abcdefghijABCDEFGHIJ0123456789";
    logger.info({ req: { headers: { authorization: `Bearer ${secret}`, "user-agent": "curl" } } }, "in");
    logger.info({ headers: { authorization: `Bearer ${secret}` } }, "in");
    logger.info({ key: { id: "key_1", secret } }, "created");
    logger.info({ secret }, "created");
    expect(out.lines).toHaveLength(4);
    for (const line of out.lines) expect(line).not.toContain(secret);
    expect(out.records()[0]).toMatchObject({ req: { headers: { authorization: "[redacted]", "user-agent": "curl" } } });
    expect(out.records()[2]).toMatchObject({ key: { id: "key_1", secret: "[redacted]" } });
  });

  it("keeps an error's stack for the operator", () => {
    const out = capture();
    createLogger({ level: "info", destination: out.destination }).error({ err: new Error("boom") }, "failed");
    expect(out.records()[0]).toMatchObject({ err: { type: "Error", message: "boom" } });
    expect(String((out.records()[0]!.err as { stack: string }).stack)).toContain("logger.test.ts");
  });
});
