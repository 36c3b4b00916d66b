// A multipart/form-data body as a sequence of parts, whichever transport brought it. Over HTTP,
// busboy parses the body while it streams (`httpParts`); an MCP tool call gives its parts as they
// are. Below the transport there is one path (`multipartBody`): the same limits on every body, and
// its fingerprint hashed on the way, for idempotency (MultipartBody.fingerprint). A file part's
// content is itself an async sequence of chunks, which the consumer must read to the end before the
// next part arrives (or stop, abandoning the body). Nothing is buffered beyond busboy's and the
// socket's own high-water marks: reading slowly slows the client down.
import { createHash, type Hash } from "node:crypto";
import busboy from "busboy";
import type { Readable } from "node:stream";
import type { FieldPart, FormPart, MultipartBody } from "../stream-bodies.ts";
import { BodyError } from "./errors.ts";

export interface MultipartLimits {
  /** Longest value of a non-file part, in bytes. */
  readonly fieldSize: number;
  /** Most parts in the body; further parts are ignored. */
  readonly parts: number;
}

/**
 * The limits of every multipart body the API reads (an upload's `path` and `file`, with room to
 * refuse extra parts by name). One set, whichever transport brought the body, so that a body reads
 * the same for its handler and for its idempotency fingerprint.
 */
export const MULTIPART_LIMITS: MultipartLimits = Object.freeze({ fieldSize: 4096, parts: 16 });

/**
 * The body a handler reads: the parts of `source` within `limits` (a longer value is cut and marked
 * truncated; parts past the limit are skipped), fingerprinted as they are read. Reading every part
 * sets `fingerprint`.
 */
export function multipartBody(
  source: AsyncIterable<FormPart>,
  declaredBytes?: number,
  limits: MultipartLimits = MULTIPART_LIMITS,
): MultipartBody {
  const body: MultipartBody = { parts: withinLimits(), declaredBytes };
  async function* withinLimits(): AsyncGenerator<FormPart> {
    // Every part in body order, each framed by its length so that no two bodies hash alike. A file's
    // content is hashed as the consumer reads it, which comes before the next part.
    const fingerprint = createHash("sha256");
    let count = 0;
    for await (const part of source) {
      if (++count > limits.parts) continue;
      if (part.kind === "field") {
        const field = cut(part, limits.fieldSize);
        fingerprint.update(frame("field", field.name, String(field.truncated), field.value));
        yield field;
      } else {
        fingerprint.update(frame("file", part.name, part.filename ?? "", part.mimeType));
        yield { ...part, content: hashed(part.content, fingerprint) };
      }
    }
    body.fingerprint = fingerprint.digest("hex");
  }
  return body;
}

/** The field with its value cut to `size` bytes, at a character's boundary, as busboy cuts it. */
function cut(field: FieldPart, size: number): FieldPart {
  const bytes = Buffer.from(field.value);
  if (bytes.length <= size) return field;
  let end = size;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // not within a character
  return { ...field, value: bytes.subarray(0, end).toString("utf8"), truncated: true };
}

/** A file's chunks, hashed on the way, and its length once it ends. */
async function* hashed(chunks: AsyncIterable<Buffer>, fingerprint: Hash): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of chunks) {
    fingerprint.update(chunk);
    bytes += chunk.length;
    yield chunk;
  }
  fingerprint.update(frame("end", String(bytes)));
}

/** Strings joined so that their boundaries stay unambiguous: each preceded by its byte length. */
function frame(...values: string[]): string {
  return values.map((value) => `${Buffer.byteLength(value)}:${value}`).join("");
}

/** Reads the whole body, storing nothing, for its fingerprint; BodyError when it cannot be read. */
export async function fingerprintOf(body: MultipartBody): Promise<string> {
  for await (const part of body.parts) {
    if (part.kind === "file") for await (const _ of part.content);
  }
  return body.fingerprint!;
}

// ---------------------------------------------------------------------------------------------
// The HTTP transport

const malformed = (error: unknown) =>
  new BodyError(400, "invalid_request", `The multipart body could not be read: ${(error as Error)?.message ?? error}.`);

/**
 * The parts of an HTTP body, in order, as busboy parses them. Ends with BodyError 400 when the body
 * is not well-formed multipart (no boundary, cut short, client gone). Stopping early (break, throw)
 * detaches the parser and leaves the rest of the request unread.
 */
export async function* httpParts(
  contentType: string,
  stream: Readable,
  limits: MultipartLimits = MULTIPART_LIMITS,
): AsyncGenerator<FormPart> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Clients send filenames as raw UTF-8 (browsers do); busboy's default would read them as latin1.
      defParamCharset: "utf8",
      // Applied while parsing too, so that no value is held whole in memory however long it is.
      limits: { fieldSize: limits.fieldSize, parts: limits.parts, fieldNameSize: 100, headerPairs: 32 },
    });
  } catch (error) {
    throw new BodyError(
      400,
      "invalid_request",
      `The multipart body could not be read: ${(error as Error).message}.`,
      "Content-Type",
    );
  }

  const queue: FormPart[] = [];
  let finished = false;
  let failure: BodyError | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  // busboy names a part of `name=""` undefined: it is the part named "" that the client sent.
  parser.on("field", (name: string | undefined, value, info) => {
    queue.push({ kind: "field", name: name ?? "", value, truncated: info.valueTruncated });
    notify();
  });
  parser.on("file", (name: string | undefined, content, info) => {
    // The stream may fail (body cut short) before the consumer reads it: its reader gets the error
    // then (an async iterator reports `errored`), but an 'error' with no listener would crash us.
    content.on("error", () => {});
    const { filename, mimeType } = info;
    queue.push({ kind: "file", name: name ?? "", filename, mimeType, content: chunksOf(content) });
    notify();
  });
  parser.on("close", () => {
    finished = true;
    notify();
  });
  parser.on("error", (error) => {
    failure ??= malformed(error);
    notify();
  });
  // A client that goes away mid-body: busboy would wait for the rest forever, so fail it (and with
  // it the file part being read).
  const onRequestError = (error: Error) => parser.destroy(error);
  const onRequestClose = () => {
    if (!stream.readableEnded) parser.destroy(new Error("the request ended before the body was complete"));
  };
  stream.on("error", onRequestError);
  stream.on("close", onRequestClose);
  stream.pipe(parser);

  try {
    for (;;) {
      const part = queue.shift();
      if (part) {
        yield part;
        continue;
      }
      if (failure) throw failure;
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stream.off("error", onRequestError);
    stream.off("close", onRequestClose);
    stream.unpipe(parser);
    if (!finished) {
      parser.on("error", () => {}); // destroying an unfinished parser reports "Unexpected end of form"
      parser.destroy();
    }
    await drain(stream);
  }
}

/** Most of an abandoned body read and discarded so that the client hears the answer. */
const DRAIN_BYTES = 1024 * 1024;
const DRAIN_MS = 5_000;

/**
 * Stopping early (an error in the first part, a path taken) leaves the rest of the body unsent by a
 * client that writes it all before reading the answer; answering and closing then makes it fail
 * with EPIPE instead of reading the error. So a small remainder is read and discarded first. A
 * large one (or a slow client) is left unread: the pipeline answers and closes the connection.
 */
function drain(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      stream.off("data", onData);
      stream.off("end", done);
      stream.off("error", done);
      stream.off("close", done);
      stream.pause();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MS);
    stream.on("data", onData);
    stream.once("end", done);
    stream.once("error", done);
    stream.once("close", done);
    stream.resume();
  });
}

/** A busboy file stream as chunks; its failures (cut-short body, client gone) as BodyError 400. */
async function* chunksOf(stream: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    throw malformed(error);
  }
}
