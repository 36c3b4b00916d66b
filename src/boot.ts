// Loaded first by the entry points (src/main.ts, src/cli/pbs.ts), before the modules they import
// dynamically after it.
//
// drizzle-orm's package.json is 180 KB (447 `exports` entries), and Node's ES module resolver reads
// and parses the package.json of a module's package for every module it resolves: for drizzle's few
// hundred modules that cost ~1 s of start-up and ~150 MB of memory (measured: importing the app took
// 1.7 s and 300 MB RSS, 0.65 s and 135 MB with this hook). Its modules import each other by relative
// path and are all ES modules, so the hook resolves those imports itself; everything else goes
// through Node as usual.
import { enableCompileCache, registerHooks } from "node:module";

// V8's compiled code (and TypeScript's stripped output) kept on disk between starts, in the OS temp
// directory unless NODE_COMPILE_CACHE names another; Node checks each entry against its source.
enableCompileCache();

const DRIZZLE = "/node_modules/drizzle-orm/";

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (context.parentURL?.includes(DRIZZLE) && (specifier.startsWith("./") || specifier.startsWith("../"))) {
      return { url: new URL(specifier, context.parentURL).href, format: "module", shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});
