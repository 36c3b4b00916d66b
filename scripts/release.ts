// `npm run release -- <major|minor|patch|X.Y.Z>`: releases the contract and its packages
// (@project-builder/contract, /client, /mock, /mcp) at one version, which `npm run check` then holds:
//   1. refuses any but a new major version when the contract breaks the last released one
//      (check:breaking's comparison);
//   2. sets the version in spec/main.tsp and rebuilds generated/ (so `info.version` is it);
//   3. sets the packages' versions, and the client's and mock's dependency on the contract;
//   4. CHANGELOG.md: the "Unreleased" changes become the version's, dated, under a new empty
//      "Unreleased";
//   5. records generated/openapi.yaml as the released contract (generated/released/);
//   6. updates package-lock.json.
// Then: `npm run check`, commit, and publish with
// `npm publish -w packages/contract -w packages/client -w packages/mock -w packages/mcp` (each prepack builds).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { compareContracts, CURRENT, RELEASED, REVIEWED, type Change, type ReviewedChange } from "./check-breaking.ts";
import { generate, root } from "./generate.ts";
import {
  buildPackages,
  contractVersion,
  idempotentRoutesFile,
  packageNames,
  packagesDir,
  renderIdempotentRoutes,
} from "./packages.ts";

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

function parts(version: string): [number, number, number] {
  const match = SEMVER.exec(version);
  if (!match) throw new Error(`${JSON.stringify(version)} is not a version (major.minor.patch)`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** The version after `current`: a bump by name, or an explicit version, which must be higher. */
export function nextVersion(current: string, bump: string): string {
  const [major, minor, patch] = parts(current);
  if (bump === "major") return `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  if (bump === "patch") return `${major}.${minor}.${patch + 1}`;
  const next = parts(bump);
  const higher = next.findIndex((part, i) => part !== [major, minor, patch][i]);
  if (higher < 0 || next[higher]! < [major, minor, patch][higher]!)
    throw new Error(`${bump} is not higher than ${current}`);
  return bump;
}

/** Why `next` cannot be released over the last released contract, or undefined when it can. */
export function releaseRefusal(
  breaking: readonly Change[],
  releasedVersion: string | undefined,
  next: string,
): string | undefined {
  if (breaking.length === 0 || releasedVersion === undefined || parts(next)[0] > parts(releasedVersion)[0])
    return undefined;
  const list = breaking.map((change) => `  ${change.description}\n      at ${change.where}`).join("\n");
  return `the contract breaks ${releasedVersion} (${breaking.length} breaking change(s)), so it needs a new major version, not ${next}:\n${list}`;
}

/** The changelog with its "Unreleased" changes released as `version` on `date`, under a new empty "Unreleased". */
export function releasedChangelog(changelog: string, version: string, date: string): string {
  if (!/^## Unreleased$/m.test(changelog)) throw new Error('CHANGELOG.md has no "## Unreleased" section');
  return changelog.replace(/^## Unreleased$/m, `## Unreleased\n\n## ${version} — ${date}`);
}

function replaceOnce(file: string, from: string, to: string): void {
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${file} does not say ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

function main(): void {
  const bump = process.argv[2];
  if (!bump) throw new Error("say which version: npm run release -- <major|minor|patch|X.Y.Z>");
  const current = contractVersion();
  const next = nextVersion(current, bump);

  const load = (file: string) => parse(readFileSync(file, "utf8")) as { info: { version: string } };
  const released = existsSync(RELEASED) ? load(RELEASED) : undefined;
  const reviewed = existsSync(REVIEWED)
    ? ((parse(readFileSync(REVIEWED, "utf8")) as ReviewedChange[] | null) ?? [])
    : [];
  const breaking = released
    ? compareContracts(released, load(CURRENT), reviewed).filter((change) => change.type === "breaking")
    : [];
  const refusal = releaseRefusal(breaking, released?.info.version, next);
  if (refusal) throw new Error(refusal);

  const spec = join(root, "spec/main.tsp");
  replaceOnce(spec, `version: "${current}"`, `version: "${next}"`);
  replaceOnce(spec, `This description is version ${current}`, `This description is version ${next}`);
  generate(join(root, "generated"));
  writeFileSync(idempotentRoutesFile, renderIdempotentRoutes(readFileSync(CURRENT, "utf8")));

  for (const name of packageNames) {
    const file = join(packagesDir, name, "package.json");
    const manifest = JSON.parse(readFileSync(file, "utf8")) as {
      version: string;
      dependencies?: Record<string, string>;
    };
    manifest.version = next;
    if (manifest.dependencies?.["@project-builder/contract"]) manifest.dependencies["@project-builder/contract"] = next;
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  const changelog = join(root, "CHANGELOG.md");
  writeFileSync(
    changelog,
    releasedChangelog(readFileSync(changelog, "utf8"), next, new Date().toISOString().slice(0, 10)),
  );
  copyFileSync(CURRENT, RELEASED);
  execFileSync("npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: root,
    stdio: "inherit",
  });
  buildPackages();
  console.log(
    `release: ${current} -> ${next}. Run \`npm run check\`, commit, then \`npm publish -w packages/contract -w packages/client -w packages/mock -w packages/mcp\`.`,
  );
}

if (import.meta.main) {
  try {
    main();
  } catch (error) {
    console.error(`release: ${(error as Error).message}`);
    process.exit(1);
  }
}
