// Run by `npm ci` / `npm install` (the package's `prepare` script): saves the migrated PGlite
// template (src/storage/pglite-template.ts), so that the first `npm start` on a new data directory
// copies it (~0.5 s) instead of running initdb and every migration (~3 s or more). Only an
// optimization: whatever goes wrong here, the install goes on and the server builds its own.
import { migratedTemplate } from "../src/storage/pglite.ts";
import { templatePath } from "../src/storage/pglite-template.ts";

try {
  await migratedTemplate();
  console.log(`prepare: the embedded database's template is ready (${await templatePath()})`);
} catch (error) {
  console.warn(
    `prepare: no template for the embedded database (${(error as Error).message}); new data directories will take a few seconds more`,
  );
}
