// docs/configuration.md, rendered from the variables src/config.ts declares, so that every variable,
// its default and its meaning are written once. `npm run build` writes it; `npm run check` fails when
// it differs from a fresh render.
//
//   node scripts/configuration-doc.ts   (writes it alone)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { groups, variables, type Variable } from "../src/config.ts";

export const configurationDoc = join(resolve(import.meta.dirname, ".."), "docs/configuration.md");

/** GitHub's anchor for a heading that is a variable's name in code. */
const anchor = (name: string) => name.toLowerCase();
const code = (value: string | undefined) => (value === undefined ? "unset" : `\`${value}\``);
/** A declaration's sentence continuing a line of its own: "The same…" after a colon is "the same…". */
const continuing = (text: string) => text.replace(/^[A-Z](?![A-Z])/, (first) => first.toLowerCase());

/** Whether docs/configuration.md is what src/config.ts renders. */
export const configurationDocIsFresh = (): boolean =>
  existsSync(configurationDoc) && readFileSync(configurationDoc, "utf8") === renderConfigurationDoc();

export function renderConfigurationDoc(): string {
  const all = Object.entries(variables) as [string, Variable][];
  const lines = [
    "# Configuration",
    "",
    "<!-- Rendered from src/config.ts by `npm run build`: edit the declarations there, not this file. -->",
    "",
    "The server (`npm start`, the image) and `pbs` read these environment variables once, at start. A value",
    "they cannot use stops them with a message naming the variable; an empty variable counts as unset.",
    "Durations are written `600` (seconds), `600s`, `10m`, `1h` or `500ms`. Each variable also says how a",
    "deployment of several replicas sets it ([deployment](deployment.md)).",
    "",
    "| Variable | Default |",
    "| --- | --- |",
    ...all.map(([name, variable]) => `| [\`${name}\`](#${anchor(name)}) | ${code(variable.default)} |`),
  ];
  for (const [group, title] of Object.entries(groups)) {
    lines.push("", `## ${title}`);
    for (const [name, variable] of all.filter(([, variable]) => variable.group === group)) {
      lines.push(
        "",
        `### \`${name}\``,
        "",
        variable.meaning,
        "",
        `- Takes ${variable.accepts}.`,
        `- Default: ${code(variable.default)}.`,
        `- Across replicas: ${continuing(variable.replicas)}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

if (import.meta.main) {
  writeFileSync(configurationDoc, renderConfigurationDoc());
  console.log("docs/: configuration.md, from src/config.ts");
}
