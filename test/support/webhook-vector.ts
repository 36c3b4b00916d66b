// The published Standard Webhooks test vector (also in the Svix reference libraries' tests), for
// the server's signer (src/domain/webhook-signature.test.ts) and the client's verifier
// (packages/client/src/webhooks.test.ts). A round trip through our own verifier would pass with the
// wrong delimiter, base64 alphabet or key decoding; reproducing this value is what says receivers'
// libraries accept our signatures.
export const standardWebhooksVector = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
} as const;
