// `@project-builder/client/node`: everything of the main entry, and the helper for Node's own HTTP
// server (node:http, Express, Fastify's raw request), whose request is a stream rather than a fetch
// `Request`.
//
//   import { verifyNodeRequest, WebhookVerificationError } from "@project-builder/client/node";
//   createServer(async (req, res) => { const event = await verifyNodeRequest(secret, req); … });
import {
  checkSetup,
  concat,
  declaredLength,
  tooLarge,
  verifyWebhook,
  WEBHOOK_MAX_BODY_BYTES,
  type VerifyRequestOptions,
  type WebhookEvent,
} from "./webhooks.ts";

export * from "./index.ts";

/**
 * What `verifyNodeRequest` uses of Node's `IncomingMessage` (described here rather than imported, so
 * that this entry needs no `@types/node`): its headers, and its body as a stream of bytes.
 */
export interface NodeRequest {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly readableEnded: boolean;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  off(event: "end" | "close", listener: () => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  resume(): unknown;
}

/** Reads a Node request's whole raw body (up to `maxBodyBytes`), then verifies it. The body must not have been read already. */
export async function verifyNodeRequest(
  secret: string,
  req: NodeRequest,
  options: VerifyRequestOptions = {},
): Promise<WebhookEvent> {
  checkSetup(secret);
  const limit = options.maxBodyBytes ?? WEBHOOK_MAX_BODY_BYTES;
  if (req.readableEnded)
    throw new TypeError(
      "The request's body was already read (a body parser ran first?): verify the raw body with verifyWebhook.",
    );
  const body = await new Promise<Uint8Array>((resolve, reject) => {
    const declared = declaredLength(req.headers["content-length"]);
    if (declared !== undefined && declared > limit) {
      req.resume(); // discard it, so the connection can carry the answer
      return reject(tooLarge(limit));
    }
    const chunks: Uint8Array[] = [];
    let length = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Uint8Array) => {
      length += chunk.byteLength;
      if (length > limit) {
        cleanup();
        req.resume();
        return reject(tooLarge(limit));
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(concat(chunks, length));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error("The request closed before its body was read."));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
  return verifyWebhook(secret, req.headers, body, options);
}
