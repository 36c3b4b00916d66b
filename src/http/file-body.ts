// A file answered (FileBody): how a transport knows one, and how HTTP names it.
import type { Readable } from "node:stream";
import type { FileBody } from "../stream-bodies.ts";

export function isFileBody(body: unknown): body is FileBody {
  const file = body as Partial<FileBody> | null;
  return (
    typeof file?.filename === "string" &&
    typeof file.mediaType === "string" &&
    (file.content instanceof Uint8Array || isReadable(file.content))
  );
}

export function isReadable(value: unknown): value is Readable {
  return typeof (value as Readable | null)?.pipe === "function";
}

/**
 * `attachment` with the file's name (RFC 6266): a quoted `filename` for every client, and
 * `filename*` (RFC 8187, UTF-8) as well when the name is not plain printable ASCII.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "\\$&");
  const header = `attachment; filename="${fallback}"`;
  if (/^[\x20-\x7e]*$/.test(name) && !/["\\%]/.test(name)) return header;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${header}; filename*=UTF-8''${encoded}`;
}
