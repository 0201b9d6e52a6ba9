#!/usr/bin/env python3
"""A golden Web Push message for the Swift encryption's test
(Tests/HeartworkAppTests/WebPushMessageTests.swift, `goldenVector`).

http_ece 1.2.1 (Mozilla's reference implementation of RFC 8188/8291, an implementation
independent of Heartwork's) encrypts RFC 8291 Appendix A's plaintext with fixed keys; the
hex it prints is pasted into the Swift test as literals (the test needs no Python):

    pip install http-ece==1.2.1 cryptography
    python3 Tests/Reference/webpush_vectors.py

The keys are derived from fixed labels (SHA-256), so the script prints the same vector on
every run.
"""
import hashlib
import json

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def scalar(label):
    return ec.derive_private_key(int.from_bytes(hashlib.sha256(label.encode()).digest(), "big"), ec.SECP256R1())


def point(private):
    return private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def raw(private):
    return private.private_numbers().private_value.to_bytes(32, "big")


as_private = scalar("heartwork web push test: application server")
ua_private = scalar("heartwork web push test: user agent")
salt = hashlib.sha256(b"heartwork web push test: salt").digest()[:16]
auth = hashlib.sha256(b"heartwork web push test: auth").digest()[:16]
plaintext = b"When I grow up, I want to be a watermelon"

body = http_ece.encrypt(
    plaintext, salt=salt, private_key=as_private, dh=point(ua_private), auth_secret=auth,
    rs=4096, version="aes128gcm")  # keyid: the sender's public key (http_ece's default)
assert http_ece.decrypt(body, private_key=ua_private, auth_secret=auth, version="aes128gcm") == plaintext

print(json.dumps({
    "asPrivate": raw(as_private).hex(),
    "asPublic": point(as_private).hex(),
    "uaPrivate": raw(ua_private).hex(),
    "uaPublic": point(ua_private).hex(),
    "salt": salt.hex(),
    "auth": auth.hex(),
    "plaintext": plaintext.decode(),
    "body": body.hex(),
}, indent=2))
