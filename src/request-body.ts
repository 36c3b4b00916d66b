// Reading an incoming request's body, for whoever serves it: the API pipeline (src/http/body.ts,
// JSON) and the pages (src/pages/forms.ts, HTML forms; src/oauth/token.ts). Below both, so neither
// reaches into the other; each turns "too large" into its own error shape.
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";

/** A request as far as its body is concerned: an HTTP request, or the pipeline's transport-free one. */
export interface WithHeaders {
  readonly headers: IncomingHttpHeaders;
}

/** The Content-Type's media type, lower case, without parameters; "" when there is none. */
export function mediaTypeOf(request: WithHeaders): string {
  return (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * The body's bytes, refused with `tooLarge()` once it is known to exceed `limit`: from its
 * Content-Length before anything is read, else while it streams (never held whole first). A
 * refused body is left unread, not destroyed: the server discards the rest after the answer
 * (src/listen.ts), where destroying the request would reset the connection under the answer.
 */
export async function readBoundedBody(
  request: WithHeaders,
  stream: Readable,
  limit: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  if (Number(request.headers["content-length"] ?? 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
