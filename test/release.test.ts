// npm run release: the contract and its three packages move to one version together; a contract
// that breaks the last released one can only be a new major version. The rules here, on the
// breaking-change fixtures; the repository itself is held in step by `npm run check`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compareContracts } from "../scripts/check-breaking.ts";
import { versionProblems } from "../scripts/packages.ts";
import { nextVersion, releasedChangelog, releaseRefusal } from "../scripts/release.ts";

const fixture = (name: string): unknown =>
  parse(readFileSync(join(import.meta.dirname, "fixtures/breaking", name), "utf8"));

describe("npm run release", () => {
  it("bumps by name or to a higher version it is given", () => {
    expect(["major", "minor", "patch"].map((bump) => nextVersion("1.4.2", bump))).toEqual(["2.0.0", "1.5.0", "1.4.3"]);
    expect(nextVersion("0.1.0", "0.2.0")).toBe("0.2.0");
    expect(nextVersion("0.9.9", "0.10.0")).toBe("0.10.0");
    for (const lower of ["0.1.0", "0.0.9", "v0.2.0", "0.2"]) expect(() => nextVersion("0.1.0", lower), lower).toThrow();
  });

  it("refuses a minor or patch release of a contract that breaks the released one, and takes a major", () => {
    const breaking = compareContracts(fixture("released.yaml"), fixture("current.yaml")).filter(
      (change) => change.type === "breaking",
    );
    expect(breaking).toHaveLength(2);
    expect(releaseRefusal(breaking, "1.0.0", "1.1.0")).toMatch(
      /needs a new major version, not 1\.1\.0:\n.*operation GET \/v1\/projects\/\{project_id\}/s,
    );
    expect(releaseRefusal(breaking, "1.0.0", "1.0.1")).toBeDefined();
    expect(releaseRefusal(breaking, "1.0.0", "2.0.0")).toBeUndefined();
    expect(releaseRefusal([], "1.0.0", "1.1.0")).toBeUndefined();
  });

  it("dates the unreleased changes as the version's, under a new empty Unreleased", () => {
    const changelog = "# Changelog\n\n## Unreleased\n\n- Added a thing.\n\n## 0.1.0 — 2026-11-22\n\n- First.\n";
    expect(releasedChangelog(changelog, "0.2.0", "2026-12-01")).toBe(
      "# Changelog\n\n## Unreleased\n\n## 0.2.0 — 2026-12-01\n\n- Added a thing.\n\n## 0.1.0 — 2026-11-22\n\n- First.\n",
    );
    expect(() => releasedChangelog("# Changelog\n", "0.2.0", "2026-12-01")).toThrow(/Unreleased/);
  });

  it("has left the repository in step: the packages at the contract's version, which the changelog has", () => {
    expect(versionProblems()).toEqual([]);
  });
});
