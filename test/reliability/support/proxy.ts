// A TCP proxy of the test's own between the server and a service (PostgreSQL, Redis): cutting it
// is the outage, restoring it the recovery. The machine's services are never stopped; only the
// connections through this proxy die.
import { createServer, connect, type Server, type Socket } from "node:net";

export interface TcpProxy {
  /** Where clients connect: 127.0.0.1:port. */
  readonly port: number;
  /** Whether connections pass (false between cut() and restore()). */
  readonly open: boolean;
  /** How many times it was cut. */
  readonly cuts: number;
  /** Destroys every connection through it and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A proxy to `target` (host:port) on a free port of 127.0.0.1. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  let cuts = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    track(client);
    client.on("error", () => {});
    if (!open) return void client.destroy();
    const upstream = connect(target.port, target.host);
    track(upstream);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    get open() {
      return open;
    },
    get cuts() {
      return cuts;
    },
    cut() {
      open = false;
      cuts += 1;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close() {
      open = false;
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** `url` (postgres://…, redis://…) pointed at 127.0.0.1:`port` instead of its own host and port. */
export function throughProxy(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = "127.0.0.1";
  parsed.port = String(port);
  return parsed.toString();
}
