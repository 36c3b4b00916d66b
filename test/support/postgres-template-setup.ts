// Vitest global setup: when TEST_DATABASE_URL is set, a migrated PostgreSQL database to clone every
// test database from (`CREATE DATABASE x TEMPLATE t`: ~0.1 s) instead of creating an empty one and
// running every migration in it (~0.5–3 s, hundreds of times a run). Built once per migration set
// and kept on the server (named by the migrations' hash, so a changed migration makes a new one);
// runs of other checkouts with the same migrations share it.
import { createHash, randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { migrationsFolder } from "../../src/storage/index.ts";
import { openPostgresStorage } from "../../src/storage/postgres.ts";
import { withPgClient } from "./pg-client.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated template database's name; undefined without TEST_DATABASE_URL. */
    postgresTemplate: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const url = process.env.TEST_DATABASE_URL?.trim();
  project.provide("postgresTemplate", url ? await migratedTemplate(url) : undefined);
}

/** The template of the current migrations on the server at `url`, built when missing. */
async function migratedTemplate(url: string): Promise<string> {
  const name = `pbs_template_${await migrationsHash()}`;
  if (await exists(url, name)) return name;
  // Built under a name of its own and renamed when whole: a run that finds the template finds it
  // complete, and two runs building at once both succeed (the second one's copy is dropped).
  const building = `${name}_${randomBytes(4).toString("hex")}`;
  await withPgClient(url, (client) => client.query(`create database "${building}"`));
  try {
    await (await openPostgresStorage({ url: databaseUrl(url, building), poolSize: 1 })).close();
    await withPgClient(url, (client) => client.query(`alter database "${building}" rename to "${name}"`));
  } catch (error) {
    await withPgClient(url, (client) => client.query(`drop database if exists "${building}" with (force)`));
    if (!(await exists(url, name))) throw error;
  }
  return name;
}

async function migrationsHash(): Promise<string> {
  const hash = createHash("sha256");
  const files = (await readdir(migrationsFolder, { recursive: true, withFileTypes: true })).filter((entry) =>
    entry.isFile(),
  );
  for (const file of files.map((entry) => join(entry.parentPath, entry.name)).sort()) {
    hash.update(`${file.slice(migrationsFolder.length)}\n`);
    hash.update(await readFile(file));
  }
  return hash.digest("hex").slice(0, 16);
}

async function exists(url: string, name: string): Promise<boolean> {
  const { rowCount } = await withPgClient(url, (client) =>
    client.query("select 1 from pg_database where datname = $1", [name]),
  );
  return rowCount === 1;
}

export function databaseUrl(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}
