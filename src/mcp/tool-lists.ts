// The answer to tools/list: the tools a set of scopes allows, about 25 KB of JSON for a full key
// and the same for every key with those scopes, so it is written once per set of scopes, and
// compressed once for the clients that accept gzip (fetch-based ones, the SDK's included, do: the
// list is then ~4 KB). Only the request's id differs between answers: it is written last, as
// stored (uncompressed) deflate blocks after the list's deflate stream was flushed (Z_FULL_FLUSH:
// byte-aligned, nothing referred to across), so the two join into one valid gzip member, whose
// CRC-32 is the list's continued over the id.
import { constants, crc32, deflateRawSync } from "node:zlib";
import type { McpTool } from "./tool-types.ts";

/** A gzip member's header: deflate, no name or time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

interface Written {
  /** The answer up to its id: `{"jsonrpc":"2.0","result":{"tools":[…]},"id":`. */
  readonly head: Buffer;
  readonly deflated: Buffer;
  readonly crc: number;
}

export interface ToolList {
  readonly body: Buffer;
  readonly headers: Record<string, string>;
}

export function toolLists(toolsFor: (scopes: readonly string[]) => readonly McpTool[]) {
  const written = new Map<string, Written>();
  const writtenFor = (scopes: readonly string[]): Written => {
    const key = [...scopes].sort().join(" ");
    let list = written.get(key);
    if (!list) {
      const head = Buffer.from(`{"jsonrpc":"2.0","result":${JSON.stringify({ tools: toolsFor(scopes) })},"id":`);
      list = { head, deflated: deflateRawSync(head, { finishFlush: constants.Z_FULL_FLUSH }), crc: crc32(head) };
      written.set(key, list);
    }
    return list;
  };

  /** The answer to a tools/list with `id`, gzipped when `acceptEncoding` allows. */
  return function toolList(
    scopes: readonly string[],
    id: string | number,
    acceptEncoding: string | undefined,
  ): ToolList {
    const list = writtenFor(scopes);
    const tail = Buffer.from(`${JSON.stringify(id)}}`);
    if (!acceptsGzip(acceptEncoding))
      return {
        body: Buffer.concat([list.head, tail]),
        headers: { "Content-Type": "application/json", Vary: "Accept-Encoding" },
      };
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(tail, list.crc), 0);
    trailer.writeUInt32LE((list.head.length + tail.length) % 2 ** 32, 4);
    return {
      body: Buffer.concat([GZIP_HEADER, list.deflated, ...storedBlocks(tail), trailer]),
      headers: { "Content-Type": "application/json", "Content-Encoding": "gzip", Vary: "Accept-Encoding" },
    };
  };
}

/**
 * `data` as deflate's stored (uncompressed) blocks, the last one final: a few bytes need no
 * compressor (making one per answer cost more than the rest of the answer). Byte-aligned, as the
 * flushed stream before them is.
 */
function storedBlocks(data: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let at = 0; at === 0 || at < data.length; at += 0xffff) {
    const chunk = data.subarray(at, at + 0xffff);
    const header = Buffer.alloc(5);
    header[0] = at + 0xffff >= data.length ? 1 : 0; // BFINAL, BTYPE 00
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(header, chunk);
  }
  return blocks;
}

/** Whether an Accept-Encoding header takes gzip (named, or `*`, with a weight above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((item) => {
    const [coding, ...parameters] = item.split(";").map((part) => part.trim().toLowerCase());
    const weight = parameters.find((parameter) => parameter.startsWith("q="));
    return (coding === "gzip" || coding === "*") && (weight === undefined || Number(weight.slice(2)) > 0);
  });
}
