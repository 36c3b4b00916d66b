// The HTTP server's limits are in effect (src/listen.ts), each proved on a server whose limit is
// shortened for the test: headers over the size cap (431), headers too slow (408, a slow-loris
// client cut while others are answered), a body too slow (408), keep-alive outliving the header
// timeout, the connection cap, a client that stops reading its download, and a body left unread by
// its answer (discarded within a bound, then the connection closed without a reset). PGlite: none
// of this touches the database's driver.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beginUpload } from "../src/domain/files.ts";
import { projects } from "../src/storage/schema.ts";
import { expectBody, type Schemas } from "./support/api-client.ts";
import { pgliteDriver } from "./support/database.ts";
import { parseRawResponse, rawConnection } from "./support/net.ts";
import { startTestServer, suiteServer, type TestServer } from "./support/server.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectRefusedInErrorShape(text: string, status: number): void {
  const response = parseRawResponse(text);
  expect(response.status).toBe(status);
  expect(response.headers.connection).toBe("close");
  expect(response.body).toEqual({
    error: {
      code: "invalid_request",
      message: expect.any(String),
      param: null,
      request_id: response.headers["x-request-id"],
    },
  });
  expect(response.headers["x-request-id"]).toMatch(/^req_/);
}

describe("HTTP server limits", () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(pgliteDriver, {
      serverLimits: {
        maxHeaderSize: 4096,
        headersTimeoutMs: 600,
        requestTimeoutMs: 1500,
        keepAliveTimeoutMs: 1000,
        idleTimeoutMs: 1000,
      },
    });
    key = await server.createKey();
  });
  afterAll(() => server?.stop());

  it("answers headers larger than the cap with 431 in the error shape, and serves headers under it", async () => {
    const under = await server.as(key).get("/v1/key", { headers: { "X-Padding": "a".repeat(3000) } });
    expect(under.status).toBe(200);

    const connection = await rawConnection(server.url);
    connection.socket.write(
      `GET /v1/key HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Padding: ${"a".repeat(5000)}\r\n\r\n`,
    );
    await connection.closed;
    expectRefusedInErrorShape(connection.received(), 431);
    expect((parseRawResponse(connection.received()).body as Schemas["Error"]).error.message).toContain("4096 bytes");
  });

  it("cuts a slow-loris client after the header timeout with 408, and answers others meanwhile", async () => {
    const connection = await rawConnection(server.url);
    connection.socket.write("GET /v1/key HTTP/1.1\r\nHost: x\r\n");
    // A header line every 100 ms: the connection is never idle, but its headers never end.
    const trickle = setInterval(
      () => connection.socket.writable && connection.socket.write(`X-Slow-${Date.now()}: 1\r\n`),
      100,
    );
    try {
      const others = await Promise.all(Array.from({ length: 5 }, () => server.as(key).get("/v1/key")));
      expect(others.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      const closedAfter = await connection.closed;
      expect(closedAfter).toBeGreaterThanOrEqual(550);
      expect(closedAfter).toBeLessThan(1600 + 1000); // the timeout, plus Node's one-second check interval
    } finally {
      clearInterval(trickle);
    }
    expectRefusedInErrorShape(connection.received(), 408);
  });

  it("closes a connection that never sends a byte after the header timeout", async () => {
    const connection = await rawConnection(server.url);
    const closedAfter = await connection.closed;
    expect(closedAfter).toBeGreaterThanOrEqual(550);
    expect(closedAfter).toBeLessThan(2600);
  });

  it("cuts a request whose body is slower than the request timeout with 408", async () => {
    const connection = await rawConnection(server.url);
    connection.socket.write(
      `POST /v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name": "`,
    );
    const trickle = setInterval(() => connection.socket.writable && connection.socket.write("a"), 100);
    try {
      const closedAfter = await connection.closed;
      expect(closedAfter).toBeGreaterThanOrEqual(1400);
      expect(closedAfter).toBeLessThan(1500 + 1000 + 500);
    } finally {
      clearInterval(trickle);
    }
    expectRefusedInErrorShape(connection.received(), 408);
    const body = expectBody(await server.client.get("/v1/projects"), 200);
    expect(body.data).toEqual([]);
  });

  it("keeps an idle connection past the header timeout, for its keep-alive timeout, then closes it", async () => {
    const connection = await rawConnection(server.url);
    const get = `GET /v1/key HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`;
    connection.socket.write(get);
    const first = await connection.waitFor(/\r\n\r\n\{[^]*\}$/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toMatch(/\r\nKeep-Alive: timeout=1\r\n/);
    // Idle for longer than the header timeout (0.6 s), shorter than keep-alive (1 s): still usable.
    await sleep(850);
    connection.socket.write(get);
    await connection.waitFor(/HTTP\/1\.1 200 [^]*HTTP\/1\.1 200 [^]*\}$/);
    const answeredAt = Date.now();
    await connection.closed;
    // Closed by the server after keep-alive (1 s; Node adds a one-second grace to its socket timer).
    const idleFor = Date.now() - answeredAt;
    expect(idleFor).toBeGreaterThanOrEqual(950);
    expect(idleFor).toBeLessThan(3000);
  });

  it("closes a connection whose client stops reading its download after the idle timeout", async () => {
    const project = expectBody(await server.client.post("/v1/projects", { name: "big", prompt: "p" }), 201);
    // Stored directly: an upload of 8 MiB through this server's request timeout (1.5 s) can outlast
    // it on a loaded machine, and the upload is not what this case is about.
    const [partition] = await server.storage.db
      .select({ workspaceId: projects.workspaceId, environment: projects.environment })
      .from(projects)
      .where(eq(projects.id, project.id));
    const upload = await beginUpload(server.storage.db, partition!, project.id);
    await upload.write(new Uint8Array(8 * 1024 * 1024).fill(7));
    const file = await upload.commit({ path: "big.bin", contentType: "application/octet-stream" });
    const connections = () => new Promise<number>((resolve) => server.app.server.getConnections((_, n) => resolve(n)));

    const connection = await rawConnection(server.url);
    connection.socket.pause(); // never reads
    connection.socket.write(
      `GET /v1/projects/${project.id}/files/${file.id}/content HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    await sleep(300);
    expect(await connections()).toBeGreaterThanOrEqual(1);
    const deadline = Date.now() + 5000;
    while ((await connections()) > 0) {
      expect(Date.now(), "the stalled download's connection was not closed").toBeLessThan(deadline);
      await sleep(100);
    }
    connection.socket.destroy();
  });
});

describe("a body answered before it was read", () => {
  const server = suiteServer(pgliteDriver, { serverLimits: { unreadBodyBytes: 256 * 1024, unreadBodyMs: 800 } });
  const post = (length: number) =>
    `POST /v1/projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
  const refused = /^HTTP\/1\.1 401 [^]*\r\n\r\n\{[^]*\}$/;

  it("is read to its end within the bound, and the connection serves the next request", async () => {
    const connection = await rawConnection(server.url);
    connection.socket.write(post(200 * 1024) + "a".repeat(10 * 1024));
    await connection.waitFor(refused);
    connection.socket.write("a".repeat(190 * 1024) + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await connection.waitFor(/HTTP\/1\.1 200 [^]*\r\n0\r\n\r\n$/);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 401 [^]*?\r\nConnection: keep-alive\r\n/);
    connection.socket.destroy();
  });

  it("past the bound, is answered, then closed from our side first: no reset under a client still writing", async () => {
    const connection = await rawConnection(server.url);
    let resetBeforeEnd: string | undefined;
    let ended = false;
    connection.socket.on(
      "error",
      (error: NodeJS.ErrnoException) => (resetBeforeEnd ??= ended ? undefined : error.code),
    );
    // A client that writes until the server's side ends, as Node's fetch does (it then drops the connection).
    connection.socket.once("end", () => {
      ended = true;
      connection.socket.destroy();
    });
    const length = 64 * 1024 * 1024;
    connection.socket.write(post(length));
    const chunk = "a".repeat(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (!ended && sent < length) {
        sent += chunk.length;
        if (!connection.socket.write(chunk)) return;
      }
    };
    connection.socket.on("drain", pump);
    pump();
    await connection.closed;
    expect(ended, "the server's side ended (FIN)").toBe(true);
    expect(resetBeforeEnd).toBeUndefined();
    expect(connection.received()).toMatch(refused);
    expect((parseRawResponse(connection.received()).body as Schemas["Error"]).error.code).toBe("missing_api_key");
    expect(sent, "the server stopped reading past its bound").toBeLessThan(length);
  });

  it("declared past the bound, is not waited for: the connection ends with the answer", async () => {
    const connection = await rawConnection(server.url);
    const opened = Date.now();
    connection.socket.write(post(8 * 1024 * 1024));
    await connection.waitFor(refused);
    const answered = Date.now() - opened;
    // Waiting for a body that does not come would end it only once the bound's time (800 ms) ran out.
    expect((await connection.closed) - answered, "closed right after the answer").toBeLessThan(400);
  });

  it("still arriving after the bound's time, is cut then", async () => {
    const connection = await rawConnection(server.url);
    connection.socket.write(post(1000) + "a");
    await connection.waitFor(refused);
    const answeredAt = Date.now();
    const trickle = setInterval(() => connection.socket.writable && connection.socket.write("a"), 50);
    try {
      await connection.closed;
    } finally {
      clearInterval(trickle);
    }
    const closedAfter = Date.now() - answeredAt;
    expect(closedAfter).toBeGreaterThanOrEqual(750);
    expect(closedAfter).toBeLessThan(800 + 1000 + 1000);
  });
});

describe("the connection cap", () => {
  const server = suiteServer(pgliteDriver, { serverLimits: { maxConnections: 3 } });

  it("closes connections beyond it as they arrive, and serves again once one closes", async () => {
    const open = await Promise.all(Array.from({ length: 3 }, () => rawConnection(server.url)));
    for (const connection of open) {
      connection.socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
      await connection.waitFor(/\r\n0\r\n\r\n$/);
    }
    const extra = await rawConnection(server.url);
    extra.socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await extra.closed;
    expect(extra.received()).toBe("");

    open[0]!.socket.destroy();
    await open[0]!.closed;
    await sleep(50);
    const next = await rawConnection(server.url);
    next.socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await next.waitFor(/^HTTP\/1\.1 200 [^]*\r\n0\r\n\r\n$/);
    for (const connection of [...open, next]) connection.socket.destroy();
  });
});

describe("the apps listener", () => {
  const server = suiteServer(pgliteDriver, {
    serverLimits: { maxHeaderSize: 4096, headersTimeoutMs: 600, requestTimeoutMs: 1500 },
  });

  it("has the same limits: 431 over the header cap, a slow header cut", async () => {
    const big = await rawConnection(server.appsUrl);
    big.socket.write(`GET / HTTP/1.1\r\nHost: x.localhost\r\nX-Padding: ${"a".repeat(5000)}\r\n\r\n`);
    await big.closed;
    expect(big.received()).toMatch(/^HTTP\/1\.1 431 /);

    const slow = await rawConnection(server.appsUrl);
    slow.socket.write("GET / HTTP/1.1\r\n");
    expect(await slow.closed).toBeLessThan(2600);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });
});
