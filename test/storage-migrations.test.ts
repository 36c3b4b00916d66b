// The committed migrations must describe schema.ts exactly: a column renamed in the schema without
// `npm run db:generate` would pass type-checks and then fail at run time on a real database.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { migrationsFolder } from "../src/storage/index.ts";

const repoRoot = join(import.meta.dirname, "..");

it("has committed migrations in step with src/storage/schema.ts", async () => {
  const scratch = await mkdtemp(join(tmpdir(), "pbs-migrations-"));
  try {
    await cp(migrationsFolder, scratch, { recursive: true });
    // drizzle-kit generate on a copy: it would write a new migration if the schema had moved on.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        join(repoRoot, "node_modules", "drizzle-kit", "bin.cjs"),
        "generate",
        "--dialect",
        "postgresql",
        "--schema",
        "./src/storage/schema.ts",
        "--out",
        relative(repoRoot, scratch),
      ],
      { cwd: repoRoot },
    );
    expect(stdout).toContain("No schema changes");
    expect((await readdir(scratch)).sort()).toEqual((await readdir(migrationsFolder)).sort());
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});
