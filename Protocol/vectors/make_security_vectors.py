#!/usr/bin/env python3
"""Writes Protocol/vectors/security.json: golden values of PROTOCOL.md §3 (key pinning).

Written from PROTOCOL.md §3 alone, with the standard library and the `openssl` command
(Debian's openssl) for the elliptic-curve work:

* fingerprints: a P-256 key's DER SubjectPublicKeyInfo, its SHA-256, the text form, the
  other spellings a reader takes as the same fingerprint, and texts a reader refuses;
* endorsements: a chain of two key rotations (key 1 vouches for key 2, key 2 for key 3),
  each signed message and signature, and the certificate extension's value carrying both;
* invite codes: `CODE@FINGERPRINT` as an admin hands it out, and its two parts.

The keys are fixed: each private scalar is SHA-256 of a label, reduced modulo the curve's
order. ECDSA signatures are randomized, so a signature already in the file is kept while
`openssl` still verifies it; only a missing or changed one is made anew. Prints nothing on
success; a second run writes the same bytes. Usage: python3 Protocol/vectors/make_security_vectors.py
"""

import base64
import hashlib
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(HERE, "security.json")

# The order of P-256 (SEC 2, secp256r1 n).
P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_OID = bytes.fromhex("06082a8648ce3d030107")  # 1.2.840.10045.3.1.7
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
LABEL = b"workout key rotation v1\x00"
EXTENSION_OID = "2.25.1719476253412847629"


def openssl(arguments, data):
    return subprocess.run(["openssl"] + arguments, input=data, capture_output=True, check=True).stdout


def private_key_der(label):
    """RFC 5915 ECPrivateKey of the scalar SHA-256(label) mod n, without the public key."""
    scalar = (int.from_bytes(hashlib.sha256(label.encode()).digest(), "big") % P256_ORDER).to_bytes(32, "big")
    body = bytes([0x02, 0x01, 0x01, 0x04, 0x20]) + scalar + bytes([0xA0, len(P256_OID)]) + P256_OID
    return bytes([0x30, len(body)]) + body


def spki(private_der):
    return openssl(["ec", "-inform", "DER", "-pubout", "-outform", "DER"], private_der)


def fingerprint_text(digest):
    """Base32 (RFC 4648 alphabet, no padding) of the 32 bytes, in 13 groups of 4."""
    bits = "".join(f"{byte:08b}" for byte in digest) + "0000"  # 256 bits, 4 zero bits: 52 characters
    characters = "".join(ALPHABET[int(bits[i:i + 5], 2)] for i in range(0, 260, 5))
    assert characters == base64.b32encode(digest).decode().rstrip("=")
    return "-".join(characters[i:i + 4] for i in range(0, 52, 4))


def u16(length):
    return bytes([length >> 8, length & 0xFF])


def sign(private_der, message, kept_hex, public_der):
    """An ECDSA-SHA256 signature (DER) of `message`: the kept one while it verifies."""
    with tempfile.TemporaryDirectory() as directory:
        key = os.path.join(directory, "key.pem")
        public = os.path.join(directory, "public.der")
        signature = os.path.join(directory, "signature.der")
        with open(key, "wb") as f:
            f.write(openssl(["ec", "-inform", "DER", "-outform", "PEM"], private_der))
        with open(public, "wb") as f:
            f.write(public_der)
        if kept_hex:
            with open(signature, "wb") as f:
                f.write(bytes.fromhex(kept_hex))
            verified = subprocess.run(
                ["openssl", "dgst", "-sha256", "-verify", public, "-keyform", "DER", "-signature", signature],
                input=message, capture_output=True)
            if verified.returncode == 0:
                return bytes.fromhex(kept_hex)
        return openssl(["dgst", "-sha256", "-sign", key], message)


def main():
    try:
        with open(OUTPUT, encoding="utf-8") as f:
            kept = {e["name"]: e["signature_hex"] for e in json.load(f)["endorsements"]}
    except (OSError, KeyError, ValueError):
        kept = {}
    keys = [private_key_der(f"workout vector key {n}") for n in (1, 2, 3)]
    publics = [spki(key) for key in keys]
    digests = [hashlib.sha256(public).digest() for public in publics]
    texts = [fingerprint_text(digest) for digest in digests]

    fingerprints = [{
        "name": f"fingerprint_key_{n + 1}",
        "description": f"The fingerprint of P-256 key {n + 1}: SHA-256 over its DER SubjectPublicKeyInfo as the certificate carries it (91 bytes: the uncompressed point), in base32, 13 groups of 4.",
        "spki_hex": publics[n].hex(),
        "digest_hex": digests[n].hex(),
        "fingerprint": texts[n],
    } for n in range(3)]
    plain = texts[0].replace("-", "")
    same = [
        plain,
        texts[0].lower(),
        " ".join(texts[0].split("-")),
        " " + plain[:26].lower() + "-" + plain[26:] + " ",
        "--" + "-".join(plain[i:i + 2] for i in range(0, 52, 2)),
    ]
    refused = [
        {"text": plain[:-1], "why": "51 characters"},
        {"text": plain + "A", "why": "53 characters"},
        {"text": plain[:-1] + ALPHABET[ALPHABET.index(plain[-1]) + 1], "why": "the last 4 bits are not zero"},
        {"text": plain[:10] + "0" + plain[11:], "why": "0 is not in the alphabet (nor 1, 8, 9)"},
        {"text": plain + "====", "why": "padding is not written, and = is not in the alphabet"},
        {"text": plain[:26] + "\t" + plain[26:], "why": "only dashes and spaces are ignored, not other whitespace"},
        {"text": plain[:26] + "_" + plain[26:], "why": "no other separator"},
    ]

    endorsements = []
    for old, new in ((0, 1), (1, 2)):
        name = f"endorsement_key_{old + 1}_to_key_{new + 1}"
        message = LABEL + digests[new]
        signature = sign(keys[old], message, kept.get(name), publics[old])
        endorsements.append({
            "name": name,
            "description": f"Key {old + 1} vouches for key {new + 1}: its signature (ECDSA P-256 with SHA-256, DER) over `workout key rotation v1`, a zero byte, and key {new + 1}'s fingerprint digest.",
            "old_key_spki_hex": publics[old].hex(),
            "new_key_digest_hex": digests[new].hex(),
            "signed_message_hex": message.hex(),
            "signature_hex": signature.hex(),
        })
    value = bytes([len(endorsements)])
    for entry in endorsements:
        old_key = bytes.fromhex(entry["old_key_spki_hex"])
        signature = bytes.fromhex(entry["signature_hex"])
        value += u16(len(old_key)) + old_key + bytes.fromhex(entry["new_key_digest_hex"]) + u16(len(signature)) + signature
    extension = {
        "name": "extension_two_rotations",
        "description": f"The value (the OCTET STRING's content) of extension {EXTENSION_OID} in key 3's certificate after two rotations, oldest first: a client that pinned key 1 or key 2 follows it to key 3.",
        "oid": EXTENSION_OID,
        "endorsements": [entry["name"] for entry in endorsements],
        "value_hex": value.hex(),
        "presented_key_digest_hex": digests[2].hex(),
        "leads_to_presented_from": [digests[0].hex(), digests[1].hex()],
    }

    invites = [{
        "name": "invite_with_fingerprint",
        "description": "An invite as an admin hands it out (never sent whole: 72 characters do not fit Register's invite_code, 1..64 bytes); the client sends the code alone after the server proved the key.",
        "text": "7KQ2-M9XD-4HPA-W3RT@" + plain,
        "code": "7KQ2-M9XD-4HPA-W3RT",
        "fingerprint": texts[0],
    }, {
        "name": "invite_with_fingerprint_as_typed",
        "description": "The same invite typed with spaces around the parts and the fingerprint in lower case with dashes.",
        "text": "7KQ2-M9XD-4HPA-W3RT @ " + texts[0].lower(),
        "code": "7KQ2-M9XD-4HPA-W3RT",
        "fingerprint": texts[0],
    }, {
        "name": "invite_without_fingerprint",
        "description": "An invite without the server's fingerprint: the client pins on first use as for any connection.",
        "text": "7KQ2-M9XD-4HPA-W3RT",
        "code": "7KQ2-M9XD-4HPA-W3RT",
        "fingerprint": None,
    }]

    document = {
        "fingerprints": fingerprints,
        "fingerprint_spellings": {"fingerprint": texts[0], "read_as_same": same, "refused": refused},
        "endorsements": endorsements,
        "extensions": [extension],
        "invites": invites,
    }
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
