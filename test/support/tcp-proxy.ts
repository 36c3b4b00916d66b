// A TCP proxy of the test's own between the server and a service (PostgreSQL, Redis), to make an
// outage without touching the machine's service: `cut()` resets every connection through it and
// every new one until `restore()`; `pause()` holds them silent (a network that drops packets).
import { connect, createServer, type Socket } from "node:net";

export interface TcpProxy {
  /** `url` with its host and port replaced by the proxy's. */
  url(url: string): string;
  /** Resets every connection, and every new one until restored: the service is down. */
  cut(): void;
  /** Forwards nothing until restored, closing nothing: the network is silent. */
  pause(): void;
  /** Forwards again; held data and connections go through. */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  let mode: "open" | "cut" | "paused" = "open";
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const held = new Set<() => void>();

  const server = createServer((client) => {
    client.on("error", () => {});
    if (mode === "cut") return void client.resetAndDestroy();
    const upstream = connect(Number(port), hostname);
    upstream.on("error", () => client.destroy());
    const pair = { client, upstream };
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on("data", (data) => {
        if (mode === "open") to.write(data);
        else if (mode === "paused") held.add(() => to.write(data));
      });
    forward(client, upstream);
    forward(upstream, client);
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", close);
    upstream.on("close", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxyPort = (server.address() as { port: number }).port;

  const proxy: TcpProxy = {
    url(original) {
      const url = new URL(original);
      url.hostname = "127.0.0.1";
      url.port = String(proxyPort);
      return url.toString();
    },
    cut() {
      mode = "cut";
      held.clear();
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    pause() {
      mode = "paused";
    },
    restore() {
      mode = "open";
      for (const send of held) send();
      held.clear();
    },
    async close() {
      proxy.cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
