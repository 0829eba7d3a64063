#!/usr/bin/env python3
"""An independent reader of qrseal sealed messages, written from docs/FORMAT.md alone.

It walks vectors/seal/ (format: vectors/seal/README.md) and vectors/parts/ (parts.py,
section 8), opens every success vector and
compares the plaintext, and checks that every failure vector is refused with the right class.
It prints one line per vector and a last line `reference: N passed, M failed`; the exit
status is 1 when any vector failed.

Usage: reader.py [VECTOR_FOLDER]
"""

import hashlib
import hmac
import math
import os
import re
import sys
import unicodedata

import brotli
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt


# --- Refusal classes ----------------------------------------------------------------------

class Refused(Exception):
    """The reader refuses the message; `kind` is the vector class."""
    kind = "refused"


class FormatFailure(Refused):
    kind = "format failure"


class AuthenticationFailure(Refused):
    kind = "authentication failure"


class Unsupported(Refused):
    kind = "unsupported"


class ResourceLimit(Refused):
    kind = "resource limit"


class NoMatch(Refused):
    kind = "no match"


class BadVector(Exception):
    """The vector file itself is wrong."""


# --- Section 5: key files -----------------------------------------------------------------

KEY_PREFIX = "QRSEAL-KEY-1-"
BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def base32_decode(text):
    """RFC 4648 base32 without padding; the bits left over at the end must be zero."""
    value, bits, out = 0, 0, bytearray()
    for ch in text:
        index = BASE32.find(ch)
        if index < 0:
            raise ValueError("not a base32 character: %r" % ch)
        value = (value << 5) | index
        bits += 5
        if bits >= 8:
            bits -= 8
            out.append((value >> bits) & 0xFF)
            value &= (1 << bits) - 1
    if value != 0:
        raise ValueError("non-zero padding bits")
    return bytes(out)


def parse_key_file(line):
    """The 32-byte secret F of a key line."""
    line = line.strip().upper()
    if not line.startswith(KEY_PREFIX):
        raise ValueError("a key starts with " + KEY_PREFIX)
    encoded = line[len(KEY_PREFIX):]
    if len(encoded) != 58:
        raise ValueError("expected 58 characters after the prefix")
    raw = base32_decode(encoded)
    if len(raw) != 36:
        raise ValueError("expected 36 bytes")
    secret, checksum = raw[:32], raw[32:]
    if hashlib.sha256(b"qrseal key 1" + secret).digest()[:4] != checksum:
        raise ValueError("checksum mismatch")
    return secret


def key_file_message_key(secret):
    """Section 2.3: K = HMAC-SHA-256(F, "qrseal v1 key file")."""
    return hmac.new(secret, b"qrseal v1 key file", hashlib.sha256).digest()


# --- Section 5.1: identities (age's X25519 keys, Bech32 of BIP-173) ----------------------

BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def bech32_polymod(values):
    generator = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= generator[i]
    return chk


def bech32_decode(text):
    """(hrp, data bytes) of a Bech32 string; ValueError when it is not one."""
    if text.lower() != text and text.upper() != text:
        raise ValueError("mixed case")
    text = text.lower()
    hrp, sep, rest = text.rpartition("1")
    if not sep or not hrp or len(rest) < 6 or any(c not in BECH32 for c in rest):
        raise ValueError("not Bech32")
    values = [BECH32.index(c) for c in rest]
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    if bech32_polymod(expanded + values) != 1:
        raise ValueError("checksum mismatch")
    acc, bits, out = 0, 0, bytearray()
    for v in values[:-6]:
        acc = (acc << 5) | v
        bits += 5
        if bits >= 8:
            bits -= 8
            out.append((acc >> bits) & 0xFF)
            acc &= (1 << bits) - 1
    if bits >= 5 or acc != 0:
        raise ValueError("bad padding")
    return hrp, bytes(out)


def parse_identity(line):
    """The 32-byte X25519 secret of an AGE-SECRET-KEY-1... line."""
    hrp, data = bech32_decode(line.strip())
    if hrp != "age-secret-key-" or len(data) != 32:
        raise ValueError("not an AGE-SECRET-KEY-1 identity")
    return data


def hkdf_sha256(ikm, salt, info, length=32):
    """RFC 5869, one block is enough here."""
    prk = hmac.new(salt or bytes(32), ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()[:length]


# --- Section 4: armor ---------------------------------------------------------------------

MAGIC = b"\x00QRS"
LOG10_256 = math.log10(256)


def digit_count(n):
    """D(n): the number of decimal digits of 256^n - 1 (0 for n = 0)."""
    return len(str(256 ** n - 1)) if n > 0 else 0


def bytes_for_digits(count):
    """The n with D(n) == count, or None."""
    guess = int(count / LOG10_256)
    for n in (guess - 1, guess, guess + 1):
        if n >= 0 and digit_count(n) == count:
            return n
    return None


def envelope_from_symbol(symbol):
    """The envelope carried by a symbol's content, either armor (section 4)."""
    if symbol.startswith(MAGIC):
        return symbol[len(MAGIC):]
    try:
        text = symbol.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatFailure("not a sealed symbol")
    text = re.sub(r"[ \t\r\n\f\v]", "", text)
    match = re.match(r"QRSEAL([0-9]+):", text, re.IGNORECASE)
    if not match:
        raise FormatFailure("not a sealed symbol (no QRSEAL<version>: prefix)")
    if int(match.group(1)) != 1:
        raise Unsupported("format version %s" % match.group(1))
    digits = text[match.end():]
    if not re.fullmatch(r"[0-9]*", digits):
        raise FormatFailure("characters other than digits after the prefix")
    n = bytes_for_digits(len(digits))
    if n is None:
        raise FormatFailure("non-canonical digits: %d digits is D(n) for no n" % len(digits))
    value = int(digits) if digits else 0
    if value >= 256 ** n:
        raise FormatFailure("non-canonical digits: value is 256^%d or more" % n)
    envelope = value.to_bytes(n, "big")
    # Section 4.1: the prefix promises a whole version-1 message in one symbol with a known
    # key type; other first bytes mean the digits were cut off or mistyped.
    if len(envelope) < MIN_ENVELOPE:
        raise FormatFailure("truncated: %d bytes, an envelope has at least %d" % (len(envelope), MIN_ENVELOPE))
    if envelope[0] != 0x10 or envelope[1] not in (0x00, 0x01, 0x02):
        raise FormatFailure("the digits do not start a version 1 message (cut off or mistyped)")
    return envelope


# --- Section 2: envelope ------------------------------------------------------------------

def check_scrypt_limit(log2n, r, p, limit):
    """Section 2.3: work N*r*p <= 2^L*8 and memory 128*N*r <= 128*2^L*8."""
    n = 1 << log2n
    allowed = (1 << limit) * 8
    if n * r * p > allowed or 128 * n * r > 128 * allowed:
        raise ResourceLimit("scrypt N=2^%d r=%d p=%d is above the limit L=%d" % (log2n, r, p, limit))


MIN_ENVELOPE = 30  # a key-file header (14 bytes) and the tag (16)


def open_envelope(envelope, passphrases, key_files, max_scrypt=18, max_content=16 << 20, identities=()):
    """The (kind, name, content) of an envelope; raises a Refused subclass."""
    # Section 2.5: the length every envelope has comes first, before the version.
    if len(envelope) < MIN_ENVELOPE:
        raise FormatFailure("truncated: %d bytes, an envelope has at least %d" % (len(envelope), MIN_ENVELOPE))
    lead = envelope[0]
    if lead >> 4 != 1:
        raise Unsupported("format version %d" % (lead >> 4))
    if lead & 0x0F != 0:
        raise Unsupported("frame type %d" % (lead & 0x0F))
    key_type = envelope[1]
    if key_type == 0x01:
        if len(envelope) < 49:
            raise FormatFailure("truncated: %d bytes, a passphrase envelope has at least 49" % len(envelope))
        log2n, r, p = envelope[2], envelope[3], envelope[4]
        if not (1 <= log2n <= 63 and r >= 1 and p >= 1 and log2n < 16 * r):
            raise FormatFailure("invalid scrypt parameters")
        salt = envelope[5:21]
        header_length = 33
    elif key_type == 0x00:
        header_length = 14
    elif key_type == 0x02:
        # Section 2.1: share (32), count n (1), n slots of 32, nonce (12); then at least the tag.
        if len(envelope) < 2 + 32 + 1 + 32 + 12 + 16:
            raise FormatFailure("truncated: a recipients envelope has at least 95 bytes")
        count = envelope[34]
        if count == 0:
            raise FormatFailure("no recipient slots")
        header_length = 35 + 32 * count + 12
        if len(envelope) < header_length + 16:
            raise FormatFailure("truncated: %d slots need %d bytes" % (count, header_length + 16))
        share = envelope[2:34]
        slots = [envelope[35 + 32 * i:67 + 32 * i] for i in range(count)]
        return open_recipients(envelope[:header_length], share, slots, envelope[header_length:],
                               identities, max_content)
    else:
        raise Unsupported("key type 0x%02x" % key_type)
    header = envelope[:header_length]
    nonce = envelope[header_length - 12:header_length]
    sealed = envelope[header_length:]

    if key_type == 0x01:
        check_scrypt_limit(log2n, r, p, max_scrypt)
        keys = [Scrypt(salt=salt, length=32, n=1 << log2n, r=r, p=p)
                .derive(unicodedata.normalize("NFC", passphrase).encode("utf-8"))
                for passphrase in passphrases]
    else:
        keys = [key_file_message_key(secret) for secret in key_files]
    if not keys:
        raise BadVector("no key of the message's kind")

    for key in keys:
        try:
            inner = AESGCM(key).decrypt(nonce, sealed, header)
        except InvalidTag:
            continue
        return parse_inner(inner, max_content)
    raise AuthenticationFailure("no key verifies the tag")


def open_recipients(header, share, slots, sealed, identities, max_content):
    """Section 2.3, key type 0x02: unwrap the 16-byte message key from a slot, then the body."""
    if not identities:
        raise BadVector("no identity: for a recipients message")
    for secret in identities:
        private = X25519PrivateKey.from_private_bytes(secret)
        public = private.public_key().public_bytes_raw()
        try:
            shared = private.exchange(X25519PublicKey.from_public_bytes(share))
        except ValueError:  # the library refuses an all-zero secret itself
            shared = bytes(32)
        if shared == bytes(32):
            raise FormatFailure("the ephemeral key gives the all-zero X25519 secret")
        wrap = hkdf_sha256(shared, share + public, b"qrseal v1 recipient")
        for slot in slots:
            try:
                message_key = AESGCM(wrap).decrypt(bytes(12), slot, None)
            except InvalidTag:
                continue
            body_key = hkdf_sha256(message_key, b"", b"qrseal v1 body")
            try:
                inner = AESGCM(body_key).decrypt(header[-12:], sealed, header)
            except InvalidTag:
                raise AuthenticationFailure("a slot unwraps but the body's tag does not verify")
            return parse_inner(inner, max_content)
    raise NoMatch("no identity unwraps any slot")


# --- Section 3: inner plaintext -----------------------------------------------------------

def decompress(body, cap):
    """A complete Brotli stream, decoded one input byte at a time with bounded output."""
    decoder = brotli.Decompressor()
    out = bytearray()
    try:
        for i in range(len(body)):
            if decoder.is_finished():
                raise FormatFailure("bytes after the end of the compressed body")
            out += decoder.process(body[i:i + 1], output_buffer_limit=1 << 20)
            while not decoder.is_finished() and not decoder.can_accept_more_data():
                if len(out) > cap:
                    raise ResourceLimit("content decompresses past %d bytes" % cap)
                out += decoder.process(b"", output_buffer_limit=1 << 20)
            if len(out) > cap:
                raise ResourceLimit("content decompresses past %d bytes" % cap)
    except brotli.error as error:
        raise FormatFailure("compressed body is not valid Brotli: %s" % error)
    if not decoder.is_finished():
        raise FormatFailure("compressed body ends early")
    return bytes(out)


def check_name(raw):
    try:
        name = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatFailure("file name is not UTF-8")
    if name in (".", ".."):
        raise FormatFailure("file name . or ..")
    for ch in name:
        if ch in "/\\" or any(low <= ord(ch) <= high for low, high in UNSAFE_IN_NAMES):
            raise FormatFailure("file name with %r" % ch)
    return name


# FORMAT.md 3: characters a name may not hold, as inclusive code point ranges.
UNSAFE_IN_NAMES = [
    (0x00, 0x1F), (0x7F, 0x9F),      # C0 controls, DEL, C1 controls
    (0x061C, 0x061C),                # Arabic letter mark
    (0x200B, 0x200F),                # zero-width space and joiners, LRM, RLM
    (0x2028, 0x202E),                # line and paragraph separators, bidi embeddings and overrides
    (0x2060, 0x2064),                # word joiner, invisible operators
    (0x2066, 0x2069),                # bidi isolates
    (0xFEFF, 0xFEFF),                # zero-width no-break space
    (0xFFF9, 0xFFFB),                # interlinear annotation
    (0x10FF80, 0x10FFFF),            # private use: what readers use to carry raw bytes
]


def parse_inner(inner, cap):
    if not inner:
        raise FormatFailure("empty inner plaintext")
    flags = inner[0]
    if flags & 0xFC:
        raise FormatFailure("reserved flag bits set: 0x%02x" % flags)
    offset, name = 1, None
    if flags & 0x01:
        if len(inner) < 2:
            raise FormatFailure("file name length missing")
        m = inner[1]
        if len(inner) < 2 + m:
            raise FormatFailure("file name longer than the bytes that remain")
        name = check_name(inner[2:2 + m])
        offset = 2 + m
    body = inner[offset:]
    if flags & 0x02:
        body = decompress(body, cap)
    elif len(body) > cap:
        raise ResourceLimit("content larger than %d bytes" % cap)
    if name is None:
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            raise FormatFailure("text content is not UTF-8")
        return ("text", None, body)
    return ("file", name, body)


# --- Vector files (vectors/seal/README.md) ------------------------------------------------

KNOWN_KEYS = {"expect", "comment", "passphrase", "key", "armor", "payload", "content", "name",
              "plaintext", "compress", "salt", "nonce", "scrypt", "max-scrypt",
              "identity", "recipient", "ephemeral", "message-key"}
REPEATABLE = {"comment", "passphrase", "key", "identity", "recipient"}
CLASSES = {"success", "authentication failure", "format failure", "unsupported", "resource limit", "no match"}


def unhex(text):
    if not re.fullmatch(r"(?:[0-9a-f]{2})*", text):
        raise BadVector("not lower-case hex")
    return bytes.fromhex(text)


def parse_vector(data):
    text = data.decode("utf-8")
    if not text.endswith("\n") or "\r" in text:
        raise BadVector("the file must end with \\n and have no \\r")
    lines = text[:-1].split("\n")
    if "" not in lines:
        raise BadVector("no blank line after the header")
    blank = lines.index("")
    headers = []
    for line in lines[:blank]:
        key, colon, value = line.partition(":")
        if not colon:
            raise BadVector("header line without a colon")
        if value:
            if not value.startswith(" "):
                raise BadVector("no space after %s:" % key)
            value = value[1:]
        if key not in KNOWN_KEYS:
            raise BadVector("unknown header key %r" % key)
        if key not in REPEATABLE and any(k == key for k, _ in headers):
            raise BadVector("header key %s twice" % key)
        headers.append((key, value))
    payload = lines[blank + 1:]
    if len(payload) != 1 or not payload[0]:
        raise BadVector("the payload must be exactly one non-empty line")
    return headers, payload[0]


def check_vector(data):
    """Checks one vector file; returns a short note, raises BadVector or AssertionError."""
    headers, payload = parse_vector(data)
    values = {}
    for key, value in headers:
        values.setdefault(key, value)
    expect = values.get("expect")
    if expect not in CLASSES:
        raise BadVector("unknown expect class %r" % expect)
    armor = values.get("armor")
    if armor not in ("digits", "binary"):
        raise BadVector("armor must be digits or binary")
    kind = values.get("payload", "text")
    if kind == "hex":
        symbol = unhex(payload)
    elif kind == "text" and armor == "digits":
        symbol = payload.encode("utf-8")
    else:
        raise BadVector("bad payload kind %r for %s armor" % (kind, armor))
    passphrases = [v for k, v in headers if k == "passphrase"]
    key_files = []
    for k, v in headers:
        if k == "key":
            try:
                key_files.append(parse_key_file(v))
            except ValueError as error:
                raise BadVector("key: %s" % error)
    identities = []
    for k, v in headers:
        if k == "identity":
            try:
                identities.append(parse_identity(v))
            except ValueError as error:
                raise BadVector("identity: %s" % error)
    if not passphrases and not key_files and not identities and expect in ("success", "authentication failure"):
        raise BadVector("no passphrase:, key: or identity:")
    max_scrypt = int(values.get("max-scrypt", "18"))

    try:
        opened = open_envelope(envelope_from_symbol(symbol), passphrases, key_files, max_scrypt,
                               identities=identities)
    except Refused as refusal:
        if expect == "success":
            raise AssertionError("expected success, refused as %s: %s" % (refusal.kind, refusal))
        if refusal.kind != expect:
            raise AssertionError("expected %s, refused as %s: %s" % (expect, refusal.kind, refusal))
        return "%s (%s)" % (refusal.kind, refusal)

    if expect != "success":
        raise AssertionError("expected %s, but it opened" % expect)
    content_kind, name, content = opened
    if content_kind != values.get("content"):
        raise AssertionError("opened %s, expected %s" % (content_kind, values.get("content")))
    if content_kind == "file" and name.encode("utf-8") != values.get("name", "").encode("utf-8"):
        raise AssertionError("file name %r, expected %r" % (name, values.get("name")))
    if content != unhex(values.get("plaintext", "")):
        raise AssertionError("plaintext differs: %s" % content.hex())
    return "opened %s, %d bytes" % (content_kind, len(content))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    if len(sys.argv) > 1:
        folders = [sys.argv[1]]
    else:
        folders = [os.path.join(here, "..", "seal"), os.path.join(here, "..", "parts")]
    import parts  # section 8; it imports this module for the single-symbol layers
    names = []
    for folder in folders:
        check = parts.check_vector if os.path.basename(os.path.normpath(folder)) == "parts" else check_vector
        names += [(os.path.join(folder, n), check) for n in sorted(os.listdir(folder)) if n.endswith(".txt")]
    passed = failed = 0
    for path, check in names:
        name = os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))
        with open(path, "rb") as f:
            data = f.read()
        try:
            note = check(data)
        except (BadVector, AssertionError) as error:
            failed += 1
            print("FAIL %s: %s" % (name, error))
        except Exception as error:  # a reader bug or a vector it cannot handle: report, go on
            failed += 1
            print("FAIL %s: unexpected %s: %s" % (name, type(error).__name__, error))
        else:
            passed += 1
            print("ok   %s: %s" % (name, note))
    if not names:
        failed += 1
        print("FAIL no vectors in %s" % ", ".join(folders))
    print("reference: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
