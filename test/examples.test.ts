// The documentation's client-library snippets, run for real as the files in examples/: the create-project
// example against a test server (importing `@project-builder/client`, the workspace package: run
// `npm run build:packages` after changing packages/client), and the webhook receivers, in
// TypeScript, Python and Go (standard library only), each as a child process that is sent signed
// deliveries and then the deliveries the server itself signs. The Python and Go ones run where
// Debian's python3 and golang-go are installed, and say they are skipped otherwise.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../packages/client/src/index.ts";
import { newWebhookSecret, signWebhook } from "../src/domain/webhook-signature.ts";
import { expectStatus } from "./support/api-client.ts";
import { pgliteDriver } from "./support/database.ts";
import { freePort } from "./support/net.ts";
import { repoRoot, run } from "./support/process.ts";
import { suiteServer } from "./support/server.ts";

const example = (name: string) => join(repoRoot, "examples", name);

// One server for the file: deliveries on, to receivers on this machine.
const server = suiteServer(pgliteDriver, { webhooks: { deliver: true, allowPrivateNetworks: true } });

describe("examples/create-project.ts", () => {
  it("creates a project and lists the workspace's projects, newest first", async () => {
    const key = await server.createKey({ workspace: "example" });
    const first = await run(process.execPath, [example("create-project.ts")], {
      PB_API_KEY: key,
      PB_BASE_URL: server.url,
    });
    expect(first.code).toBe(0);
    const [created, ...listed] = first.stdout.trim().split("\n");
    const [, id] = created!.match(/^created (prj_[0-9A-Za-z]+) \(queued\), run run_[0-9A-Za-z]+$/) ?? [];
    expect(id, first.stdout).toBeDefined();
    expect(listed).toEqual([`${id} queued Recipe planner`]);

    // It made exactly that project, which the server lists.
    const projects = await server.as(key).get("/v1/projects");
    expectStatus(projects, 200);
    expect(projects.body.data.map((project: { id: string }) => project.id)).toEqual([id]);

    const second = await run(process.execPath, [example("create-project.ts")], {
      PB_API_KEY: key,
      PB_BASE_URL: server.url,
    });
    const lines = second.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe(`${id} queued Recipe planner`); // the older one last
  });

  it("reports an API error by status, code and request id", async () => {
    const { code, stderr, stdout } = await run(process.execPath, [example("create-project.ts")], {
      PB_API_KEY: "svc_live_not_a_key",
      PB_BASE_URL: server.url,
    });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^401 invalid_api_key: .+ \(param: Authorization, request: req_[0-9A-Za-z]+\)\n$/);
  });
});

/** Whether `command --version` runs here. */
function installed(command: string, versionFlag = "--version"): boolean {
  try {
    execFileSync(command, [versionFlag], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

interface ReceiverExample {
  file: string;
  /** Its workspace on the test server. */
  workspace: string;
  /** Why it cannot run here, when it cannot. */
  skip?: string;
  /** The command that runs it (Go's is built first, into `dir`). */
  command(dir: string): string[];
}

const receivers: ReceiverExample[] = [
  {
    file: "receive-webhooks.ts",
    workspace: "receiver-ts",
    command: () => [process.execPath, example("receive-webhooks.ts")],
  },
  {
    file: "receive_webhooks.py",
    workspace: "receiver-python",
    skip: installed("python3") ? undefined : "install Debian's python3",
    command: () => ["python3", example("receive_webhooks.py")],
  },
  {
    file: "receive_webhooks.go",
    workspace: "receiver-go",
    skip: installed("go", "version") ? undefined : "install Debian's golang-go",
    command(dir) {
      const binary = join(dir, "receive_webhooks");
      execFileSync("go", ["build", "-o", binary, example("receive_webhooks.go")], { cwd: dir, stdio: "pipe" });
      return [binary];
    },
  },
];

interface Receiver {
  child: ChildProcess;
  output: string[];
  printed(line: string): Promise<void>;
}

/** A receiver example as a child process on `port`, resolved once it says it listens; its stdout lines in `output`. */
async function startReceiver(command: string[], port: number, secret: string): Promise<Receiver> {
  const output: string[] = [];
  const [program, ...args] = command;
  const child = spawn(program!, args, {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: secret },
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output.push(...chunk.toString().split("\n").filter(Boolean));
      if (output.includes(`listening on ${port}`)) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the receiver exited with ${code}`)));
  });
  return {
    child,
    output,
    async printed(line) {
      const deadline = Date.now() + 5000;
      while (!output.includes(line)) {
        if (Date.now() > deadline)
          throw new Error(`the receiver did not print ${JSON.stringify(line)}; it printed ${JSON.stringify(output)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

for (const { file, workspace, skip, command } of receivers) {
  describe.skipIf(skip !== undefined)(`examples/${file}${skip ? ` (skipped: ${skip})` : ""}`, () => {
    let dir: string;
    let receiverCommand: string[];
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "pb-receiver-"));
      receiverCommand = command(dir);
    }, 120_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    describe("sent signed deliveries", () => {
      const secret = newWebhookSecret();
      let receiver: Receiver;
      let url: string;

      beforeAll(async () => {
        const port = await freePort();
        receiver = await startReceiver(receiverCommand, port, secret);
        url = `http://127.0.0.1:${port}/webhooks`;
      });
      afterAll(() => {
        receiver?.child.kill();
      });

      const event = {
        id: "evt_7Qx2mLp9Rt4vN8kZ",
        type: "webhook.test",
        created_at: new Date().toISOString(),
        workspace_id: "ws_8Hq2LmP4vR9xT3kN",
        livemode: false,
        data: { object: { message: "A test event.", webhook_endpoint_id: "we_3kT9mQ2xLp7vR4zN" } },
      };

      function deliver(body: string, options: { timestamp?: number; signingSecret?: string } = {}) {
        const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
        const signature = signWebhook({ id: event.id, timestamp, body, secret: options.signingSecret ?? secret });
        return fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "webhook-id": event.id,
            "webhook-timestamp": String(timestamp),
            "webhook-signature": signature,
            "x-svc-signature": signature,
          },
          body,
        });
      }

      it("acknowledges a signed delivery and prints the verified event's type", async () => {
        const response = await deliver(JSON.stringify(event));
        expect(response.status).toBe(204);
        await receiver.printed(`verified webhook.test ${event.id}`);
      });

      it("refuses a tampered, mis-signed or stale delivery with its reason, and prints nothing for it", async () => {
        const body = JSON.stringify({ ...event, type: "project.deleted" });
        const tampered = await fetch(url, {
          method: "POST",
          headers: {
            "webhook-id": event.id,
            "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
            "webhook-signature": signWebhook({
              id: event.id,
              timestamp: Math.floor(Date.now() / 1000),
              body: JSON.stringify(event),
              secret,
            }),
          },
          body,
        });
        expect([tampered.status, await tampered.text()]).toEqual([400, "no_matching_signature"]);
        const wrongSecret = await deliver(body, { signingSecret: newWebhookSecret() });
        expect([wrongSecret.status, await wrongSecret.text()]).toEqual([400, "no_matching_signature"]);
        const stale = await deliver(body, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
        expect([stale.status, await stale.text()]).toEqual([400, "timestamp_out_of_tolerance"]);
        const unsigned = await fetch(url, { method: "POST", body });
        expect([unsigned.status, await unsigned.text()]).toEqual([400, "missing_header"]);
        const notAnEvent = await deliver("[1, 2]");
        expect([notAnEvent.status, await notAnEvent.text()]).toEqual([400, "invalid_body"]);
        expect(receiver.output.some((line) => line.includes("project.deleted"))).toBe(false);
      });
    });

    describe("receiving what the server sends", () => {
      let receiver: Receiver | undefined;
      afterAll(() => {
        receiver?.child.kill();
      });

      it("verifies the server's test event, and keeps verifying with the previous secret after a rotation", async () => {
        const client = createClient({ apiKey: await server.createKey({ workspace }), baseUrl: server.url });
        const port = await freePort();
        const endpoint = await client.POST("/v1/webhooks", {
          body: { url: `http://127.0.0.1:${port}/webhooks`, enabled_events: ["webhook.test"] },
        });
        receiver = await startReceiver(receiverCommand, port, endpoint.secret);

        const sendTest = async () => {
          const delivery = await client.POST("/v1/webhooks/{webhook_endpoint_id}/test", {
            params: { path: { webhook_endpoint_id: endpoint.id } },
          });
          await receiver!.printed(`verified webhook.test ${delivery.event_id}`);
          const path = { webhook_endpoint_id: endpoint.id, delivery_id: delivery.id };
          for (let tries = 0; ; tries++) {
            const got = await client.GET("/v1/webhooks/{webhook_endpoint_id}/deliveries/{delivery_id}", {
              params: { path },
            });
            if (got.status !== "pending" || tries > 100) return got;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        };
        expect(await sendTest()).toMatchObject({ status: "succeeded", attempts: 1, response_status: 204 });

        // Rotated: deliveries carry both signatures for a while, so the receiver on the old secret still verifies.
        const rotated = await client.POST("/v1/webhooks/{webhook_endpoint_id}/rotate-secret", {
          params: { path: { webhook_endpoint_id: endpoint.id } },
        });
        expect(rotated.secret).not.toBe(endpoint.secret);
        expect(await sendTest()).toMatchObject({ status: "succeeded", response_status: 204 });
      });
    });
  });
}
