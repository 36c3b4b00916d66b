// Ceiling 1, the limit of Node here: a bare node:http server answering, to every request, the
// bytes of one real response of the server (status, headers, body) captured by bench/run.ts.
//   node bench/ceilings/bare-node.ts <port> <capture.json>
// capture.json: { "status": 200, "headers": { … }, "body": "<base64>" }
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [port, file] = process.argv.slice(2) as [string, string];
const capture = JSON.parse(readFileSync(file, "utf8")) as {
  status: number;
  headers: Record<string, string>;
  body: string;
};
const body = Buffer.from(capture.body, "base64");
const headers: Record<string, string> = {};
for (const [name, value] of Object.entries(capture.headers)) {
  // node:http frames the answer itself.
  if (!["connection", "keep-alive", "transfer-encoding", "content-length", "date"].includes(name))
    headers[name] = value;
}
headers["content-length"] = String(body.length);

createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(capture.status, headers).end(body));
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
