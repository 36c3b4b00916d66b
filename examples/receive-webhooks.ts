// A webhook receiver: verifies each delivery (Standard Webhooks signature, 5-minute window) and
// acknowledges it at once. Run: WEBHOOK_SECRET=whsec_… PORT=3000 node examples/receive-webhooks.ts
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { verifyNodeRequest, WebhookVerificationError } from "@project-builder/client/node";

const secret = process.env.WEBHOOK_SECRET ?? ""; // the endpoint's whsec_…, shown once at creation

async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const event = await verifyNodeRequest(secret, req);
    console.log(`verified ${event.type} ${event.id}`); // de-duplicate on event.id, then do the work
    res.writeHead(204).end();
  } catch (error) {
    const reason = error instanceof WebhookVerificationError ? error.reason : "internal_error";
    res.writeHead(reason === "internal_error" ? 500 : 400).end(reason);
  }
}

// `receive` answers every request itself, a delivery that fails verification included.
createServer((req, res) => void receive(req, res)).listen(Number(process.env.PORT ?? 3000), () =>
  console.log(`listening on ${process.env.PORT ?? 3000}`),
);
