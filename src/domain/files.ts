// Files: immutable content stored with a project, at a path unique in the project. The bytes live in
// file_chunks (CHUNK_BYTES each, seq 0..n) so that an upload is written and a download read chunk by
// chunk, never held whole.
//
// An upload writes its chunks as they arrive, outside any transaction (a transaction held open
// while a client sends 25 MiB would block every other request on the single PGlite connection).
// Chunks reference their file, so the files row comes first: a *pending* row whose path starts
// with PENDING_PREFIX, a character the contract's path pattern excludes, so it can never clash
// with a real path and every read below skips it. Committing gives the row its path, size and hash
// in one transaction (the unique constraint decides a race for the same path); any failure deletes
// the row, and its chunks with it. A process that dies mid-upload leaves a pending row that
// purgeAbandonedUploads removes.
import { createHash, type Hash } from "node:crypto";
import { and, eq, inArray, like, lt, notLike, sql } from "drizzle-orm";
import type { SchemaProjectFile } from "../../generated/schema.d.ts";
import { inTransaction, type Commit, type Database, type Queryable } from "../storage/index.ts";
import { newId } from "../storage/ids.ts";
import { blobChunks, fileChunks, files, versionFiles } from "../storage/schema.ts";
import { ConflictError, FileTooLargeError, InvalidInputError, NotFoundError } from "./errors.ts";
import { recordEvent } from "./events.ts";
import { findProject, foundInProject, projectNotFound } from "./projects.ts";
import { contractFields } from "./contract-fields.ts";
import { inPartition, listPage, type Page, type PageRequest, type Partition } from "./partition.ts";

type FileRow = typeof files.$inferSelect;

/** The contract's upload limit: 25 MiB per file. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** The size of every stored chunk but the last. */
export const CHUNK_BYTES = 256 * 1024;
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/** The contract's ProjectFilePath (spec/common/ids.tsp). */
export const FILE_PATH =
  /^(\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\.\.\.[A-Za-z0-9._-]*)(\/(\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\.\.\.[A-Za-z0-9._-]*))*$/;
const FILE_PATH_MAX = 512;
/** The contract's ProjectFile.content_type. */
const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+$/;
const CONTENT_TYPE_MAX = 255;

/** Marks an upload that has not committed. `~` is outside FILE_PATH: no real path starts with it. */
const PENDING_PREFIX = "~pending/";
const committed = () => notLike(files.path, `${PENDING_PREFIX}%`);

export function toProjectFile(row: FileRow): SchemaProjectFile {
  return contractFields(row, ["id", "projectId", "path", "contentType", "sizeBytes", "sha256", "createdAt"]);
}

/** The path if it is a valid project path; InvalidInputError naming `param` otherwise. */
export function validPath(path: string, param = "path"): string {
  if (path.length < 1 || path.length > FILE_PATH_MAX || !FILE_PATH.test(path)) {
    throw new InvalidInputError(
      `"${path.slice(0, 100)}" is not a valid path: use 1–${FILE_PATH_MAX} characters, segments of letters, digits, ".", "_" and "-" separated by "/", with no empty, "." or ".." segment.`,
      param,
    );
  }
  return path;
}

/**
 * The path an upload without a `path` part is stored at: the uploaded filename's last segment,
 * accents dropped and every other character outside [A-Za-z0-9._-] replaced by `_`. A name that
 * still is no valid path (none, `.`, `..`) is an InvalidInputError on `path`.
 */
export function pathFromFilename(filename: string | undefined): string {
  const base = (filename ?? "").split(/[/\\]/).at(-1) ?? "";
  const sanitized = base
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_");
  if (!sanitized || !FILE_PATH.test(sanitized) || sanitized.length > FILE_PATH_MAX) {
    throw new InvalidInputError(
      filename
        ? `The filename "${filename.slice(0, 100)}" cannot be used as a path; send a \`path\` part.`
        : "The file part has no usable filename; send a `path` part.",
      "path",
    );
  }
  return sanitized;
}

/** The media type to store: the given one when the contract accepts it, else application/octet-stream. */
export function storedContentType(mimeType: string | undefined): string {
  const type = (mimeType ?? "").trim().toLowerCase();
  return type.length <= CONTENT_TYPE_MAX && CONTENT_TYPE.test(type) ? type : DEFAULT_CONTENT_TYPE;
}

async function requirePathFree(db: Database, projectId: string, path: string): Promise<void> {
  const [taken] = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.projectId, projectId), eq(files.path, path)));
  if (taken) throw pathTaken(projectId, path, taken.id);
}

const pathTaken = (projectId: string, path: string, fileId?: string) =>
  new ConflictError(
    `The path ${path} is already taken in project ${projectId}${fileId ? ` by ${fileId}` : ""}; delete that file first or choose another path.`,
    "path",
  );

/** The PostgreSQL error code of a failed query, through drizzle's wrapping (`cause`). */
function pgCode(error: unknown): string | undefined {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";

/**
 * Checks that the project exists (and that `path`, when already known, is valid and free), then
 * starts an upload. Feed it with write(), then commit(); call abort() on any failure.
 */
export async function beginUpload(
  db: Database,
  partition: Partition,
  projectId: string,
  path?: string,
): Promise<Upload> {
  await findProject(db, partition, projectId);
  if (path !== undefined) await requirePathFree(db, projectId, validPath(path));
  const id = newId("file");
  await db.insert(files).values({
    id,
    projectId,
    ...partition,
    path: `${PENDING_PREFIX}${id}`,
    contentType: DEFAULT_CONTENT_TYPE,
    sizeBytes: 0,
    sha256: "",
  });
  return new Upload(db, partition, projectId, id);
}

/** One upload in progress: content in, chunks stored as they fill, hashed and counted on the way. */
export class Upload {
  readonly id: string;
  readonly projectId: string;
  readonly #db: Database;
  readonly #partition: Partition;
  readonly #hash: Hash = createHash("sha256");
  #size = 0;
  #seq = 0;
  #buffered: Buffer[] = [];
  #bufferedBytes = 0;
  #state: "open" | "committed" | "aborted" = "open";

  constructor(db: Database, partition: Partition, projectId: string, id: string) {
    this.#db = db;
    this.#partition = partition;
    this.projectId = projectId;
    this.id = id;
  }

  get size(): number {
    return this.#size;
  }

  /** Appends content; stores every full chunk. FileTooLargeError once past MAX_FILE_BYTES. */
  async write(data: Uint8Array): Promise<void> {
    if (this.#state !== "open") throw new Error(`upload ${this.id} is ${this.#state}`);
    if (this.#size + data.length > MAX_FILE_BYTES) throw new FileTooLargeError(MAX_FILE_BYTES);
    this.#size += data.length;
    this.#hash.update(data);
    this.#buffered.push(Buffer.from(data));
    this.#bufferedBytes += data.length;
    while (this.#bufferedBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(this.#buffered, this.#bufferedBytes);
      await this.#store(all.subarray(0, CHUNK_BYTES));
      const rest = all.subarray(CHUNK_BYTES);
      this.#buffered = rest.length > 0 ? [rest] : [];
      this.#bufferedBytes = rest.length;
    }
  }

  async #store(data: Buffer): Promise<void> {
    try {
      // A copy: the chunk must not be a view into the larger buffer it was cut from.
      await this.#db.insert(fileChunks).values({ fileId: this.id, seq: this.#seq, data: Buffer.from(data) });
    } catch (error) {
      // The pending row is gone: the project was deleted meanwhile.
      if (pgCode(error) === FOREIGN_KEY_VIOLATION) throw projectNotFound(this.projectId);
      throw error;
    }
    this.#seq += 1;
  }

  /**
   * Stores the last chunk and gives the file its path, media type, size and hash, in `commit`'s
   * transaction with the `file.uploaded` event. A path taken meanwhile is a ConflictError.
   */
  async commit(
    input: { path: string; contentType: string },
    commit: Commit<SchemaProjectFile> = inTransaction(this.#db),
  ): Promise<SchemaProjectFile> {
    if (this.#state !== "open") throw new Error(`upload ${this.id} is ${this.#state}`);
    const path = validPath(input.path);
    if (this.#bufferedBytes > 0) await this.#store(Buffer.concat(this.#buffered, this.#bufferedBytes));
    this.#buffered = [];
    this.#bufferedBytes = 0;
    const sha256 = this.#hash.digest("hex");
    try {
      const file = await commit(async (tx) => {
        const [row] = await tx
          .update(files)
          .set({
            path,
            contentType: storedContentType(input.contentType),
            sizeBytes: this.#size,
            sha256,
            createdAt: new Date(),
          })
          .where(eq(files.id, this.id))
          .returning();
        if (!row) throw projectNotFound(this.projectId);
        const uploaded = toProjectFile(row);
        await recordEvent(tx, this.#partition, "file.uploaded", uploaded);
        return uploaded;
      });
      this.#state = "committed";
      return file;
    } catch (error) {
      if (pgCode(error) === UNIQUE_VIOLATION) throw pathTaken(this.projectId, path);
      throw error;
    }
  }

  /** Deletes what was stored (the pending row, and its chunks by cascade). A no-op once committed. */
  async abort(): Promise<void> {
    if (this.#state !== "open") return;
    this.#state = "aborted";
    this.#buffered = [];
    await this.#db.delete(files).where(and(eq(files.id, this.id), like(files.path, `${PENDING_PREFIX}%`)));
  }
}

/** Checks a path before its content arrives, so an upload to a taken path fails before storing. */
export async function checkPathAvailable(
  db: Database,
  partition: Partition,
  projectId: string,
  path: string,
): Promise<void> {
  await findProject(db, partition, projectId);
  await requirePathFree(db, projectId, validPath(path));
}

/** Removes uploads left pending by a process that stopped mid-upload. Returns how many. */
export async function purgeAbandonedUploads(db: Database, startedBefore: Date): Promise<number> {
  const removed = await db
    .delete(files)
    .where(and(like(files.path, `${PENDING_PREFIX}%`), lt(files.createdAt, startedBefore)))
    .returning({ id: files.id });
  return removed.length;
}

async function findFile(db: Database, partition: Partition, projectId: string, fileId: string): Promise<FileRow> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(inPartition(files, partition), eq(files.projectId, projectId), eq(files.id, fileId), committed()));
  return foundInProject(
    db,
    partition,
    projectId,
    row,
    () => new NotFoundError(`No file ${fileId} in project ${projectId}.`, "file_id"),
  );
}

export async function getFile(
  db: Database,
  partition: Partition,
  projectId: string,
  fileId: string,
): Promise<SchemaProjectFile> {
  return toProjectFile(await findFile(db, partition, projectId, fileId));
}

/** The project's files, newest first. */
export async function listFiles(
  db: Database,
  partition: Partition,
  projectId: string,
  page: PageRequest,
): Promise<Page<SchemaProjectFile>> {
  await findProject(db, partition, projectId);
  return listPage(db, files, and(eq(files.projectId, projectId), committed()), page, toProjectFile);
}

/** Deletes the file and its content; its path is free again. */
export async function deleteFile(db: Database, partition: Partition, projectId: string, fileId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(files)
      .where(and(inPartition(files, partition), eq(files.projectId, projectId), eq(files.id, fileId), committed()))
      .returning();
    if (!row) {
      await findProject(tx, partition, projectId);
      throw new NotFoundError(`No file ${fileId} in project ${projectId}.`, "file_id");
    }
    await recordEvent(tx, partition, "file.deleted", toProjectFile(row));
  });
}

/** Bytes `first` to `last` of a file, positions from 0, both inclusive. */
export interface ByteRange {
  first: number;
  last: number;
}

/**
 * The file's metadata and its content as an async sequence of chunks, each fetched when the
 * consumer asks for it: `content` is the whole file, `slice(range)` only the range's bytes, read
 * from the chunks that hold them (chunk `floor(first / CHUNK_BYTES)` to `floor(last / CHUNK_BYTES)`,
 * the first and last cut to the range). A range must lie within the file. A file deleted mid-read
 * ends the sequence with an error rather than short.
 */
export async function readFileContent(
  db: Database,
  partition: Partition,
  projectId: string,
  fileId: string,
): Promise<{
  file: SchemaProjectFile;
  content: AsyncGenerator<Uint8Array>;
  slice(range: ByteRange): AsyncGenerator<Uint8Array>;
}> {
  const row = await findFile(db, partition, projectId, fileId);
  async function* read({ first, last }: ByteRange): AsyncGenerator<Uint8Array> {
    if (!(
      Number.isSafeInteger(first) &&
      Number.isSafeInteger(last) &&
      0 <= first &&
      first <= last &&
      last < row.sizeBytes
    )) {
      throw new RangeError(`bytes ${first}-${last} are not within file ${row.id} of ${row.sizeBytes} bytes`);
    }
    // Every chunk but the last holds CHUNK_BYTES, so a position's chunk and offset follow from it.
    for (let seq = Math.floor(first / CHUNK_BYTES); seq <= Math.floor(last / CHUNK_BYTES); seq++) {
      const [chunk] = await db
        .select({ data: fileChunks.data })
        .from(fileChunks)
        .where(and(eq(fileChunks.fileId, row.id), eq(fileChunks.seq, seq)));
      if (!chunk) throw new Error(`file ${row.id} lost its chunk ${seq} while being read (deleted meanwhile?)`);
      const start = seq * CHUNK_BYTES;
      const from = Math.max(first - start, 0);
      const to = Math.min(last - start, CHUNK_BYTES - 1) + 1;
      if (chunk.data.length < to)
        throw new Error(`file ${row.id} has a short chunk ${seq} (${chunk.data.length} bytes, ${to} needed)`);
      yield from === 0 && to === chunk.data.length ? chunk.data : chunk.data.subarray(from, to);
    }
  }
  async function* content(): AsyncGenerator<Uint8Array> {
    if (row.sizeBytes > 0) yield* read({ first: 0, last: row.sizeBytes - 1 });
  }
  return { file: toProjectFile(row), content: content(), slice: read };
}

// --- For agent runs (no partition: the run worker acts for the run's project). ---

/** A file as a run writes it: whole content in memory, within the agent's limits. */
export interface FileWrite {
  readonly path: string;
  readonly content: Uint8Array;
  readonly contentType: string;
}

/** Content cut into the stored chunks: CHUNK_BYTES each but the last, in order of `seq`. */
export function* chunksOf(content: Uint8Array): Generator<{ seq: number; data: Buffer }> {
  for (let seq = 0, offset = 0; offset < content.length; seq++, offset += CHUNK_BYTES) {
    // A copy: a chunk must not be a view into the larger buffer it was cut from.
    yield { seq, data: Buffer.from(content.subarray(offset, offset + CHUNK_BYTES)) };
  }
}

/** Every committed file row of the project (uploads in progress left out), in path order. */
export async function committedFiles(db: Queryable, projectId: string): Promise<FileRow[]> {
  return db
    .select()
    .from(files)
    .where(and(eq(files.projectId, projectId), committed()))
    .orderBy(files.path);
}

/** The committed files of the project among `ids`; an id of another project or of no file is left out. */
export async function committedFilesById(db: Queryable, projectId: string, ids: readonly string[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(files)
    .where(and(eq(files.projectId, projectId), inArray(files.id, [...ids]), committed()));
}

/** Every committed file of the project, in path order, with a reader of its content. */
export async function projectFiles(db: Database, projectId: string) {
  const rows = await committedFiles(db, projectId);
  return rows.map((row) => ({
    path: row.path,
    sizeBytes: row.sizeBytes,
    contentType: row.contentType,
    sha256: row.sha256,
    async read(): Promise<Uint8Array> {
      const parts = await db
        .select({ data: fileChunks.data })
        .from(fileChunks)
        .where(eq(fileChunks.fileId, row.id))
        .orderBy(fileChunks.seq);
      return Buffer.concat(parts.map((part) => part.data));
    },
  }));
}

/**
 * Applies a run's changes to the project's files inside the run's finishing transaction: deleted
 * paths go, written paths are replaced by new files (a new id, as an upload would make).
 */
export async function applyFileChanges(
  tx: Queryable,
  partition: Partition,
  projectId: string,
  changes: { readonly writes: readonly FileWrite[]; readonly deletes: readonly string[] },
): Promise<void> {
  const replaced = [...changes.deletes, ...changes.writes.map((write) => write.path)];
  if (replaced.length > 0)
    await tx.delete(files).where(and(eq(files.projectId, projectId), inArray(files.path, replaced)));
  for (const write of changes.writes) {
    const id = newId("file");
    await tx.insert(files).values({
      id,
      projectId,
      ...partition,
      path: write.path,
      contentType: write.contentType,
      sizeBytes: write.content.length,
      sha256: createHash("sha256").update(write.content).digest("hex"),
    });
    for (const chunk of chunksOf(write.content)) await tx.insert(fileChunks).values({ fileId: id, ...chunk });
  }
}

/**
 * Makes the project's files exactly a version's (a restore, or a fork's first files): files that
 * differ from it or are not in it are removed, and the version's files the project lacks are written
 * from their blobs. Three statements whatever the number of files; files the version holds unchanged
 * keep their ids. Uploads in progress are left alone.
 */
export async function replaceFilesWithVersion(
  tx: Queryable,
  partition: Partition,
  projectId: string,
  versionId: string,
): Promise<void> {
  await tx.execute(sql`delete from ${files} where ${files.projectId} = ${projectId} and ${committed()}
    and not exists (select 1 from ${versionFiles} v where v.version_id = ${versionId} and v.path = ${files.path}
      and v.sha256 = ${files.sha256} and v.content_type = ${files.contentType})`);
  const written = await tx.execute<{ id: string }>(sql`insert into ${files}
      (id, project_id, workspace_id, environment, path, content_type, size_bytes, sha256)
    select new_id('file'), ${projectId}, ${partition.workspaceId}, ${partition.environment},
      v.path, v.content_type, v.size_bytes, v.sha256
    from ${versionFiles} v where v.version_id = ${versionId}
      and not exists (select 1 from ${files} f where f.project_id = ${projectId} and f.path = v.path)
    returning id`);
  const ids = written.rows.map((row) => row.id);
  if (ids.length === 0) return;
  await tx.execute(sql`insert into ${fileChunks} (file_id, seq, data)
    select f.id, c.seq, c.data from ${files} f join ${blobChunks} c on c.sha256 = f.sha256
    where f.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`);
}
