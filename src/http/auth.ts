// Authentication: `Authorization: Bearer <API_KEY>` → the key's principal, or the description's
// 401 codes. Revoked keys answer invalid_api_key like unknown ones: a caller learns nothing more.
import type { Principal, Refusal } from "../domain/keys.ts";
import { HttpError } from "./errors.ts";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export async function authenticateRequest(
  authorization: string | undefined,
  authenticate: (secret: string) => Promise<Principal | Refusal>,
  onRefused: (refusal: Refusal) => void = () => {},
): Promise<Principal> {
  if (!authorization) {
    throw new HttpError(
      401,
      "missing_api_key",
      "Send your API key as `Authorization: Bearer <API_KEY>`.",
      "Authorization",
    );
  }
  const secret = BEARER.exec(authorization)?.[1];
  if (!secret) {
    throw new HttpError(
      401,
      "invalid_api_key",
      "The Authorization header must be `Bearer <API_KEY>`.",
      "Authorization",
    );
  }
  const result = await authenticate(secret);
  if (!("refused" in result)) return result;
  onRefused(result);
  if (result.refused === "expired")
    throw new HttpError(401, "expired_api_key", "This API key has expired; create a new one.", "Authorization");
  throw new HttpError(
    401,
    "invalid_api_key",
    "This API key is not valid: it is unknown or was revoked.",
    "Authorization",
  );
}
