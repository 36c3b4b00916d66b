// npm run check:breaking on two tiny fixture documents
// (test/fixtures/breaking/released.yaml -> current.yaml): a removed operation
// and a newly required request field are breaking; a new optional field is not.

import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compareContracts } from "../scripts/check-breaking.ts";

const root = join(import.meta.dirname, "..");
const fixture = (name: string): string => join(root, "test/fixtures/breaking", name);
const load = (name: string): unknown => parse(readFileSync(fixture(name), "utf8"));

describe("compareContracts", () => {
  const changes = compareContracts(load("released.yaml"), load("current.yaml"));
  const at = (where: string) => changes.find((change) => change.where === where);

  it("reports a removed operation as breaking", () => {
    expect(at('paths["/v1/projects/{project_id}"].get')).toMatchObject({ type: "breaking", action: "remove" });
  });

  it("reports a newly required request field as breaking", () => {
    const change = changes.find(
      (c) => c.where.startsWith('paths["/v1/projects"].post.requestBody') && c.description.includes("`prompt`"),
    );
    expect(change).toMatchObject({ type: "breaking", action: "add" });
  });

  it("does not report an added optional request field as breaking", () => {
    const where = 'paths["/v1/projects"].post.requestBody.content["application/json"].schema.properties.template';
    expect(at(where)).toMatchObject({ type: "non-breaking", action: "add" });
  });

  it("lets through only a breaking change reviewed as compatible, matched exactly", () => {
    const removed = at('paths["/v1/projects/{project_id}"].get')!;
    const reviewed = [{ where: removed.where, description: removed.description, reason: "test" }];
    const withReview = compareContracts(load("released.yaml"), load("current.yaml"), reviewed);
    expect(withReview.find((c) => c.where === removed.where)).toMatchObject({ type: "non-breaking" });
    const elsewhere = [{ where: removed.where, description: "another change", reason: "test" }];
    expect(
      compareContracts(load("released.yaml"), load("current.yaml"), elsewhere).find((c) => c.where === removed.where),
    ).toMatchObject({
      type: "breaking",
    });
  });

  it("finds nothing breaking between a document and itself", () => {
    expect(compareContracts(load("released.yaml"), load("released.yaml"))).toEqual([]);
  });
});

describe("scripts/check-breaking.ts", () => {
  const script = join(root, "scripts/check-breaking.ts");

  it("exits 1 and prints each breaking change with its path", () => {
    const run = spawnSync(
      process.execPath,
      [script, "--released", fixture("released.yaml"), "--current", fixture("current.yaml")],
      {
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("2 breaking, 1 non-breaking");
    expect(run.stdout).toContain("[Removed] operation GET /v1/projects/{project_id}");
    expect(run.stdout).toContain('at paths["/v1/projects/{project_id}"].get');
    expect(run.stdout).not.toContain("template");
  });

  it("passes with a note when there is no released document yet", () => {
    const out = execFileSync(
      process.execPath,
      [script, "--released", fixture("does-not-exist.yaml"), "--current", fixture("current.yaml")],
      {
        encoding: "utf8",
      },
    );
    expect(out).toContain("no released contract");
  });
});
