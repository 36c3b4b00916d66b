// Where the time goes in a V8 CPU profile (`node --cpu-prof`): self time by package or source
// directory, and by function, as Markdown. `node bench/profile-summary.ts <file.cpuprofile>`.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package (`pg`, `@scope/name`), our directory (`src/http`), `node:…` module, or V8 bucket of a frame. */
function ownerOf({ url, functionName }: ProfileNode["callFrame"]): string {
  const inModules = url.split("node_modules/")[1];
  if (inModules)
    return inModules
      .split("/")
      .slice(0, inModules.startsWith("@") ? 2 : 1)
      .join("/");
  const ours = /\/(src|bench)\/(.*)$/.exec(url);
  if (ours) return `${ours[1]}/${ours[2]!.split("/").slice(0, -1).join("/") || ours[2]}`;
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  return functionName.startsWith("(") ? functionName : "(native)";
}

export function summarizeProfile(path: string, top = 15): string[] {
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  // Each sample is also charged to the innermost frame of our own code (src/) on its stack, so the
  // time spent inside libraries shows which of our functions asked for it.
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  const byOurCaller = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (node.callFrame.functionName === "(idle)") continue;
    total += us;
    const owner = ownerOf(node.callFrame);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
    const name = `${node.callFrame.functionName || "(anonymous)"} — ${owner}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    let ours: ProfileNode | undefined = node;
    while (ours && !/\/src\//.test(ours.callFrame.url)) ours = parentOf.get(ours.id);
    const caller = ours
      ? `${ours.callFrame.functionName || "(anonymous)"} — ${ours.callFrame.url.split("/src/")[1]}:${ours.callFrame.lineNumber + 1}`
      : "(none of ours: event loop, sockets, timers)";
    byOurCaller.set(caller, (byOurCaller.get(caller) ?? 0) + us);
  }
  const table = (title: string, entries: Map<string, number>) => [
    `| ${title} | self time (% of busy) |`,
    "|---|---|",
    ...[...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `| \`${name}\` | ${((100 * us) / total).toFixed(1)}% |`),
    "",
  ];
  return [
    ...table("package / directory", byOwner),
    ...table("function", byFunction),
    ...table("innermost function of ours (src/) on the stack", byOurCaller),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(summarizeProfile(process.argv[2]!).join("\n"));
}
