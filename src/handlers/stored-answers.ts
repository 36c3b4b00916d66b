// What an answer stored for an Idempotency-Key keeps in place of a secret it carried. The answers
// that show a webhook endpoint's signing secret (once, by design) are stored with the secret's
// SHA-256 instead, so the idempotency table never holds a secret in clear. A replay reads the
// secret back from its endpoint while that secret still signs (current, or previous within its
// grace period); once it was rotated out, or the endpoint deleted, the replay answers 409 and
// tells the caller to rotate: it must not hand out a secret that no longer works, nor a newer one
// the first request never saw.
import type { OperationId } from "../../generated/handlers.ts";
import type { SchemaWebhookEndpointWithSecret } from "../../generated/schema.d.ts";
import { signingSecretByDigest, secretDigest } from "../domain/webhooks.ts";
import { HttpError } from "../http/errors.ts";
import type { AnswerSeal } from "../http/idempotent-call.ts";

type SealedEndpoint = Omit<SchemaWebhookEndpointWithSecret, "secret"> & { secret: { sha256: string } };

const webhookSecret: AnswerSeal = {
  seal(body) {
    const endpoint = body as SchemaWebhookEndpointWithSecret;
    return { ...endpoint, secret: { sha256: secretDigest(endpoint.secret) } } satisfies SealedEndpoint;
  },
  async open(stored, { db, partition }) {
    const endpoint = stored as SealedEndpoint;
    const secret = await signingSecretByDigest(db, partition, endpoint.id, endpoint.secret.sha256);
    if (secret === undefined) {
      throw new HttpError(
        409,
        "conflict",
        `The first answer to this Idempotency-Key carried a signing secret of webhook endpoint ${endpoint.id} that no longer signs ` +
          `(rotated out, or the endpoint was deleted). Rotate the secret (POST /v1/webhooks/${endpoint.id}/rotate-secret) for a new one.`,
      );
    }
    return { ...endpoint, secret } satisfies SchemaWebhookEndpointWithSecret;
  },
};

/** The idempotent operations whose successful answers carry a secret. */
export const answerSeals: Partial<Record<OperationId, AnswerSeal>> = {
  createWebhookEndpoint: webhookSecret,
  rotateWebhookSecret: webhookSecret,
};
