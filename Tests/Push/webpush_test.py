#!/usr/bin/env python3
"""Web Push checked by independent implementations (issue 25, HeartMate F35): a real
`heartwork serve` pushes a friend request to a push endpoint run here; http_ece (Mozilla's
RFC 8188/8291 implementation) decrypts the body with keys made by `cryptography` as a browser
would, and `cryptography` verifies the VAPID token (RFC 8292) with the key from /api/push/key.
Then the endpoint answers 410, and the server drops the subscription.

    python3 Tests/Push/webpush_test.py [.build/debug/heartwork]

Needs `http-ece` and `cryptography`. Exits non-zero on any failure.
"""
import base64
import http.server
import json
import os
import pathlib
import queue
import subprocess
import sys
import tempfile
import threading
import time

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
from common import call, free_port, wait_for_health  # noqa: E402  (the Python checks' shared helpers)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def user(base, name):
    status, body = call(base, "POST", "/api/auth/register",
                        {"username": name, "fullName": f"{name.title()} Tester", "email": f"{name}@example.org", "password": "correct horse 1"})
    check(status == 201, f"register {name}: {status}")
    status, login = call(base, "POST", "/api/auth/login", {"username": name, "password": "correct horse 1"})
    check(status == 200, f"login {name}: {status}")
    return body["id"], login["token"]


def check(condition, message):
    if not condition:
        raise SystemExit(f"FAIL: {message}")
    print(f"ok: {message}")


class PushService(http.server.BaseHTTPRequestHandler):
    """A push service: keeps each POST and answers the next status of `answers` (201 when none)."""
    received = queue.Queue()
    answers = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        PushService.received.put((self.path, dict(self.headers), body))
        self.send_response(PushService.answers.pop(0) if PushService.answers else 201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    binary = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / ".build/debug/heartwork").resolve()
    push_port = free_port()
    endpoint_server = http.server.ThreadingHTTPServer(("127.0.0.1", push_port), PushService)
    threading.Thread(target=endpoint_server.serve_forever, daemon=True).start()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # Private addresses allowed: the push endpoint is on this machine.
    server = subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", tempfile.mkdtemp(prefix="webpush-"), "--allow-private-webhooks"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, HEARTWORK_BCRYPT_COST="4"))
    try:
        wait_for_health(base, server)
        ann_id, ann = user(base, "pushann")
        ben_id, ben = user(base, "pushben")
        _, cai = user(base, "pushcai")

        # Ben's browser: its P-256 key pair and auth secret, as PushManager.subscribe makes them.
        browser = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        point = browser.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        endpoint = f"http://127.0.0.1:{push_port}/push/ben"
        status, added = call(base, "POST", "/api/push/subscriptions",
                             {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": b64url(point), "auth": b64url(auth)}}, ben)
        check(status == 201, f"the subscription is stored ({status} {added})")
        status, key = call(base, "GET", "/api/push/key", token=ben)
        check(status == 200 and len(unb64url(key["publicKey"])) == 65, "the VAPID public key is 65 bytes")

        sent_at = time.time()
        status, _ = call(base, "POST", "/api/friend-requests", {"userID": ben_id}, ann)
        check(status == 201, "Ann sends Ben a friend request")
        path, headers, body = PushService.received.get(timeout=30)
        headers = {name.lower(): value for name, value in headers.items()}
        check(path == "/push/ben", "the push reaches Ben's endpoint")
        check(headers.get("content-encoding") == "aes128gcm" and headers.get("ttl") == "86400", "aes128gcm with a TTL")

        payload = json.loads(http_ece.decrypt(body, private_key=browser, auth_secret=auth, version="aes128gcm"))
        check(payload["tag"] == "friend-request" and "@pushann" in payload["body"] and payload["link"].startswith("/"),
              f"http_ece decrypts it: {payload}")

        scheme, _, rest = headers["authorization"].partition(" ")
        fields = dict(part.strip().split("=", 1) for part in rest.split(","))
        check(scheme == "vapid" and fields["k"] == key["publicKey"], "the Authorization header is vapid t=…, k=<the server's key>")
        head, claims, signature = fields["t"].split(".")
        check(json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}, "the token is an ES256 JWT")
        claims_json = json.loads(unb64url(claims))
        check(claims_json["aud"] == f"http://127.0.0.1:{push_port}", f"aud is the push service's origin ({claims_json['aud']})")
        check(abs(claims_json["exp"] - (sent_at + 12 * 3600)) < 120, "exp is 12 hours on")
        check(claims_json["sub"].startswith(("mailto:", "https:")), f"sub is a contact ({claims_json['sub']})")
        raw = unb64url(signature)
        verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key["publicKey"]))
        try:
            verifier.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                            f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
            check(True, "the VAPID signature verifies with the public key")
        except InvalidSignature:
            check(False, "the VAPID signature verifies with the public key")

        # The browser unsubscribed: the push service answers 410 and the server forgets the device.
        PushService.answers.append(410)
        status, _ = call(base, "POST", "/api/friend-requests", {"userID": ben_id}, cai)
        check(status == 201, "Cai sends Ben a friend request")
        PushService.received.get(timeout=30)
        deadline = time.time() + 15
        while time.time() < deadline:
            _, listed = call(base, "GET", "/api/push/subscriptions", token=ben)
            if not listed["subscriptions"]:
                break
            time.sleep(0.3)
        check(not listed["subscriptions"], "a 410 removes the subscription")
    finally:
        server.terminate()
        server.wait(timeout=30)
        endpoint_server.shutdown()
    print("web push: all checks passed")


if __name__ == "__main__":
    main()
