// A real headless Chromium (Debian's `chromium`, driven by playwright-core) for the console and
// OAuth consent tests. Suites that need it are skipped, saying why, when it is absent.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { describe } from "vitest";
import { repoRoot } from "./process.ts";

export const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));

/** `describe`, skipped (with the reason in its name) when no Chromium is installed. */
export function describeWithBrowser(title: string, body: () => void): void {
  const name = chromiumPath ? title : `${title} (skipped: install Debian's chromium to run the browser suites)`;
  describe.skipIf(chromiumPath === undefined)(name, body);
}

/** Launches Chromium headless; `args` are further command-line switches (e.g. `--host-resolver-rules=…`). */
export async function launchBrowser(args: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath!,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", ...args],
  });
}

/** Screenshots of each page, kept under test-results/screenshots (git-ignored) to look at while building a page. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const directory = join(repoRoot, "test-results", "screenshots");
  await mkdir(directory, { recursive: true });
  const path = join(directory, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
