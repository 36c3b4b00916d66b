// A build thread of build-pool.ts: a tenant's build, the built-in agent's work on its files, and the
// patches of a version's diff.
import * as esbuild from "esbuild";
import { editProject } from "../../agents/builtin/edit.ts";
import { diffContents } from "../../domain/file-diff.ts";
import { BuildError, buildSite } from "./build-site.ts";
import { childrenExited, serveTasks } from "./thread-pool.ts";

// esbuild's service lives only while a build bundles, when this thread waits on it and can answer a
// stop: a thread cut short while it works in JavaScript (an edit, a page's rewriting) past its
// limit is terminated without stopping the service, which would then stay a zombie (thread-pool.ts).
async function stopEsbuild(): Promise<void> {
  await esbuild.stop();
  await childrenExited();
}

serveTasks(
  {
    buildSite: (files: ReadonlyMap<string, Uint8Array>) => buildSite(files, { bundled: stopEsbuild }),
    editProject,
    diffFiles: diffContents,
  },
  [BuildError],
);
