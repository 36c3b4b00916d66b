// The bench's `--db-proxy` mode: PostgreSQL reached through a TCP proxy in a process of its own, so
// that every statement pays a round trip through another process, as it does to a database on
// another host (on loopback alone a statement costs PostgreSQL's work and hardly any wait). The
// server and the openapi-backend ceiling go through the same proxy; seeding goes direct.
//   node bench/db-proxy.ts <postgres://…>   → sends {port} to its parent over IPC
// A process of its own, not the bench's: the forwarding would otherwise share an event loop with the
// load generator. Nagle's algorithm is off on both sides, as node-postgres turns it off on its own
// socket: a proxy holding small writes back would add delays no network of this kind has.
import { connect, createServer } from "node:net";

const target = process.argv[2];
if (!target) throw new Error("usage: node bench/db-proxy.ts <postgres://…>");
const { hostname, port } = new URL(target);

const server = createServer({ noDelay: true }, (client) => {
  const upstream = connect({ host: hostname, port: Number(port || 5432), noDelay: true });
  client.pipe(upstream).pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on("error", close).on("close", close);
  upstream.on("error", close).on("close", close);
});
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as { port: number }).port }));
process.on("SIGTERM", () => process.exit(0));
process.on("disconnect", () => process.exit(0));
