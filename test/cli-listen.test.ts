// `pbs listen` (src/cli/listen.ts), run as a developer runs it, against a fake event stream
// (node:http, the wire format of GET /v1/events/stream) and forwarding to a local receiver that
// verifies every delivery with the client library's verifyWebhook and the secret pbs printed: each
// event forwarded once, in order, signed as the server signs; the stream resumed with Last-Event-ID
// after a drop; a receiver's error answer printed and not retried; a receiver that does not answer
// tried three times, then skipped; Ctrl-C ending it with status 0; a refused key ending it with 1.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook, type StreamEvent, type WebhookEvent } from "../packages/client/src/index.ts";
import { repoRoot } from "./support/process.ts";

const pbs = join(repoRoot, "src/cli/pbs.ts");

interface StreamRequest {
  url: URL;
  headers: IncomingMessage["headers"];
  closed: Promise<void>;
}

interface Delivery {
  headers: IncomingMessage["headers"];
  body: string;
  /** The event as sent (parsed, unverified). */
  event: WebhookEvent;
}

let stream: Server;
let streamUrl: string;
let streamRequests: StreamRequest[] = [];
let answerStream: (res: ServerResponse, n: number) => void = (res) => res.writeHead(500).end();

let receiver: Server;
let receiverUrl: string;
let deliveries: Delivery[] = [];
/** The receiver's status for delivery number `n` (0 first), or "drop" to close the connection unanswered. */
let answerDelivery: (delivery: Delivery, n: number) => number | "drop" = () => 200;

/** Each delivery verified with `secret` (the one pbs printed): its event, or why it was refused. */
const verifyAll = (secret: string) =>
  Promise.all(
    deliveries.map((delivery) =>
      verifyWebhook(secret, delivery.headers, delivery.body).catch(
        (error: Error & { reason?: string }) => error.reason ?? String(error),
      ),
    ),
  );

const open = new Set<ServerResponse>();
const children = new Set<ChildProcess>();

beforeAll(async () => {
  stream = createServer((req, res) => {
    streamRequests.push({
      url: new URL(req.url!, "http://x"),
      headers: req.headers,
      closed: new Promise((resolve) => res.on("close", resolve)),
    });
    open.add(res);
    res.on("close", () => open.delete(res));
    answerStream(res, streamRequests.length - 1);
  });
  // A failure here fails the run as an unhandled rejection.
  const receive = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const delivery = { headers: req.headers, body, event: JSON.parse(body) as WebhookEvent };
    deliveries.push(delivery);
    const status = answerDelivery(delivery, deliveries.length - 1);
    if (status === "drop") req.socket.destroy();
    else res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "receiver error");
  };
  receiver = createServer((req, res) => void receive(req, res));
  await Promise.all(
    [stream, receiver].map((server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))),
  );
  streamUrl = `http://127.0.0.1:${(stream.address() as AddressInfo).port}`;
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});

afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
  for (const res of open) res.destroy();
  streamRequests = [];
  deliveries = [];
});

afterAll(async () => {
  await Promise.all([stream, receiver].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

let sequence = 0;
function event(type: "project.created" | "agent_run.succeeded" | "agent_run.failed"): StreamEvent {
  const id = `evt_listen${String(++sequence).padStart(8, "0")}`;
  const object =
    type === "project.created"
      ? { id: "prj_8kF2mQ9xLp3vR7tZ", name: "Listened" }
      : { id: "run_2bN7xQ4kLm9PzR3t", status: type.split(".")[1] };
  return {
    id,
    type,
    created_at: "2026-11-26T12:00:00.000Z",
    workspace_id: "ws_8Hq2LmP4vR9xT3kN",
    livemode: false,
    data: { object: object as never },
  };
}

const message = (e: StreamEvent) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
const openStream = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream" }).flushHeaders();

/** `pbs listen` with `args`; its output so far, and a wait for a line that matches. */
function startListen(args: string[], env: Record<string, string> = { PB_API_KEY: "svc_test_listen0000000000000000" }) {
  const child = spawn(process.execPath, [pbs, "listen", ...args], {
    env: { PATH: process.env.PATH!, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    async line(pattern: RegExp, timeoutMs = 15_000): Promise<RegExpExecArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stdout);
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`no line matching ${pattern} in:\n${stdout}\n(stderr:)\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

describe("pbs listen", () => {
  it("forwards each event once, signed with the secret it printed, resumes after a drop, prints the receiver's answers, and ends on Ctrl-C", async () => {
    const events = [event("project.created"), event("agent_run.failed"), event("agent_run.succeeded")];
    answerStream = (res, n) => {
      openStream(res);
      if (n === 0) {
        res.write(": heartbeat\n\n");
        res.write(message(events[0]!));
        res.write(message(events[1]!));
        setTimeout(() => res.socket?.destroy(), 200); // the connection breaks
      } else {
        res.write(message(events[2]!));
      }
    };
    answerDelivery = (delivery) => (delivery.event.type === "agent_run.failed" ? 500 : 200);
    const listen = startListen([
      "--forward-to",
      receiverUrl,
      "--url",
      streamUrl,
      "--events",
      "project.created,agent_run.succeeded",
      "--events",
      "agent_run.failed",
      "--project",
      "prj_8kF2mQ9xLp3vR7tZ",
    ]);
    const secret = (await listen.line(/signing secret is (whsec_[A-Za-z0-9+/=]+)/))[1]!;
    await listen.line(new RegExp(`Forwarding events of ${streamUrl} .* to ${receiverUrl}`));

    const lines = await Promise.all(
      events.map((e) => listen.line(new RegExp(`^\\S+  ${e.type.replace(".", "\\.")}  ${e.id}  (.*)$`, "m"))),
    );
    expect(lines.map((line) => line[1])).toEqual([
      expect.stringMatching(/^-> 200 \(\d+ ms\)$/),
      expect.stringMatching(/^-> 500 \(\d+ ms\)$/),
      expect.stringMatching(/^-> 200 \(\d+ ms\)$/),
    ]);

    // Each event reached the receiver once (the 500 not retried), in order, verified with the printed secret.
    expect(await verifyAll(secret)).toEqual(events);
    expect(await verifyAll("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).toEqual(
      events.map(() => "no_matching_signature"),
    );
    for (const [i, delivery] of deliveries.entries()) {
      expect(JSON.parse(delivery.body)).toEqual(events[i]);
      expect(delivery.headers["webhook-id"]).toBe(events[i]!.id);
      expect(delivery.headers["x-svc-signature"]).toBe(delivery.headers["webhook-signature"]);
      expect(delivery.headers["content-type"]).toBe("application/json");
    }

    // The stream was asked with the filters, and resumed after the last event received.
    expect(streamRequests).toHaveLength(2);
    expect(streamRequests[0]!.url.pathname).toBe("/v1/events/stream");
    expect(streamRequests[0]!.url.searchParams.getAll("types")).toEqual([
      "project.created",
      "agent_run.succeeded",
      "agent_run.failed",
    ]);
    expect(streamRequests[0]!.url.searchParams.get("project_id")).toBe("prj_8kF2mQ9xLp3vR7tZ");
    expect(streamRequests[0]!.headers.authorization).toBe("Bearer svc_test_listen0000000000000000");
    expect(streamRequests[1]!.headers["last-event-id"]).toBe(events[1]!.id);
    expect(listen.stderr()).toMatch(/interrupted .*reconnecting in/);

    listen.child.kill("SIGINT");
    expect(await listen.exited).toBe(0);
    expect(listen.stdout()).toMatch(/Stopped\.\n$/);
    await streamRequests[1]!.closed;
  });

  it("tries a receiver that does not answer three times, reports it failed, and goes on with the next event", async () => {
    const [lost, next] = [event("agent_run.failed"), event("agent_run.succeeded")];
    answerStream = (res) => {
      openStream(res);
      res.write(message(lost) + message(next));
    };
    answerDelivery = (delivery) => (delivery.event.id === lost.id ? "drop" : 204);
    const given = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const listen = startListen(["--forward-to", receiverUrl, "--url", streamUrl, "--secret", given]);
    expect((await listen.line(/signing secret is (\S+)/))[1]).toBe(given);
    const failed = await listen.line(new RegExp(`  ${lost.id}  (.*)$`, "m"));
    expect(failed[1]).toMatch(/^-> failed: .* \(3 attempts; not retried further\)$/);
    expect((await listen.line(new RegExp(`  ${next.id}  (.*)$`, "m")))[1]).toMatch(/^-> 204 /);
    // Each attempt signed with the given secret, every one genuine.
    expect(await verifyAll(given)).toEqual([lost, lost, lost, next]);
    listen.child.kill("SIGTERM");
    expect(await listen.exited).toBe(0);
  }, 30_000);

  it("ends with status 1 and the server's error when the stream is refused, without trying again", async () => {
    answerStream = (res) =>
      res.writeHead(401, { "content-type": "application/json" }).end(
        JSON.stringify({
          error: {
            code: "invalid_api_key",
            message: "The API key is not valid.",
            param: null,
            request_id: "req_listen0000001",
          },
        }),
      );
    const listen = startListen(["--forward-to", receiverUrl, "--url", streamUrl, "--key", "svc_test_wrong"]);
    expect(await listen.exited).toBe(1);
    expect(listen.stderr()).toContain("401 invalid_api_key: The API key is not valid.");
    expect(streamRequests).toHaveLength(1);
    expect(streamRequests[0]!.headers.authorization).toBe("Bearer svc_test_wrong");
  });

  it("refuses bad usage with status 2: no --forward-to, no key, a secret that is not whsec_ base64", async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["--url", "http://127.0.0.1:1"], { PB_API_KEY: "svc_test_x" }, /--forward-to is required/],
      [["--forward-to", "ftp://example.com/"], { PB_API_KEY: "svc_test_x" }, /not an http\(s\) URL/],
      [["--forward-to", receiverUrl], {}, /--key or PB_API_KEY/],
      [
        ["--forward-to", receiverUrl, "--secret", "whsec_***"],
        { PB_API_KEY: "svc_test_x" },
        /--secret is `whsec_` and base64/,
      ],
    ];
    for (const [args, env, said] of cases) {
      const listen = startListen(args, env);
      expect(await listen.exited, args.join(" ")).toBe(2);
      expect(listen.stderr()).toMatch(said);
    }
    expect(streamRequests).toHaveLength(0);
  });
});
