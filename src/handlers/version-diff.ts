// A version's diff: HTTP in, domain call, HTTP out.
import type { Handlers } from "../../generated/handlers.ts";
import { getVersionDiff } from "../domain/version-diff.ts";
import type { Context } from "../http/request-context.ts";
import { ok } from "./ok.ts";

export const versionDiffHandlers: Pick<Handlers<Context>, "getVersionDiff"> = {
  getVersionDiff: ({ path, query }, { db, diffFiles, partition }) =>
    ok(getVersionDiff(db, diffFiles, partition, path.project_id, path.version_id, query?.base)),
};
