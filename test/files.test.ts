// Files over HTTP, end to end, on the embedded database: streamed multipart uploads, chunked
// downloads, the 25 MiB limit, path rules, and that no failed upload leaves anything stored.
import { createHash, randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { and, count, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { beginUpload, CHUNK_BYTES, MAX_FILE_BYTES, purgeAbandonedUploads } from "../src/domain/files.ts";
import { fileChunks, files } from "../src/storage/schema.ts";
import {
  expectApiError,
  expectBody,
  expectStatus,
  invalidBody,
  type ResponseTo,
  type StatusAndBodyTo,
} from "./support/api-client.ts";
import { onEmbeddedDatabase } from "./support/database.ts";
import { suiteServer, type TestServer } from "./support/server.ts";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

interface FormPart {
  name: string;
  value: string | Uint8Array;
  filename?: string;
  type?: string;
}

/** A multipart body with the parts in the order given (FormData puts them in append order too). */
function form(parts: FormPart[]): FormData {
  const data = new FormData();
  for (const part of parts) {
    if (part.filename !== undefined)
      data.append(part.name, new Blob([part.value], { type: part.type ?? "" }), part.filename);
    else data.append(part.name, part.value);
  }
  return data;
}

onEmbeddedDatabase("files", (driver) => {
  const server = suiteServer(driver);

  const newProject = async () =>
    expectBody(await server.client.post("/v1/projects", { name: "Assets", prompt: "site" }), 201).id;
  const upload = (projectId: string, parts: FormPart[], client = server.client) =>
    client.request("POST", `/v1/projects/${projectId}/files`, { raw: form(parts) });

  /** No partial upload left behind: no pending files row, hence no chunk outside a committed file. */
  async function expectNothingPending(): Promise<void> {
    const db = server.storage.db;
    // An upload in progress is a files row with a `~pending/` path and no hash; its chunks hang on it.
    const pending = await db.select({ id: files.id }).from(files).where(eq(files.sha256, ""));
    expect(pending).toEqual([]);
  }

  async function chunkCount(fileId: string): Promise<number> {
    const [row] = await server.storage.db.select({ n: count() }).from(fileChunks).where(eq(fileChunks.fileId, fileId));
    return row!.n;
  }

  describe("upload and download", () => {
    it("stores a small file at its path and answers 201 with Location", async () => {
      const projectId = await newProject();
      const content = new TextEncoder().encode("# Hello\n");
      const created = await upload(projectId, [
        { name: "path", value: "docs/README.md" },
        { name: "file", value: content, filename: "readme.md", type: "text/markdown" },
      ]);
      expectStatus(created, 201);
      expect(created.headers.get("location")).toBe(`/v1/projects/${projectId}/files/${created.body.id}`);
      expect(created.body).toMatchObject({
        project_id: projectId,
        path: "docs/README.md",
        content_type: "text/markdown",
        size_bytes: content.length,
        sha256: sha256(content),
      });
      expect(created.body.id).toMatch(/^file_/);
      expect((await server.client.get(created.headers.get("location")!)).body).toEqual(created.body);

      const download = await server.client.get(`/v1/projects/${projectId}/files/${created.body.id}/content`);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("application/octet-stream");
      expect(download.headers.get("etag")).toBe(`"${sha256(content)}"`);
      expect(download.headers.get("content-disposition")).toBe('attachment; filename="README.md"');
      expect(Buffer.from(download.bytes).equals(Buffer.from(content))).toBe(true);
    });

    it("streams a multi-chunk file in and out, the path part after the file", async () => {
      const projectId = await newProject();
      const content = randomBytes(600 * 1024 + 17);
      const created = await upload(projectId, [
        { name: "file", value: content, filename: "bundle.bin" },
        { name: "path", value: "build/bundle.bin" },
      ]);
      expectStatus(created, 201);
      expect(created.body).toMatchObject({
        path: "build/bundle.bin",
        content_type: "application/octet-stream",
        size_bytes: content.length,
        sha256: sha256(content),
      });
      expect(await chunkCount(created.body.id)).toBe(Math.ceil(content.length / CHUNK_BYTES));

      const download = await server.client.get(`/v1/projects/${projectId}/files/${created.body.id}/content`);
      expect(download.headers.get("etag")).toBe(`"${sha256(content)}"`);
      expect(Buffer.from(download.bytes).equals(content)).toBe(true);
    });

    it("stores an empty file", async () => {
      const projectId = await newProject();
      const created = await upload(projectId, [
        { name: "file", value: new Uint8Array(0), filename: "empty.txt", type: "text/plain" },
      ]);
      expectStatus(created, 201);
      expect(created.body).toMatchObject({ path: "empty.txt", size_bytes: 0, sha256: sha256(new Uint8Array(0)) });
      const download = await server.client.get(`/v1/projects/${projectId}/files/${created.body.id}/content`);
      expect(download.bytes.length).toBe(0);
    });

    it("falls back to the sanitized filename when there is no path part", async () => {
      const projectId = await newProject();
      const created = await upload(projectId, [
        { name: "file", value: new Uint8Array([1, 2, 3]), filename: "Résumé (final).png", type: "image/png" },
      ]);
      expectStatus(created, 201);
      expect(created.body).toMatchObject({ path: "Resume_final_.png", content_type: "image/png" });
    });

    it("records file.uploaded and file.deleted events", async () => {
      const projectId = await newProject();
      const created = await upload(projectId, [{ name: "file", value: new Uint8Array([7]), filename: "e.bin" }]);
      expectStatus(created, 201);
      expect((await server.client.delete(`/v1/projects/${projectId}/files/${created.body.id}`)).status).toBe(204);
      for (const type of ["file.uploaded", "file.deleted"] as const) {
        const events = await server.client.get(`/v1/events?type=${type}&limit=100`);
        expectStatus(events, 200);
        const event = events.body.data.find((e) => e.type === type && e.data.object.id === created.body.id);
        expect(event?.data.object).toEqual(created.body);
      }
    });
  });

  describe("conditional and partial downloads", () => {
    // Several chunks of known bytes: three full chunks would be 786432; this is two full and a part.
    const content = randomBytes(600 * 1024 + 17);
    const size = content.length;
    const etag = `"${sha256(content)}"`;
    let projectId: string;
    let fileId: string;
    let contentPath: `/v1/projects/${string}/files/${string}/content`;
    beforeAll(async () => {
      projectId = await newProject();
      const created = await upload(projectId, [
        { name: "file", value: content, filename: "bundle.bin" },
        { name: "path", value: "dist/bundle.bin" },
      ]);
      expectStatus(created, 201);
      fileId = created.body.id;
      contentPath = `/v1/projects/${projectId}/files/${fileId}/content`;
    });
    const get = (headers: Record<string, string> = {}) => server.client.get(contentPath, { headers });

    /** A 206 with exactly bytes first..last (inclusive) of the content, and its headers. */
    async function expectPartial(
      rangeHeader: string,
      first: number,
      last: number,
      headers: Record<string, string> = {},
    ) {
      const response = await get({ Range: rangeHeader, ...headers });
      expectStatus(response, 206, rangeHeader);
      expect(response.headers.get("content-range")).toBe(`bytes ${first}-${last}/${size}`);
      expect(response.headers.get("content-length")).toBe(String(last - first + 1));
      expect(response.headers.get("content-type")).toBe("application/octet-stream");
      expect(response.headers.get("etag")).toBe(etag);
      expect(response.headers.get("content-disposition")).toBe('attachment; filename="bundle.bin"');
      expect(response.headers.get("accept-ranges")).toBe("bytes");
      expect(response.bytes.length).toBe(last - first + 1);
      expect(Buffer.from(response.bytes).equals(content.subarray(first, last + 1)), rangeHeader).toBe(true);
    }

    async function expectWhole(headers: Record<string, string>) {
      const response = await get(headers);
      expectStatus(response, 200, JSON.stringify(headers));
      expect(response.headers.get("content-range")).toBeNull();
      expect(response.headers.get("content-length")).toBe(String(size));
      expect(response.headers.get("accept-ranges")).toBe("bytes");
      expect(response.headers.get("etag")).toBe(etag);
      expect(Buffer.from(response.bytes).equals(content)).toBe(true);
    }

    it("answers the whole file with Accept-Ranges and Content-Length", async () => {
      await expectWhole({});
    });

    it("answers 206 with exactly the bytes of one range, in each of its forms", async () => {
      expect(size).toBeGreaterThan(2 * CHUNK_BYTES);
      await expectPartial("bytes=0-9", 0, 9);
      await expectPartial("bytes=262140-262150", 262140, 262150); // across the first chunk boundary
      expect(Math.floor(262140 / CHUNK_BYTES)).not.toBe(Math.floor(262150 / CHUNK_BYTES));
      await expectPartial(`bytes=100-${2 * CHUNK_BYTES + 5}`, 100, 2 * CHUNK_BYTES + 5); // three chunks, the middle one whole
      await expectPartial(`bytes=${CHUNK_BYTES}-${2 * CHUNK_BYTES - 1}`, CHUNK_BYTES, 2 * CHUNK_BYTES - 1); // exactly one chunk
      await expectPartial("bytes=-10", size - 10, size - 1);
      await expectPartial("bytes=500000-", 500000, size - 1);
      await expectPartial(`bytes=${size - 1}-`, size - 1, size - 1);
      await expectPartial("bytes=600000-99999999", 600000, size - 1); // a last position past the end stops at the end
      await expectPartial("bytes=-99999999", 0, size - 1); // a suffix longer than the file is all of it
    });

    it("reads only the chunks a range needs", async () => {
      const projectId = await newProject();
      const own = randomBytes(3 * CHUNK_BYTES + 5);
      const created = await upload(projectId, [{ name: "file", value: own, filename: "chunks.bin" }]);
      expectStatus(created, 201);
      // Without its first and last chunks, the file's middle can still be read, and only it.
      await server.storage.db
        .delete(fileChunks)
        .where(and(eq(fileChunks.fileId, created.body.id), inArray(fileChunks.seq, [0, 3])));
      const first = CHUNK_BYTES + 7;
      const last = 3 * CHUNK_BYTES - 2;
      const response = await server.client.get(`/v1/projects/${projectId}/files/${created.body.id}/content`, {
        headers: { Range: `bytes=${first}-${last}` },
      });
      expectStatus(response, 206);
      expect(Buffer.from(response.bytes).equals(own.subarray(first, last + 1))).toBe(true);
    });

    it("answers 416 with the file's size when the range starts past the end", async () => {
      for (const range of [`bytes=${size}-`, `bytes=${size + 1000}-${size + 2000}`, "bytes=-0"]) {
        const response = await get({ Range: range });
        expectStatus(response, 416, range);
        expect(response.headers.get("content-range")).toBe(`bytes */${size}`);
        expect(response.body.error).toMatchObject({ code: "range_not_satisfiable", param: "Range" });
      }
    });

    it("ignores a malformed Range, another unit and several ranges: 200 with the whole file", async () => {
      for (const range of ["bytes=abc", "bytes=10-5", "bytes 0-9", "items=0-9", "bytes=", "bytes=0-1,5-6"]) {
        await expectWhole({ Range: range });
      }
    });

    it("answers 304 without a body when If-None-Match matches, before looking at Range", async () => {
      for (const ifNoneMatch of [etag, `W/${etag}`, `"0000", ${etag}`, "*"]) {
        const cases: Record<string, string>[] = [
          { "If-None-Match": ifNoneMatch },
          { "If-None-Match": ifNoneMatch, Range: "bytes=0-9" },
        ];
        for (const headers of cases) {
          const response = await get(headers);
          expectStatus(response, 304, JSON.stringify(headers));
          expect(response.headers.get("etag")).toBe(etag);
          expect(response.headers.get("content-type")).toBeNull();
          expect(response.bytes.length).toBe(0);
        }
      }
    });

    it("answers normally when If-None-Match holds other tags", async () => {
      await expectWhole({ "If-None-Match": `"${"0".repeat(64)}"` });
      await expectWhole({ "If-None-Match": `"${sha256(content).slice(1)}", W/"x"` });
      await expectPartial("bytes=0-9", 0, 9, { "If-None-Match": '"stale"' });
    });

    it("applies Range only when If-Range is the current ETag, by strong comparison", async () => {
      await expectPartial("bytes=0-9", 0, 9, { "If-Range": etag });
      for (const ifRange of ['"stale"', `W/${etag}`, "Sun, 22 Nov 2026 13:30:00 GMT"]) {
        await expectWhole({ Range: "bytes=0-9", "If-Range": ifRange });
      }
      // A mismatch ignores even a range that could not be satisfied.
      await expectWhole({ Range: `bytes=${size}-`, "If-Range": '"stale"' });
    });

    it("answers ranges of an empty file as far as they can be written", async () => {
      const projectId = await newProject();
      const created = await upload(projectId, [{ name: "file", value: new Uint8Array(0), filename: "empty.bin" }]);
      expectStatus(created, 201);
      const path = `/v1/projects/${projectId}/files/${created.body.id}/content`;
      const from = await server.client.get(path, { headers: { Range: "bytes=0-" } });
      expect(from.status).toBe(416);
      expect(from.headers.get("content-range")).toBe("bytes */0");
      const suffix = await server.client.get(path, { headers: { Range: "bytes=-5" } });
      expect(suffix.status).toBe(200);
      expect(suffix.headers.get("content-length")).toBe("0");
      expect(suffix.bytes.length).toBe(0);
    });
  });

  describe("refused uploads leave nothing stored", () => {
    it("answers 413 past 25 MiB, streamed without a length, and keeps no chunk", async () => {
      const projectId = await newProject();
      const response = await streamUpload(server, projectId, MAX_FILE_BYTES + 1, { declareLength: false });
      expectStatus(response, 413);
      expect(response.body.error).toMatchObject({ code: "payload_too_large" });
      await expectNothingPending();
      expect(expectBody(await server.client.get(`/v1/projects/${projectId}/files`), 200).data).toEqual([]);
    });

    it("answers 413 at once when the declared length is past the limit", async () => {
      const projectId = await newProject();
      const response = await streamUpload(server, projectId, MAX_FILE_BYTES + 1024 * 1024, { declareLength: true });
      expectStatus(response, 413);
      expect(response.body.error.code).toBe("payload_too_large");
      await expectNothingPending();
    });

    it("accepts a file of exactly 25 MiB", async () => {
      const projectId = await newProject();
      const response = await streamUpload(server, projectId, MAX_FILE_BYTES, { declareLength: false });
      expectStatus(response, 201);
      expect(response.body.size_bytes).toBe(MAX_FILE_BYTES);
      expect(await chunkCount(response.body.id)).toBe(MAX_FILE_BYTES / CHUNK_BYTES);
    }, 180_000);

    it("answers 409 for a path already taken, whether the path comes before or after the file", async () => {
      const projectId = await newProject();
      const first = await upload(projectId, [
        { name: "path", value: "logo.svg" },
        { name: "file", value: new Uint8Array([1]), filename: "a" },
      ]);
      expectStatus(first, 201);
      const before = await upload(projectId, [
        { name: "path", value: "logo.svg" },
        { name: "file", value: randomBytes(300 * 1024), filename: "b" },
      ]);
      expectStatus(before, 409);
      expect(before.body.error).toMatchObject({ code: "conflict", param: "path" });
      const after = await upload(projectId, [
        { name: "file", value: randomBytes(300 * 1024), filename: "c" },
        { name: "path", value: "logo.svg" },
      ]);
      expectStatus(after, 409);
      expect(after.body.error).toMatchObject({ code: "conflict", param: "path" });
      const byFilename = await upload(projectId, [{ name: "file", value: new Uint8Array([2]), filename: "logo.svg" }]);
      expect(byFilename.status).toBe(409);
      await expectNothingPending();
      const list = await server.client.get(`/v1/projects/${projectId}/files`);
      expectStatus(list, 200);
      expect(list.body.data.map((f: { id: string }) => f.id)).toEqual([first.body.id]);
    });

    it("lets only one of two concurrent uploads to the same path succeed", async () => {
      const projectId = await newProject();
      const results = await Promise.all(
        [0, 1].map(() =>
          upload(projectId, [
            { name: "file", value: randomBytes(100 * 1024), filename: "x" },
            { name: "path", value: "same.bin" },
          ]),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      await expectNothingPending();
    });

    it("answers 400 naming `path` for a path the contract refuses", async () => {
      const projectId = await newProject();
      for (const path of ["../secret", "a//b", "./x", "dir/", "with space", "a".repeat(513)]) {
        const refused = await upload(projectId, [
          { name: "path", value: path },
          { name: "file", value: new Uint8Array([1]), filename: "f" },
        ]);
        expectStatus(refused, 400, path);
        expect(refused.body.error).toMatchObject({ code: "invalid_request", param: "path" });
      }
      const badAfter = await upload(projectId, [
        { name: "file", value: randomBytes(1024), filename: "f" },
        { name: "path", value: "x/../y" },
      ]);
      expectStatus(badAfter, 400);
      expect(badAfter.body.error.param).toBe("path");
      const noName = await upload(projectId, [{ name: "file", value: new Uint8Array([1]), filename: ".." }]);
      expectStatus(noName, 400);
      expect(noName.body.error.param).toBe("path");
      await expectNothingPending();
    });

    it("answers 400 naming `file` when the file part is missing or not a file", async () => {
      const projectId = await newProject();
      const missing = await upload(projectId, [{ name: "path", value: "a.txt" }]);
      expectStatus(missing, 400);
      expect(missing.body.error).toMatchObject({ code: "invalid_request", param: "file" });
      const plainField = await upload(projectId, [{ name: "file", value: "just text" }]);
      expectStatus(plainField, 400);
      expect(plainField.body.error).toMatchObject({ code: "invalid_request", param: "file" });
      const twice = await upload(projectId, [
        { name: "file", value: new Uint8Array([1]), filename: "a" },
        { name: "file", value: new Uint8Array([2]), filename: "b" },
      ]);
      expectStatus(twice, 400);
      expect(twice.body.error).toMatchObject({ code: "invalid_request", param: "file" });
      const unknown = await upload(projectId, [
        { name: "file", value: new Uint8Array([1]), filename: "a" },
        { name: "folder", value: "x" },
      ]);
      expectStatus(unknown, 400);
      expect(unknown.body.error).toMatchObject({ code: "invalid_request", param: "folder" });
      const unnamed = await server.client.request("POST", `/v1/projects/${projectId}/files`, {
        raw: '--b\r\nContent-Disposition: form-data; name=""\r\n\r\nv\r\n--b--\r\n',
        headers: { "Content-Type": "multipart/form-data; boundary=b" },
      });
      expectStatus(unnamed, 400);
      expect(unnamed.body.error).toMatchObject({
        code: "invalid_request",
        param: "",
        message: expect.stringContaining("Unknown part"),
      });
      await expectNothingPending();
    });

    it("answers 400 for a malformed multipart body and 415 for another media type", async () => {
      const projectId = await newProject();
      const cut = await server.client.request("POST", `/v1/projects/${projectId}/files`, {
        raw: '--b\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n\r\nabc',
        headers: { "Content-Type": "multipart/form-data; boundary=b" },
      });
      expectStatus(cut, 400);
      expect(cut.body.error.code).toBe("invalid_request");
      const json = await server.client.post(`/v1/projects/${projectId}/files`, invalidBody({ path: "a" }));
      expect(json.status).toBe(415);
      await expectNothingPending();
    });
  });

  describe("list, get, delete", () => {
    it("lists newest first and pages with cursors bound to the project", async () => {
      const projectId = await newProject();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(
          expectBody(
            await upload(projectId, [{ name: "file", value: new Uint8Array([i]), filename: `f${i}.bin` }]),
            201,
          ).id,
        );
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ResponseTo<"GET", "/v1/projects/{project_id}/files"> = await server.client.get(
          `/v1/projects/${projectId}/files?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        expectStatus(page, 200);
        seen.push(...page.body.data.map((f) => f.id));
        cursor = page.body.next_cursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());

      const first = await server.client.get(`/v1/projects/${projectId}/files?limit=1`);
      expectStatus(first, 200);
      const otherProject = await newProject();
      const foreign = await server.client.get(
        `/v1/projects/${otherProject}/files?cursor=${encodeURIComponent(first.body.next_cursor!)}`,
      );
      expectStatus(foreign, 400);
      expect(foreign.body.error.param).toBe("cursor");
    });

    it("deletes a file with its content; it then answers 404 and its path is free again", async () => {
      const projectId = await newProject();
      const created = await upload(projectId, [
        { name: "path", value: "data/big.bin" },
        { name: "file", value: randomBytes(400 * 1024), filename: "x" },
      ]);
      expectStatus(created, 201);
      const fileId = created.body.id;
      expect(await chunkCount(fileId)).toBe(2);
      expect((await server.client.delete(`/v1/projects/${projectId}/files/${fileId}`)).status).toBe(204);
      expect(await chunkCount(fileId)).toBe(0);
      for (const path of [
        `/v1/projects/${projectId}/files/${fileId}`,
        `/v1/projects/${projectId}/files/${fileId}/content`,
      ]) {
        expectApiError(await server.client.get(path), 404, "not_found", "file_id");
      }
      expect((await server.client.delete(`/v1/projects/${projectId}/files/${fileId}`)).status).toBe(404);
      expect(expectBody(await server.client.get(`/v1/projects/${projectId}/files`), 200).data).toEqual([]);
      const again = await upload(projectId, [
        { name: "path", value: "data/big.bin" },
        { name: "file", value: new Uint8Array([1]), filename: "x" },
      ]);
      expect(again.status).toBe(201);
    });

    it("answers 404 for another workspace's or environment's file, and for an unknown project", async () => {
      const projectId = await newProject();
      const created = await upload(projectId, [
        { name: "file", value: new Uint8Array([1, 2]), filename: "private.bin" },
      ]);
      expectStatus(created, 201);
      const strangers = [
        server.as(await server.createKey({ workspace: "rival" })),
        server.as(await server.createKey({ environment: "test" })),
      ];
      for (const stranger of strangers) {
        expect((await stranger.get(`/v1/projects/${projectId}/files/${created.body.id}`)).status).toBe(404);
        expect((await stranger.get(`/v1/projects/${projectId}/files/${created.body.id}/content`)).status).toBe(404);
        expect((await stranger.get(`/v1/projects/${projectId}/files`)).status).toBe(404);
        expect((await stranger.delete(`/v1/projects/${projectId}/files/${created.body.id}`)).status).toBe(404);
        const refused = await upload(
          projectId,
          [{ name: "file", value: new Uint8Array([1]), filename: "intruder.bin" }],
          stranger,
        );
        expectStatus(refused, 404);
        expect(refused.body.error.param).toBe("project_id");
      }
      expect((await server.client.get(`/v1/projects/${projectId}/files/${created.body.id}`)).status).toBe(200);
      const noProject = await upload("prj_0000000000000000", [
        { name: "file", value: new Uint8Array([1]), filename: "a" },
      ]);
      expect(noProject.status).toBe(404);
      await expectNothingPending();
    });

    it("needs files:write to upload or delete and files:read to list or download", async () => {
      const projectId = await newProject();
      const reader = server.as(await server.createKey({ scopes: ["files:read"] }));
      const writer = server.as(await server.createKey({ scopes: ["files:write"] }));
      const denied = await upload(projectId, [{ name: "file", value: new Uint8Array([1]), filename: "a" }], reader);
      expectStatus(denied, 401);
      expect(denied.body.error.code).toBe("insufficient_scope");
      const created = await upload(projectId, [{ name: "file", value: new Uint8Array([1]), filename: "a" }], writer);
      expectStatus(created, 201);
      expectApiError(
        await writer.get(`/v1/projects/${projectId}/files/${created.body.id}/content`),
        401,
        "insufficient_scope",
      );
      expect((await reader.get(`/v1/projects/${projectId}/files/${created.body.id}/content`)).status).toBe(200);
    });

    it("purges uploads a stopped process left pending, and only those", async () => {
      const projectId = await newProject();
      const kept = await upload(projectId, [{ name: "file", value: new Uint8Array([1]), filename: "kept.bin" }]);
      expectStatus(kept, 201);
      const [row] = await server.storage.db
        .select({ workspaceId: files.workspaceId })
        .from(files)
        .where(eq(files.id, kept.body.id));
      const abandoned = await beginUpload(
        server.storage.db,
        { workspaceId: row!.workspaceId, environment: "live" },
        projectId,
      );
      await abandoned.write(randomBytes(CHUNK_BYTES + 1));
      expect(await chunkCount(abandoned.id)).toBe(1);
      // Invisible meanwhile: neither listed nor readable.
      expect(
        expectBody(await server.client.get(`/v1/projects/${projectId}/files`), 200).data.map(
          (f: { id: string }) => f.id,
        ),
      ).toEqual([kept.body.id]);
      expect((await server.client.get(`/v1/projects/${projectId}/files/${abandoned.id}`)).status).toBe(404);

      expect(await purgeAbandonedUploads(server.storage.db, new Date(Date.now() - 3_600_000))).toBe(0);
      expect(await purgeAbandonedUploads(server.storage.db, new Date(Date.now() + 1000))).toBe(1);
      expect(await chunkCount(abandoned.id)).toBe(0);
      expect((await server.client.get(`/v1/projects/${projectId}/files/${kept.body.id}/content`)).status).toBe(200);
      await expectNothingPending();
    });

    it("go with their project", async () => {
      const projectId = await newProject();
      const created = await upload(projectId, [{ name: "file", value: randomBytes(300 * 1024), filename: "a" }]);
      expectStatus(created, 201);
      expect((await server.client.delete(`/v1/projects/${projectId}`)).status).toBe(204);
      expect(await chunkCount(created.body.id)).toBe(0);
    });
  });
});

type Uploaded = StatusAndBodyTo<"POST", "/v1/projects/{project_id}/files">;

/**
 * Uploads `size` zero bytes through node:http, written 1 MiB at a time so the test never holds the
 * file. With `declareLength` the request carries its Content-Length, otherwise it is chunked. The
 * server may answer (and close) before the body is sent; the answer is what counts.
 */
async function streamUpload(
  server: TestServer,
  projectId: string,
  size: number,
  options: { declareLength: boolean },
): Promise<Uploaded> {
  const boundary = "----pbs-test-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const key = await server.createKey();
  const piece = Buffer.alloc(1024 * 1024);
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.url}/v1/projects/${projectId}/files`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        ...(options.declareLength ? { "Content-Length": String(head.length + size + tail.length) } : {}),
      },
    });
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) } as Uploaded),
      );
      response.on("error", reject);
    });
    // Writing after the server answered and closed fails with EPIPE/ECONNRESET: not the test's concern.
    request.on("error", (error) => {
      if (!answered) setTimeout(() => !answered && reject(error), 1000);
    });
    let sent = 0;
    let headSent = false;
    const pump = () => {
      if (answered || request.destroyed) return;
      if (!headSent) {
        headSent = true;
        if (!request.write(head)) return void request.once("drain", pump);
      }
      while (sent < size) {
        const n = Math.min(piece.length, size - sent);
        sent += n;
        if (!request.write(n === piece.length ? piece : piece.subarray(0, n))) return void request.once("drain", pump);
        if (answered) return;
      }
      request.end(tail);
    };
    pump();
  });
}
