// Reading HTML form posts (application/x-www-form-urlencoded): bounded while they stream, every
// field bounded, NUL refused. A post that breaks a bound is refused with a message, never stored.
import type { IncomingMessage } from "node:http";
import { mediaTypeOf, readBoundedBody } from "../request-body.ts";

export const FORM_BODY_LIMIT = 64 * 1024;
export const FIELD_LIMIT = 4096;

export class FormError extends Error {
  readonly status: 400 | 413 | 415;
  constructor(message: string, status: 400 | 413 | 415) {
    super(message);
    this.name = "FormError";
    this.status = status;
  }
}

/** The posted fields; a field sent several times keeps all its values (`getAll`). */
export async function readForm(request: IncomingMessage, limit = FORM_BODY_LIMIT): Promise<URLSearchParams> {
  const mediaType = mediaTypeOf(request);
  if (mediaType !== "application/x-www-form-urlencoded") {
    throw new FormError("This form must be sent as application/x-www-form-urlencoded.", 415);
  }
  const body = await readBoundedBody(
    request,
    request,
    limit,
    () => new FormError(`The form is larger than ${limit / 1024} KiB.`, 413),
  );
  const form = new URLSearchParams(body.toString("utf8"));
  for (const [name, value] of form) {
    if (value.length > FIELD_LIMIT)
      throw new FormError(`The field "${name.slice(0, 40)}" is longer than ${FIELD_LIMIT} characters.`, 413);
    if (value.includes("\u0000") || name.includes("\u0000"))
      throw new FormError("The form contains a NUL character.", 400);
  }
  return form;
}
