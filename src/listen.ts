// Starting a node:http server, the same way for the API and the apps listener.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Listens on `host:port` (0: any free port) and resolves with the base URL it bound. */
export function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { address, port: bound } = server.address() as AddressInfo;
      resolve(`http://${address.includes(":") ? `[${address}]` : address}:${bound}`);
    });
  });
}
