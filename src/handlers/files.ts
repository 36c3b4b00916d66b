// Files: HTTP in, domain call, HTTP out. Uploads are streamed from the multipart body's parts into
// the domain's chunked Upload, whichever transport brought them; downloads are streamed out of it
// chunk by chunk, with the file's name and media type as data for the transport to write.
import { Readable } from "node:stream";
import type { Handlers } from "../../generated/handlers.ts";
import type { MultipartBody } from "../stream-bodies.ts";
import type { SchemaProjectFile } from "../../generated/schema.d.ts";
import * as files from "../domain/files.ts";
import { FileTooLargeError, InvalidInputError } from "../domain/errors.ts";
import { mediaTypeFor } from "../domain/media-types.ts";
import type { Partition } from "../domain/partition.ts";
import { BodyError, HttpError } from "../http/errors.ts";
import { contentRange, evaluateConditions, unsatisfiedContentRange } from "../http/range.ts";
import type { Commit, Database } from "../storage/index.ts";
import type { Context } from "../http/request-context.ts";
import { listed } from "./pagination.ts";
import { ok } from "./ok.ts";

type FileHandlers = Pick<Handlers<Context>, "uploadFile" | "listFiles" | "getFile" | "downloadFile" | "deleteFile">;

/** Room for the multipart framing and the `path` part around a file of the largest size. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const location = (file: SchemaProjectFile) => `/v1/projects/${file.project_id}/files/${file.id}`;

const tooLarge = () =>
  new BodyError(
    413,
    "payload_too_large",
    `The file exceeds the upload limit of ${files.MAX_FILE_BYTES} bytes (25 MiB).`,
    "file",
  );

export const fileHandlers: FileHandlers = {
  uploadFile: ({ path, body }, { db, partition, effect }) =>
    effect(
      (commit) => receiveUpload(db, commit, partition, path.project_id, body),
      (file: SchemaProjectFile) => ({ status: 201, headers: { Location: location(file) }, body: file }),
    ),

  async listFiles({ path, query }, context) {
    return listed(context, `files:${path.project_id}`, query, {}, (page) =>
      files.listFiles(context.db, context.partition, path.project_id, page),
    );
  },

  getFile: ({ path }, { db, partition }) => ok(files.getFile(db, partition, path.project_id, path.file_id)),

  async downloadFile({ path, header }, { db, partition }) {
    const { file, content, slice } = await files.readFileContent(db, partition, path.project_id, path.file_id);
    const etag = `"${file.sha256}"`;
    const size = file.size_bytes;
    const answer = evaluateConditions(
      { range: header?.Range, ifNoneMatch: header?.["If-None-Match"], ifRange: header?.["If-Range"] },
      { etag, size },
    );
    const headers = { ETag: etag, "Accept-Ranges": "bytes" as const };
    const named = { filename: file.path.split("/").at(-1)!, mediaType: mediaTypeFor(file.path, file.content_type) };
    switch (answer.kind) {
      case "not_modified":
        return { status: 304, headers: { ETag: etag } };
      case "unsatisfiable":
        throw new HttpError(
          416,
          "range_not_satisfiable",
          `The range ${JSON.stringify(header?.Range?.slice(0, 80))} has no byte within the file (${size} bytes); positions count from 0.`,
          "Range",
          { "Content-Range": unsatisfiedContentRange(size) },
        );
      case "partial": {
        const { range } = answer;
        return {
          status: 206,
          headers: {
            ...headers,
            "Content-Range": contentRange(range, size),
            "Content-Length": range.last - range.first + 1,
          },
          body: { ...named, content: Readable.from(slice(range), { objectMode: false }) },
        };
      }
      case "whole":
        return {
          status: 200,
          headers: { ...headers, "Content-Length": size },
          body: { ...named, content: Readable.from(content, { objectMode: false }) },
        };
    }
  },

  async deleteFile({ path }, { db, partition }) {
    await files.deleteFile(db, partition, path.project_id, path.file_id);
    return { status: 204 };
  },
};

/**
 * Reads the multipart body: part `file` (required) and part `path` (optional, before or after the
 * file). The content goes to storage as it arrives; the path, when it comes after the file or not at
 * all, is settled at commit. Whatever fails, nothing of the upload remains stored.
 */
async function receiveUpload(
  db: Database,
  commit: Commit<SchemaProjectFile>,
  partition: Partition,
  projectId: string,
  body: MultipartBody,
): Promise<SchemaProjectFile> {
  // A body this large cannot hold a file within the limit: refuse it before reading any of it.
  if ((body.declaredBytes ?? 0) > files.MAX_FILE_BYTES + MULTIPART_OVERHEAD_BYTES) throw tooLarge();

  let pathPart: string | undefined;
  let filePart: { filename: string | undefined; mimeType: string } | undefined;
  let upload: files.Upload | undefined;
  try {
    for await (const part of body.parts) {
      if (part.kind === "field" && part.name === "path") {
        if (pathPart !== undefined) throw new InvalidInputError("The `path` part appears twice; send it once.", "path");
        if (part.truncated)
          throw new InvalidInputError("The `path` part is too long (at most 512 characters).", "path");
        // Before the file: fail before any content is stored. After it: checked again at commit.
        pathPart = files.validPath(part.value);
        if (!upload) await files.checkPathAvailable(db, partition, projectId, pathPart);
      } else if (part.name === "file") {
        if (part.kind === "field") {
          throw new InvalidInputError(
            "The `file` part must be a file: give it a filename in its Content-Disposition (or Content-Type application/octet-stream).",
            "file",
          );
        }
        if (filePart)
          throw new InvalidInputError("The `file` part appears twice; upload one file per request.", "file");
        filePart = { filename: part.filename, mimeType: part.mimeType };
        upload = await files.beginUpload(db, partition, projectId, pathPart);
        for await (const data of part.content) await upload.write(data);
      } else {
        throw new InvalidInputError(
          `Unknown part \`${part.name}\`; an upload has the parts \`file\` and \`path\`.`,
          part.name,
        );
      }
    }
    if (!upload || !filePart) throw new InvalidInputError("The upload needs a `file` part.", "file");
    const target = pathPart ?? files.pathFromFilename(filePart.filename);
    // A file part without Content-Type reaches us as text/plain (RFC 7578's default, which busboy
    // applies); a Content-Type the contract cannot hold is stored as application/octet-stream.
    return await upload.commit({ path: target, contentType: filePart.mimeType }, commit);
  } catch (error) {
    // If even the cleanup fails (storage gone), the pending row is left to purgeAbandonedUploads;
    // the caller hears of the first failure, not of this one.
    await upload?.abort().catch(() => undefined);
    if (error instanceof FileTooLargeError) throw tooLarge();
    throw error;
  }
}
