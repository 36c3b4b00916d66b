// A build thread of build-pool.ts: a tenant's build, and the built-in agent's work on its files.
import { editProject } from "../../agents/builtin-edit.ts";
import { BuildError, buildSite } from "./build-site.ts";
import { serveTasks } from "./thread-pool.ts";

serveTasks({ buildSite: (files: ReadonlyMap<string, Uint8Array>) => buildSite(files), editProject }, [BuildError]);
