// The client library's webhook verification (Web Crypto): deliveries signed by the server's own
// signer (src/domain/webhook-signature.ts, node:crypto) and by the Standard Webhooks reference
// library verify; the published test vector; rotation; every refusal with its reason; the header
// shapes receivers hand over; the Node and fetch request helpers; a clear error where Web Crypto is
// missing (a page that is not a secure context), in Node with it removed and in Chromium.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { newWebhookSecret, signWebhook } from "../../../src/domain/webhook-signature.ts";
import { describeWithBrowser, launchBrowser } from "../../../test/support/browser.ts";
import { standardWebhooksVector as vector } from "../../../test/support/webhook-vector.ts";
import {
  verifyFetchRequest,
  verifyNodeRequest,
  verifyWebhook,
  WEBHOOK_MAX_BODY_BYTES,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookVerificationReason,
} from "./node.ts";

const event: WebhookEvent = {
  id: "evt_4fT9kQ2mXp7LrV3z",
  type: "agent_run.succeeded",
  created_at: "2026-03-01T12:00:00Z",
  workspace_id: "ws_8Hq2LmP4vR9xT3kN",
  livemode: true,
  data: {
    object: {
      id: "run_2bN7xQ4kLm9PzR3t",
      project_id: "prj_8kF2mQ9xLp3vR7tZ",
      status: "succeeded",
    } as never, // the receiver only reads it back; the whole AgentRun is not the point here
  },
};
const body = JSON.stringify(event);
const secret = newWebhookSecret();
const now = Math.floor(Date.now() / 1000);

function signed(options: { body?: string | Uint8Array; timestamp?: number; secret?: string; id?: string } = {}) {
  const timestamp = options.timestamp ?? now;
  const id = options.id ?? event.id;
  const signature = signWebhook({ id, timestamp, body: options.body ?? body, secret: options.secret ?? secret });
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature };
}

async function refusal(verify: () => Promise<unknown>): Promise<WebhookVerificationReason> {
  try {
    await verify();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
  throw new Error("verified, but should have been refused");
}

describe("verifyWebhook", () => {
  it("returns the event of a delivery signed by the server's signer", async () => {
    const verified = await verifyWebhook(secret, signed(), body);
    expect(verified).toEqual(event);
    expect(verified.type).toBe("agent_run.succeeded");
    // The same bytes as a Uint8Array (a Buffer, as Node hands them over).
    expect(await verifyWebhook(secret, signed(), Buffer.from(body))).toEqual(event);
    expect(await verifyWebhook(secret, signed(), new TextEncoder().encode(body))).toEqual(event);
  });

  it("reads headers from a plain object in any case, a Headers, or Node's IncomingHttpHeaders", async () => {
    const headers = signed();
    const shouting = {
      "WEBHOOK-ID": headers["webhook-id"],
      "Webhook-Timestamp": headers["webhook-timestamp"],
      "Webhook-Signature": headers["webhook-signature"],
    };
    expect((await verifyWebhook(secret, shouting, body)).id).toBe(event.id);
    expect((await verifyWebhook(secret, new Headers(headers), body)).id).toBe(event.id);
    // IncomingHttpHeaders: lower-case names, undefined values, arrays for repeated headers.
    const incoming = {
      ...headers,
      host: "127.0.0.1",
      "content-length": String(body.length),
      "x-absent": undefined,
      "set-cookie": ["a=1"],
    };
    expect((await verifyWebhook(secret, incoming, body)).id).toBe(event.id);
  });

  it("accepts deliveries signed by the Standard Webhooks reference library, whose verifier accepts ours", async () => {
    const library = new Webhook(secret);
    const signature = library.sign(event.id, new Date(now * 1000), body);
    expect(signature).toBe(signed()["webhook-signature"]);
    const headers = { "webhook-id": event.id, "webhook-timestamp": String(now), "webhook-signature": signature };
    expect(await verifyWebhook(secret, headers, body)).toEqual(event);
    expect(library.verify(body, signed())).toEqual(event);
    // And with the vector's secret, which the library decodes the same way.
    const vectorLibrary = new Webhook(vector.secret);
    expect(vectorLibrary.sign(vector.id, new Date(vector.timestamp * 1000), vector.body)).toBe(vector.signature);
    const eventSignature = vectorLibrary.sign(event.id, new Date(now * 1000), body);
    expect(
      await verifyWebhook(
        vector.secret,
        { "webhook-id": event.id, "webhook-timestamp": String(now), "webhook-signature": eventSignature },
        body,
      ),
    ).toEqual(event);
  });

  it("checks the Standard Webhooks test vector's signature (its body is not an event, so it ends as invalid_body)", async () => {
    const headers = {
      "webhook-id": vector.id,
      "webhook-timestamp": String(vector.timestamp),
      "webhook-signature": vector.signature,
    };
    // Past the signature check: only the body's shape is refused.
    expect(await refusal(() => verifyWebhook(vector.secret, headers, vector.body, { now: vector.timestamp }))).toBe(
      "invalid_body",
    );
    const forged = { ...headers, "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=" };
    expect(await refusal(() => verifyWebhook(vector.secret, forged, vector.body, { now: vector.timestamp }))).toBe(
      "no_matching_signature",
    );
    expect(
      await refusal(() =>
        verifyWebhook(vector.secret, headers, vector.body, { now: new Date((vector.timestamp + 301) * 1000) }),
      ),
    ).toBe("timestamp_out_of_tolerance");
  });

  it("accepts a rotation's header when its second signature matches, and refuses it when none does", async () => {
    const oldSecret = newWebhookSecret();
    const oldSignature = signed({ secret: oldSecret })["webhook-signature"];
    const newSignature = signed()["webhook-signature"];
    const rotating = { ...signed(), "webhook-signature": `${oldSignature} ${newSignature}` };
    expect(await verifyWebhook(secret, rotating, body)).toEqual(event);
    expect(await verifyWebhook(oldSecret, rotating, body)).toEqual(event);
    expect(await refusal(() => verifyWebhook(newWebhookSecret(), rotating, body))).toBe("no_matching_signature");
  });

  it("refuses a tampered body, id or timestamp, and a wrong secret", async () => {
    const headers = signed();
    expect(await refusal(() => verifyWebhook(secret, headers, body.replace("succeeded", "failed")))).toBe(
      "no_matching_signature",
    );
    expect(await refusal(() => verifyWebhook(secret, headers, `${body} `))).toBe("no_matching_signature");
    expect(await refusal(() => verifyWebhook(secret, { ...headers, "webhook-id": "evt_other000" }, body))).toBe(
      "no_matching_signature",
    );
    expect(await refusal(() => verifyWebhook(secret, { ...headers, "webhook-timestamp": String(now - 1) }, body))).toBe(
      "no_matching_signature",
    );
    expect(await refusal(() => verifyWebhook(newWebhookSecret(), headers, body))).toBe("no_matching_signature");
  });

  it("refuses stale and future timestamps beyond the tolerance, and accepts them within it", async () => {
    expect((await verifyWebhook(secret, signed({ timestamp: now - 300 }), body, { now })).id).toBe(event.id);
    expect((await verifyWebhook(secret, signed({ timestamp: now + 300 }), body, { now })).id).toBe(event.id);
    expect(await refusal(() => verifyWebhook(secret, signed({ timestamp: now - 301 }), body, { now }))).toBe(
      "timestamp_out_of_tolerance",
    );
    expect(await refusal(() => verifyWebhook(secret, signed({ timestamp: now + 301 }), body, { now }))).toBe(
      "timestamp_out_of_tolerance",
    );
    // Against the real clock, without `now`.
    expect(await refusal(() => verifyWebhook(secret, signed({ timestamp: now - 3600 }), body))).toBe(
      "timestamp_out_of_tolerance",
    );
    // A tolerance of its own.
    expect(
      await refusal(() => verifyWebhook(secret, signed({ timestamp: now - 11 }), body, { now, toleranceSeconds: 10 })),
    ).toBe("timestamp_out_of_tolerance");
    expect((await verifyWebhook(secret, signed({ timestamp: now - 10 }), body, { now, toleranceSeconds: 10 })).id).toBe(
      event.id,
    );
    for (const timestamp of ["soon", "1614265330.5", "-5", ""]) {
      const reason = await refusal(() => verifyWebhook(secret, { ...signed(), "webhook-timestamp": timestamp }, body));
      expect(reason, timestamp).toBe(timestamp === "" ? "missing_header" : "invalid_timestamp");
    }
  });

  it("refuses a delivery without one of its headers, naming it", async () => {
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const headers: Record<string, string> = signed();
      delete headers[name];
      try {
        await verifyWebhook(secret, headers, body);
        expect.unreachable(`verified without ${name}`);
      } catch (error) {
        expect(error).toBeInstanceOf(WebhookVerificationError);
        expect((error as WebhookVerificationError).reason).toBe("missing_header");
        expect((error as WebhookVerificationError).message).toContain(name);
      }
    }
    expect(await refusal(() => verifyWebhook(secret, {}, body))).toBe("missing_header");
    expect(await refusal(() => verifyWebhook(secret, new Headers(), body))).toBe("missing_header");
  });

  it("reads X-Svc-Signature when webhook-signature is absent, and only then", async () => {
    const { "webhook-signature": signature, ...rest } = signed();
    expect(await verifyWebhook(secret, { ...rest, "X-Svc-Signature": signature }, body)).toEqual(event);
    expect(await verifyWebhook(secret, new Headers({ ...rest, "x-svc-signature": signature }), body)).toEqual(event);
    // When both are there, webhook-signature is the one checked.
    const both = { ...rest, "webhook-signature": "v1,AAAA", "X-Svc-Signature": signature };
    expect(await refusal(() => verifyWebhook(secret, both, body))).toBe("no_matching_signature");
  });

  it("refuses a genuine delivery whose body is not an event", async () => {
    for (const text of ["not json", "[1,2]", '{"id":"evt_12345678"}', '"evt"', "null"]) {
      expect(await refusal(() => verifyWebhook(secret, signed({ body: text }), text)), text).toBe("invalid_body");
    }
    const notUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    expect(await refusal(() => verifyWebhook(secret, signed({ body: notUtf8 }), notUtf8))).toBe("invalid_body");
  });

  it("throws a TypeError for a secret that is not whsec_ and base64, whatever the request", async () => {
    await expect(verifyWebhook("whsec_not base64!", signed(), body)).rejects.toThrow(TypeError);
    await expect(verifyWebhook("", {}, body)).rejects.toThrow(TypeError);
    await expect(verifyWebhook("whsec_a", signed(), body)).rejects.toThrow(TypeError);
  });
});

describe("without Web Crypto, as in a browser page that is not a secure context", () => {
  const unavailable =
    /Web Crypto \(crypto\.subtle\) is not available here.*secure contexts \(https:\/\/ pages, or http:\/\/localhost\)/;
  afterEach(() => void vi.unstubAllGlobals());

  it("rejects with a TypeError saying so and what to do, whatever the request, from each entry point", async () => {
    // A page on http:// of another host has `crypto` (getRandomValues, randomUUID) but no `subtle`.
    vi.stubGlobal("crypto", { getRandomValues: (array: Uint8Array) => array, randomUUID: () => "" });
    await expect(verifyWebhook(secret, signed(), body)).rejects.toThrow(TypeError);
    await expect(verifyWebhook(secret, signed(), body)).rejects.toThrow(unavailable);
    await expect(verifyWebhook(secret, {}, body)).rejects.toThrow(unavailable);
    await expect(
      verifyFetchRequest(secret, new Request("https://receiver.example/hooks", { method: "POST", body })),
    ).rejects.toThrow(unavailable);
    vi.stubGlobal("crypto", undefined);
    await expect(verifyWebhook(secret, signed(), body)).rejects.toThrow(unavailable);
  });

  describeWithBrowser("in Chromium", () => {
    let page: Server;
    let port: number;
    beforeAll(async () => {
      const bundled = await build({
        entryPoints: [fileURLToPath(new URL("./webhooks.ts", import.meta.url))],
        bundle: true,
        format: "iife",
        globalName: "webhooks",
        platform: "browser",
        write: false,
      });
      const script = bundled.outputFiles[0]!.contents;
      page = createServer((req, res) => {
        if (req.url === "/webhooks.js") res.writeHead(200, { "content-type": "text/javascript" }).end(script);
        else
          res
            .writeHead(200, { "content-type": "text/html" })
            .end('<!doctype html><script src="/webhooks.js"></script>');
      });
      await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
      port = (page.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve())));

    it("verifies on a secure origin, and says why it cannot on an http:// origin of another host", async () => {
      // pbs.test is this same server; a name that is not loopback makes its http:// origin not secure.
      const browser = await launchBrowser(["--host-resolver-rules=MAP pbs.test 127.0.0.1"]);
      try {
        const tab = await browser.newPage();
        const verify = async (origin: string) => {
          await tab.goto(origin);
          return tab.evaluate(
            async ({ secret, headers, body }) => {
              const page = globalThis as unknown as {
                webhooks: { verifyWebhook: typeof verifyWebhook };
                isSecureContext: boolean;
              };
              const secure = page.isSecureContext;
              return page.webhooks.verifyWebhook(secret, headers, body).then(
                (event: WebhookEvent): { secure: boolean; verified?: string; error?: string } => ({
                  secure,
                  verified: event.type,
                }),
                (error: Error) => ({ secure, error: `${error.name}: ${error.message}` }),
              );
            },
            { secret, headers: signed(), body },
          );
        };
        expect(await verify(`http://127.0.0.1:${port}/`)).toEqual({ secure: true, verified: "agent_run.succeeded" });
        const insecure = await verify(`http://pbs.test:${port}/`);
        expect(insecure).toMatchObject({ secure: false, error: expect.stringMatching(/^TypeError: /) });
        expect(insecure.error).toMatch(unavailable);
      } finally {
        await browser.close();
      }
    });
  });
});

describe("verifyNodeRequest over a real node:http server", () => {
  let server: Server;
  let url: string;
  const limit = 4096;
  beforeAll(async () => {
    const answer = async (req: IncomingMessage, res: ServerResponse) => {
      try {
        const verified = await verifyNodeRequest(secret, req, { maxBodyBytes: limit });
        res.writeHead(200, { "content-type": "text/plain" }).end(`${verified.type} ${verified.id}`);
      } catch (error) {
        const reason = error instanceof WebhookVerificationError ? error.reason : "error";
        res.writeHead(reason === "body_too_large" ? 413 : 400, { "content-type": "text/plain" }).end(reason);
      }
    };
    server = createServer((req, res) => void answer(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (headers: Record<string, string>, payload: RequestInit["body"]) =>
    fetch(url, { method: "POST", headers, body: payload, duplex: "half" });

  it("verifies the raw body it reads and answers the event's type", async () => {
    const response = await post({ ...signed(), "content-type": "application/json" }, body);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(`agent_run.succeeded ${event.id}`);
  });

  it("refuses a tampered body and a missing header", async () => {
    const tampered = await post(signed(), body.replace("true", "false"));
    expect([tampered.status, await tampered.text()]).toEqual([400, "no_matching_signature"]);
    const { "webhook-id": _, ...noId } = signed();
    const missing = await post(noId, body);
    expect([missing.status, await missing.text()]).toEqual([400, "missing_header"]);
  });

  it("refuses a body over the cap, by its Content-Length and while streaming one without", async () => {
    const big = JSON.stringify({ ...event, padding: "x".repeat(limit) });
    const declared = await post(signed({ body: big }), big);
    expect([declared.status, await declared.text()]).toEqual([413, "body_too_large"]);
    const chunks = [big.slice(0, 1000), big.slice(1000, 3000), big.slice(3000)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(chunk));
      },
    });
    const streamed = await post(signed({ body: big }), stream);
    expect([streamed.status, await streamed.text()]).toEqual([413, "body_too_large"]);
    // The same server still verifies the next delivery.
    expect((await post(signed(), body)).status).toBe(200);
  });

  it("caps at 1 MiB by default", () => {
    expect(WEBHOOK_MAX_BODY_BYTES).toBe(1024 * 1024);
  });
});

describe("verifyFetchRequest", () => {
  const request = (headers: Record<string, string>, payload: RequestInit["body"]) =>
    new Request("https://receiver.example/hooks", {
      method: "POST",
      headers,
      body: payload,
      duplex: "half",
    });

  it("reads the Request's body and verifies it", async () => {
    expect(await verifyFetchRequest(secret, request(signed(), body))).toEqual(event);
    const { "webhook-signature": signature, ...rest } = signed();
    expect(
      (await verifyFetchRequest(secret, request({ ...rest, "x-svc-signature": signature }, Buffer.from(body)))).id,
    ).toBe(event.id);
  });

  it("refuses what verifyWebhook refuses, and a body over the cap", async () => {
    await expect(verifyFetchRequest(newWebhookSecret(), request(signed(), body))).rejects.toMatchObject({
      reason: "no_matching_signature",
    });
    await expect(verifyFetchRequest(secret, request(signed({ timestamp: now - 600 }), body))).rejects.toMatchObject({
      reason: "timestamp_out_of_tolerance",
    });
    await expect(verifyFetchRequest(secret, request(signed(), body), { maxBodyBytes: 100 })).rejects.toMatchObject({
      reason: "body_too_large",
    });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    await expect(
      verifyFetchRequest(secret, request(signed(), stream), { maxBodyBytes: body.length + 10 }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});
