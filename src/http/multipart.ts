// A multipart/form-data body as an async sequence of parts, parsed by busboy while it streams. A
// file part's content is itself an async sequence of chunks, which the consumer must read to the
// end before the next part arrives (or stop, abandoning the body). Nothing is buffered beyond
// busboy's and the socket's own high-water marks: reading slowly slows the client down. The body's
// fingerprint is hashed on the way, for idempotency (MultipartBody.fingerprint).
import { createHash, type Hash } from "node:crypto";
import busboy from "busboy";
import type { Readable } from "node:stream";
import type { MultipartBody } from "../stream-bodies.ts";
import { BodyError } from "./errors.ts";

export interface FieldPart {
  readonly kind: "field";
  readonly name: string;
  readonly value: string;
  /** The value was longer than `limits.fieldSize` and was cut. */
  readonly truncated: boolean;
}

export interface FilePart {
  readonly kind: "file";
  readonly name: string;
  /** From the part's Content-Disposition; undefined when it names none. */
  readonly filename: string | undefined;
  /** From the part's Content-Type (busboy says `text/plain` when there is none). */
  readonly mimeType: string;
  readonly content: AsyncGenerator<Buffer>;
}

export type Part = FieldPart | FilePart;

export interface MultipartLimits {
  /** Longest value of a non-file part, in bytes. */
  readonly fieldSize: number;
  /** Most parts in the body; further parts are ignored. */
  readonly parts: number;
}

/**
 * The limits of every multipart body the API reads (an upload's `path` and `file`, with room to
 * refuse extra parts by name). One set, so that a body reads the same for its handler and for its
 * idempotency fingerprint.
 */
export const MULTIPART_LIMITS: MultipartLimits = Object.freeze({ fieldSize: 4096, parts: 16 });

const malformed = (error: unknown) =>
  new BodyError(400, "invalid_request", `The multipart body could not be read: ${(error as Error)?.message ?? error}.`);

/**
 * The parts of the body, in order. Ends with BodyError 400 when the body is not well-formed
 * multipart (no boundary, cut short, client gone). Stopping early (break, throw) detaches the
 * parser and leaves the rest of the request unread, for the server to discard after the answer
 * (src/listen.ts). Reading to the end sets `body.fingerprint`.
 */
export async function* multipartParts(
  body: MultipartBody,
  limits: MultipartLimits = MULTIPART_LIMITS,
): AsyncGenerator<Part> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": body.contentType },
      // Clients send filenames as raw UTF-8 (browsers do); busboy's default would read them as latin1.
      defParamCharset: "utf8",
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

  // Every part in body order, each framed by its length so that no two bodies hash alike. A file's
  // content is hashed as the consumer reads it, which busboy makes happen before the next part.
  const fingerprint = createHash("sha256");
  const queue: Part[] = [];
  let finished = false;
  let failure: BodyError | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  parser.on("field", (name, value, info) => {
    fingerprint.update(frame("field", name, String(info.valueTruncated), value));
    queue.push({ kind: "field", name, value, truncated: info.valueTruncated });
    notify();
  });
  parser.on("file", (name, stream, info) => {
    // The stream may fail (body cut short) before the consumer reads it: its reader gets the error
    // then (an async iterator reports `errored`), but an 'error' with no listener would crash us.
    stream.on("error", () => {});
    fingerprint.update(frame("file", name, info.filename ?? "", info.mimeType));
    queue.push({
      kind: "file",
      name,
      filename: info.filename,
      mimeType: info.mimeType,
      content: chunksOf(stream, fingerprint),
    });
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
    if (!body.stream.readableEnded) parser.destroy(new Error("the request ended before the body was complete"));
  };
  body.stream.on("error", onRequestError);
  body.stream.on("close", onRequestClose);
  body.stream.pipe(parser);

  try {
    for (;;) {
      const part = queue.shift();
      if (part) {
        yield part;
        continue;
      }
      if (failure) throw failure;
      if (finished) {
        body.fingerprint = fingerprint.digest("hex");
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    body.stream.off("error", onRequestError);
    body.stream.off("close", onRequestClose);
    body.stream.unpipe(parser);
    if (!finished) {
      parser.on("error", () => {}); // destroying an unfinished parser reports "Unexpected end of form"
      parser.destroy();
    }
  }
}

/** A busboy file stream as chunks, hashed on the way; its failures (cut-short body, client gone) as BodyError 400. */
async function* chunksOf(stream: Readable, fingerprint: Hash): AsyncGenerator<Buffer> {
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      fingerprint.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  } catch (error) {
    throw malformed(error);
  }
  fingerprint.update(frame("end", String(bytes)));
}

/** Strings joined so that their boundaries stay unambiguous: each preceded by its byte length. */
function frame(...values: string[]): string {
  return values.map((value) => `${Buffer.byteLength(value)}:${value}`).join("");
}

/** Reads the whole body, storing nothing, for its fingerprint; BodyError when it cannot be read. */
export async function fingerprintOf(body: MultipartBody): Promise<string> {
  for await (const part of multipartParts(body)) {
    if (part.kind === "file") for await (const _ of part.content);
  }
  return body.fingerprint!;
}
