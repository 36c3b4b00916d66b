// Before every test file: passwords hashed cheaply. Suites create and sign in hundreds of users;
// at OWASP's cost (about half a second each here) that alone would take minutes. Child processes
// (the server and pbs, started by tests) read the same cost from PASSWORD_HASH_COST.
import { afterAll } from "vitest";
import { setPasswordHashCost } from "../../src/domain/passwords.ts";
import { settleBackground } from "./background.ts";
import { killLeftoverChildren } from "./process.ts";

export const TEST_PASSWORD_HASH_COST = "1024,8,1";
process.env.PASSWORD_HASH_COST = TEST_PASSWORD_HASH_COST;
setPasswordHashCost({ N: 1024, r: 8, p: 1 });

// Registered before the file's own hooks, so these run after them: children a timed-out case left
// running are killed, and the clean-up started in the background (databases dropped) is done, or
// has failed the file, before the file ends.
afterAll(async () => {
  killLeftoverChildren();
  await settleBackground();
}, 120_000);
