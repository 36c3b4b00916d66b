import { describe, expect, it } from "vitest";
import {
  newWebhookSecret,
  secretKey,
  signWebhook,
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
} from "./webhook-signature.ts";
import { standardWebhooksVector as vector } from "../../test/support/webhook-vector.ts";

describe("signWebhook", () => {
  it("reproduces the Standard Webhooks test vector", () => {
    expect(signWebhook(vector)).toBe(vector.signature);
  });

  it("signs the raw bytes the same as the string", () => {
    expect(signWebhook({ ...vector, body: new TextEncoder().encode(vector.body) })).toBe(vector.signature);
  });

  it("accepts the secret without its whsec_ prefix, like the reference libraries", () => {
    expect(signWebhook({ ...vector, secret: vector.secret.slice("whsec_".length) })).toBe(vector.signature);
  });

  it("changes with each of id, timestamp, body and secret", () => {
    expect(signWebhook({ ...vector, id: "msg_other" })).not.toBe(vector.signature);
    expect(signWebhook({ ...vector, timestamp: vector.timestamp + 1 })).not.toBe(vector.signature);
    expect(signWebhook({ ...vector, body: '{"test":2432232314}' })).not.toBe(vector.signature);
    expect(signWebhook({ ...vector, secret: newWebhookSecret() })).not.toBe(vector.signature);
  });

  it("refuses a malformed secret or timestamp", () => {
    expect(() => signWebhook({ ...vector, secret: "whsec_" })).toThrow(TypeError);
    expect(() => signWebhook({ ...vector, secret: "whsec_not base64!" })).toThrow(TypeError);
    expect(() => signWebhook({ ...vector, timestamp: 1.5 })).toThrow(TypeError);
  });
});

describe("verifyWebhook", () => {
  const at = (now: number) => ({ ...vector, now });

  it("accepts the test vector at its own time", () => {
    expect(verifyWebhook(at(vector.timestamp))).toEqual({ ok: true });
    expect(verifyWebhook({ ...at(vector.timestamp), timestamp: String(vector.timestamp) })).toEqual({ ok: true });
  });

  it("accepts within 5 minutes either way and refuses beyond", () => {
    expect(WEBHOOK_TOLERANCE_SECONDS).toBe(300);
    expect(verifyWebhook(at(vector.timestamp + 300)).ok).toBe(true);
    expect(verifyWebhook(at(vector.timestamp - 300)).ok).toBe(true);
    expect(verifyWebhook(at(vector.timestamp + 301))).toEqual({ ok: false, reason: "timestamp_too_old" });
    expect(verifyWebhook(at(vector.timestamp - 301))).toEqual({ ok: false, reason: "timestamp_too_new" });
  });

  it("refuses a timestamp that is not whole seconds", () => {
    for (const timestamp of ["", "abc", "1614265330.5", "-1", " 1614265330"]) {
      expect(verifyWebhook({ ...at(vector.timestamp), timestamp })).toEqual({ ok: false, reason: "invalid_timestamp" });
    }
  });

  it("accepts if any of several space-separated signatures matches, and ignores other versions", () => {
    const rotated = `v1,${Buffer.alloc(32, 7).toString("base64")} v1a,${"A".repeat(86)}== ${vector.signature}`;
    expect(verifyWebhook({ ...at(vector.timestamp), signature: rotated }).ok).toBe(true);
    // The right bytes under another version tag do not count.
    expect(verifyWebhook({ ...at(vector.timestamp), signature: vector.signature.replace("v1,", "v2,") }).ok).toBe(
      false,
    );
  });

  it("refuses a tampered body, id, timestamp or signature, and a wrong secret", () => {
    const refused = { ok: false, reason: "no_matching_signature" };
    expect(verifyWebhook({ ...at(vector.timestamp), body: '{"test": 2432232315}' })).toEqual(refused);
    expect(verifyWebhook({ ...at(vector.timestamp), id: "msg_p5jXN8AQM9LWM0D4loKWxJel" })).toEqual(refused);
    expect(verifyWebhook({ ...at(vector.timestamp + 1), timestamp: vector.timestamp + 1 })).toEqual(refused);
    expect(
      verifyWebhook({ ...at(vector.timestamp), signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=" }),
    ).toEqual(refused);
    expect(verifyWebhook({ ...at(vector.timestamp), signature: "v1,g0hM9SsE" })).toEqual(refused);
    expect(verifyWebhook({ ...at(vector.timestamp), signature: "" })).toEqual(refused);
    // Bytes that decode the same but are not the same text (junk a lenient decoder would skip).
    expect(
      verifyWebhook({ ...at(vector.timestamp), signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=!" }),
    ).toEqual(refused);
    expect(verifyWebhook({ ...at(vector.timestamp), secret: newWebhookSecret() })).toEqual(refused);
  });

  it("round-trips a fresh secret", () => {
    const secret = newWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signWebhook({ id: "evt_1", timestamp, body: "{}", secret });
    expect(verifyWebhook({ id: "evt_1", timestamp: String(timestamp), body: "{}", signature, secret }).ok).toBe(true);
  });
});

describe("newWebhookSecret", () => {
  it("is whsec_ and base64 of 32 random bytes, matching the contract's pattern", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32,88}$/);
    expect(secretKey(secret)).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
