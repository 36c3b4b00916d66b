import { expect, it } from "vitest";
import { insertLegacyKey } from "../../test/support/legacy-keys.ts";
import { pgliteDriver, useStorage } from "../../test/support/database.ts";
import { createApiKey } from "../domain/keys.ts";
import { createWorkspace } from "../domain/workspaces.ts";
import { randomBase62 } from "../storage/ids.ts";
import type { ChangeFeed, ChangeSubscriber } from "../storage/notifications.ts";
import { openKeyScreen } from "./key-screen.ts";

/** A feed the test drives by hand: the database's own announcements do not reach the screen. */
function manualFeed() {
  const subscribers = new Set<ChangeSubscriber>();
  const feed = {
    connected: true,
    subscribe(subscriber: ChangeSubscriber) {
      subscribers.add(subscriber);
      return () => void subscribers.delete(subscriber);
    },
    close: async () => {},
    announce: (payload: string) => subscribers.forEach((s) => s.changed(payload)),
    gap: () => subscribers.forEach((s) => s.gap()),
  };
  return feed satisfies ChangeFeed;
}

const storage = useStorage(pgliteDriver);

async function setUp() {
  const { db } = storage();
  const workspace = await createWorkspace(db, { slug: "acme" });
  const feed = manualFeed();
  return { db, workspace, feed };
}

it("vouches for keys whose checksum holds, and refuses any other shape as forged", async () => {
  const { db, workspace, feed } = await setUp();
  const screen = await openKeyScreen({ db, changes: feed, unscreened: (s) => s.startsWith("pbo_at_") });
  // Created after the screen opened, unannounced: the checksum alone vouches for it.
  const { secret } = await createApiKey(db, { workspaceId: workspace.id, name: "k" });
  expect(await screen.screen(secret)).toBe("plausible");
  expect(await screen.screen(`svc_live_${randomBase62(46)}`)).toBe("forged");
  expect(await screen.screen(`svc_test_${randomBase62(40)}`)).toBe("forged");
  for (const other of ["", "garbage", "svc_live_", `${secret}x`, secret.replace("svc_", "sv_")]) {
    expect(await screen.screen(other)).toBe("forged");
  }
  expect(await screen.screen(`pbo_at_${randomBase62(40)}`)).toBe("unscreened");
  screen.close();
});

it("knows the keys without a checksum that the database held when it opened", async () => {
  const { db, workspace, feed } = await setUp();
  const legacy = await insertLegacyKey(db, workspace.id);
  const screen = await openKeyScreen({ db, changes: feed });
  expect(await screen.screen(legacy)).toBe("plausible");
  expect(await screen.screen(legacy.slice(0, -1) + (legacy.endsWith("a") ? "b" : "a"))).toBe("forged");
  screen.close();
});

it("learns of a key without a checksum created later once a new credential is announced, or the feed had a gap", async () => {
  const { db, workspace, feed } = await setUp();
  const screen = await openKeyScreen({ db, changes: feed });
  const later = await insertLegacyKey(db, workspace.id);
  expect(await screen.screen(later)).toBe("forged");
  feed.announce("+");
  expect(await screen.screen(later)).toBe("plausible");

  const afterGap = await insertLegacyKey(db, workspace.id, "test");
  expect(await screen.screen(afterGap)).toBe("forged");
  feed.gap();
  expect(await screen.screen(afterGap)).toBe("plausible");
  // Other announcements (a workspace's credentials changed) leave the set as it is.
  const unannounced = await insertLegacyKey(db, workspace.id);
  feed.announce(workspace.id);
  expect(await screen.screen(unannounced)).toBe("forged");
  screen.close();
});
