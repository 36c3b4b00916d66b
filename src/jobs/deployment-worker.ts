// Builds and publishes one deployment: its run's snapshot goes through the build step
// (src/jobs/build-pool/build-site.ts: index.html required, TypeScript/JSX entry points bundled; in a build thread,
// src/jobs/build-pool/), and the result is recorded as the deployment's tree with its url, in one
// transaction. A rollback publishes again the tree of the deployment it rolls back to, unchanged.
// A build error (a build past its time or memory limit included) fails the deployment and says
// why; what was served before stays served.
import type { Logger } from "pino";
import { BuildError } from "./build-pool/build-site.ts";
import type { AppAccess } from "../domain/app-access.ts";
import { deploymentTree, putBlob, readBlobBytes, runTree, versionTree, type TreeFile } from "../domain/builds.ts";
import { contentTypeFor } from "../domain/media-types.ts";
import { deploymentSource, failDeployment, publishDeployment, startDeploymentBuild } from "../domain/deployments.ts";
import type { Database, Queryable } from "../storage/index.ts";

export interface DeploymentWorkerOptions {
  readonly db: Database;
  readonly apps: AppAccess;
  readonly logger: Logger;
  /** The build step (buildSite): the build pool's, so that it runs off the event loop, within its limits. */
  readonly buildSite: (files: ReadonlyMap<string, Uint8Array>) => Promise<Map<string, Uint8Array>>;
}

export function createDeploymentWorker({ db, apps, logger, buildSite }: DeploymentWorkerOptions) {
  return async function build(deploymentId: string): Promise<void> {
    const job = await startDeploymentBuild(db, deploymentId);
    if (!job) return;
    const source = await deploymentSource(db, deploymentId);
    if (!source) return;
    const log = logger.child({ deployment_id: deploymentId });
    const url = apps.origin(job.label);

    const earlier = source.rollbackOf ? await deploymentTree(db, source.rollbackOf) : [];
    if (earlier.length > 0) {
      await publishDeployment(db, deploymentId, async () => earlier, url);
      log.info("rollback published");
      return;
    }

    const snapshot = source.versionId
      ? await versionTree(db, source.versionId)
      : source.runId
        ? await runTree(db, source.runId)
        : [];
    const input = new Map<string, Uint8Array>();
    for (const file of snapshot) input.set(file.path, await readBlobBytes(db, file.sha256, file.sizeBytes));
    let output: Map<string, Uint8Array>;
    try {
      output = await buildSite(input);
    } catch (error) {
      if (!(error instanceof BuildError)) throw error;
      await failDeployment(db, deploymentId, { code: "build_error", message: error.message });
      log.info({ reason: error.message }, "build failed");
      return;
    }
    const typeOf = new Map(snapshot.map((file) => [file.path, file.contentType]));
    await publishDeployment(db, deploymentId, (tx) => storeTree(tx, output, typeOf), url);
    log.info("deployment published");
  };
}

/**
 * Stores the build's output as blobs and answers its tree. A web file's media type follows its
 * extension (an index.html uploaded as text/plain is still served as HTML); other files keep the
 * type they were uploaded with.
 */
async function storeTree(
  tx: Queryable,
  output: Map<string, Uint8Array>,
  typeOf: Map<string, string>,
): Promise<TreeFile[]> {
  const tree: TreeFile[] = [];
  for (const [path, content] of [...output].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const sha256 = await putBlob(tx, content);
    const byExtension = contentTypeFor(path);
    const contentType = byExtension !== "application/octet-stream" ? byExtension : (typeOf.get(path) ?? byExtension);
    tree.push({ path, sha256, contentType, sizeBytes: content.length });
  }
  return tree;
}
