"""A webhook receiver in Python, standard library only: verifies each delivery (Standard Webhooks
signature, 5-minute window) and acknowledges it at once, as examples/receive-webhooks.ts does.
Run: WEBHOOK_SECRET=whsec_... PORT=3000 python3 examples/receive_webhooks.py

verify_webhook() is the part to copy into a receiver of your own (Flask, Django, FastAPI...): give it
the endpoint's secret, the request's headers and its raw body bytes, exactly as received.
"""

import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

TOLERANCE_SECONDS = 5 * 60
MAX_BODY_BYTES = 1024 * 1024


class WebhookVerificationError(Exception):
    """A delivery that must not be trusted: answer it with a 400, never with a 2xx.

    reason is one of missing_header, invalid_timestamp, timestamp_out_of_tolerance,
    no_matching_signature, invalid_body, body_too_large (the TypeScript client's reasons).
    """

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def _secret_key(secret):
    encoded = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        if re.fullmatch(r"[A-Za-z0-9+/]+={0,2}", encoded):
            key = base64.b64decode(encoded, validate=True)
            if key:
                return key
    except binascii.Error:
        pass
    raise ValueError("A webhook secret is whsec_ and base64 (not empty).")


def verify_webhook(secret, headers, raw_body, tolerance=TOLERANCE_SECONDS, now=None):
    """Returns the delivery's event (a dict), or raises WebhookVerificationError.

    headers: any mapping of header names (in any case) to values. raw_body: bytes. A malformed
    secret is a configuration error: ValueError. De-duplicate events on event["id"], and ignore
    event types you do not know.
    """
    key = _secret_key(secret)
    lowered = {name.lower(): value.strip() for name, value in headers.items() if value and value.strip()}
    msg_id = lowered.get("webhook-id")
    timestamp = lowered.get("webhook-timestamp")
    # X-Svc-Signature carries the same value; it is read only when webhook-signature is absent.
    signatures = lowered.get("webhook-signature") or lowered.get("x-svc-signature")
    if not (msg_id and timestamp and signatures):
        raise WebhookVerificationError("missing_header", "A webhook-id, webhook-timestamp or webhook-signature header is missing.")
    if not re.fullmatch(r"\d{1,15}", timestamp):
        raise WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not whole Unix seconds.")
    now = int(time.time()) if now is None else now
    if abs(now - int(timestamp)) > tolerance:
        raise WebhookVerificationError("timestamp_out_of_tolerance", f"webhook-timestamp is more than {tolerance} s away.")

    digest = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + raw_body, hashlib.sha256).digest()
    expected = base64.b64encode(digest).decode()
    # Several space-separated signatures during a secret rotation: any v1 one may match. Each is
    # compared in constant time, and all of them are.
    matched = False
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode(), expected.encode()):
            matched = True
    if not matched:
        raise WebhookVerificationError("no_matching_signature", "No signature matches this secret.")

    try:
        event = json.loads(raw_body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise WebhookVerificationError("invalid_body", "The body is not JSON.") from None
    if not (isinstance(event, dict) and isinstance(event.get("id"), str) and isinstance(event.get("type"), str) and isinstance(event.get("data"), dict)):
        raise WebhookVerificationError("invalid_body", "The body is not an event.")
    return event


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        try:
            length = int(self.headers.get("content-length") or 0)
            if length > MAX_BODY_BYTES:
                raise WebhookVerificationError("body_too_large", f"The body is longer than {MAX_BODY_BYTES} bytes.")
            event = verify_webhook(os.environ.get("WEBHOOK_SECRET", ""), self.headers, self.rfile.read(length))
        except WebhookVerificationError as error:
            self.answer(400, error.reason)
            return
        print(f"verified {event['type']} {event['id']}", flush=True)  # de-duplicate on the id, then do the work
        self.answer(204, "")

    def answer(self, status, text):
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass  # stdout shows verified events only


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "3000"))
    server = HTTPServer(("127.0.0.1", port), Receiver)
    print(f"listening on {port}", flush=True)
    server.serve_forever()
