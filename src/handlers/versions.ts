// Versions: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import type { SchemaVersion } from "../../generated/schema.d.ts";
import * as versions from "../domain/versions.ts";
import type { Context } from "../http/request-context.ts";
import { listed } from "./pagination.ts";

type VersionHandlers = Pick<Handlers<Context>, "listVersions" | "createVersion" | "getVersion" | "restoreVersion">;

/** A version recorded, where it can be read again. */
const created = (version: SchemaVersion) => ({
  status: 201 as const,
  headers: { Location: `/v1/projects/${version.project_id}/versions/${version.id}` },
  body: version,
});

export const versionHandlers: VersionHandlers = {
  listVersions: ({ path, query }, context) =>
    listed(context, `versions:${path.project_id}`, query, {}, (request) =>
      versions.listVersions(context.db, context.partition, path.project_id, request),
    ),

  createVersion: ({ path, body }, { db, partition, effect }) =>
    effect((commit) => versions.createVersion(db, partition, path.project_id, body, commit), created),

  async getVersion({ path }, { db, partition }) {
    return { status: 200, body: await versions.getVersion(db, partition, path.project_id, path.version_id) };
  },

  restoreVersion: ({ path }, { db, partition, effect }) =>
    effect((commit) => versions.restoreVersion(db, partition, path.project_id, path.version_id, commit), created),
};
