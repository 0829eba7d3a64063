"""The reference reader's half for messages in parts (docs/FORMAT.md, section 8), written
from the format alone: part headers, the Cauchy code over GF(2^8) in pure Python, stripes,
and the checks of the whole. It walks vectors/parts/ (format: vectors/parts/README.md)."""

import hashlib
import re

import reader as single

PART_PREFIX = "QRSEAL1P:"
HEADER = 16

# --- GF(2^8) with x^8 + x^4 + x^3 + x^2 + 1 (0x11d), by log tables ------------------------

EXP = [0] * 512
LOG = [0] * 256
_x = 1
for _i in range(255):
    EXP[_i] = _x
    LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    EXP[_i] = EXP[_i - 255]


def mul(a, b):
    return 0 if a == 0 or b == 0 else EXP[LOG[a] + LOG[b]]


def inv(a):
    return EXP[255 - LOG[a]]


def generator_row(row, k):
    """Row `row` of the systematic Cauchy generator (section 8.4)."""
    if row < k:
        return [1 if j == row else 0 for j in range(k)]
    return [inv(row ^ j) for j in range(k)]


def invert(matrix):
    """Gauss-Jordan inverse of a k x k matrix over GF(2^8)."""
    k = len(matrix)
    a = [list(r) + [1 if i == j else 0 for j in range(k)] for i, r in enumerate(matrix)]
    for col in range(k):
        pivot = next(r for r in range(col, k) if a[r][col])
        a[col], a[pivot] = a[pivot], a[col]
        p = inv(a[col][col])
        a[col] = [mul(v, p) for v in a[col]]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [v ^ mul(f, w) for v, w in zip(a[r], a[col])]
    return [r[k:] for r in a]


def recover(k, chunks):
    """The k data chunks of one stripe from {row: chunk} with at least k rows."""
    rows = sorted(chunks)[:k]
    if all(r < k for r in rows):
        return [chunks[r] for r in range(k)]
    inverse = invert([generator_row(r, k) for r in rows])
    length = len(chunks[rows[0]])
    data = []
    for j in range(k):
        if j in chunks:
            data.append(chunks[j])
            continue
        out = bytearray(length)
        for coefficient, r in zip(inverse[j], rows):
            if coefficient:
                src = chunks[r]
                for i in range(length):
                    out[i] ^= mul(coefficient, src[i])
        data.append(bytes(out))
    return data


# --- Section 8.2 and 8.3: armor and header -----------------------------------------------

class Part:
    def __init__(self, frame):
        if len(frame) <= HEADER:
            raise single.FormatFailure("truncated part: %d bytes" % len(frame))
        if frame[0] >> 4 != 1:
            raise single.Unsupported("format version %d" % (frame[0] >> 4))
        if frame[0] != 0x11:
            raise single.Unsupported("frame type %d" % (frame[0] & 0x0F))
        self.k = int.from_bytes(frame[1:3], "big")
        self.n = int.from_bytes(frame[3:5], "big")
        self.index = int.from_bytes(frame[5:7], "big")
        self.length = int.from_bytes(frame[7:10], "big")
        self.message_id = frame[10:14]
        self.chunk = frame[16:]
        if self.k < 1:
            raise single.FormatFailure("K = 0")
        if not self.k <= self.n <= 255 * self.k:
            raise single.FormatFailure("N = %d for K = %d" % (self.n, self.k))
        if self.index >= self.n:
            raise single.FormatFailure("index %d of %d parts" % (self.index, self.n))
        if self.length < 1:
            raise single.FormatFailure("empty message")
        size = -(-self.length // self.k)
        if (self.k - 1) * size >= self.length or len(self.chunk) != size:
            raise single.FormatFailure("chunk of %d bytes for %d bytes in %d parts" % (len(self.chunk), self.length, self.k))
        if hashlib.sha256(frame[:14] + self.chunk).digest()[:2] != frame[14:16]:
            raise single.FormatFailure("the part's check does not match")

    @property
    def key(self):
        return (self.message_id, self.k, self.n, self.length)


def part_from_symbol(symbol):
    if symbol.startswith(single.MAGIC):
        return Part(symbol[len(single.MAGIC):])
    text = symbol.decode("ascii")
    if text[:len(PART_PREFIX)].upper() != PART_PREFIX:
        raise single.FormatFailure("not a part")
    digits = text[len(PART_PREFIX):]
    n = single.bytes_for_digits(len(digits)) if re.fullmatch(r"[0-9]+", digits) else None
    if n is None or int(digits) >= 256 ** n:
        raise single.FormatFailure("non-canonical digits")
    return Part(int(digits).to_bytes(n, "big"))


# --- Section 8.4: rebuilding --------------------------------------------------------------

class Incomplete(Exception):
    def __init__(self, needed):
        super().__init__("%d more parts needed" % needed)
        self.needed = needed


class Damaged(Exception):
    pass


def rebuild(parts):
    first = parts[0]
    if any(p.key != first.key for p in parts):
        raise single.FormatFailure("parts of different messages")
    k, n = first.k, first.n
    stripes = -(-n // 255)
    by_stripe = [dict() for _ in range(stripes)]
    for p in parts:
        by_stripe[p.index % stripes].setdefault(p.index // stripes, p.chunk)
    wanted = [len(range(s, k, stripes)) for s in range(stripes)]
    needed = sum(max(0, w - len(c)) for w, c in zip(wanted, by_stripe))
    if needed:
        raise Incomplete(needed)
    size = len(first.chunk)
    message = bytearray(k * size)
    for s in range(stripes):
        for row, chunk in enumerate(recover(wanted[s], by_stripe[s])):
            j = row * stripes + s
            message[j * size:(j + 1) * size] = chunk
    message = bytes(message[:first.length])
    if hashlib.sha256(message).digest()[:4] != first.message_id:
        raise Damaged("the rebuilt message does not match its id")
    return message


# --- Vector files (vectors/parts/README.md) -----------------------------------------------

KNOWN = {"expect", "comment", "passphrase", "key", "content", "name", "plaintext", "needed"}
CLASSES = {"success", "incomplete", "damaged", "part refused", "unsupported"}


def check_vector(data):
    text = data.decode("utf-8")
    if not text.endswith("\n") or "\r" in text:
        raise single.BadVector("the file must end with \\n and have no \\r")
    lines = text[:-1].split("\n")
    blank = lines.index("")
    values = {}
    for line in lines[:blank]:
        key, _, value = line.partition(": ")
        if key not in KNOWN or (key in values and key != "comment"):
            raise single.BadVector("bad header key %r" % key)
        values[key] = value
    expect = values.get("expect")
    if expect not in CLASSES:
        raise single.BadVector("unknown expect class %r" % expect)
    parts = []
    for line in lines[blank + 1:]:
        symbol = bytes.fromhex(line[4:]) if line.startswith("hex:") else line.encode("ascii")
        try:
            parts.append(part_from_symbol(symbol))
        except single.Unsupported as refusal:
            if expect != "unsupported":
                raise AssertionError("part unsupported: %s" % refusal)
        except single.FormatFailure as refusal:
            if expect != "part refused":
                raise AssertionError("part refused: %s" % refusal)
    if expect in ("unsupported", "part refused"):
        if parts:
            raise AssertionError("expected %s, a part was taken" % expect)
        return expect
    try:
        whole = rebuild(parts)
    except Incomplete as short:
        if expect != "incomplete" or str(short.needed) != values.get("needed"):
            raise AssertionError("incomplete, %d more needed" % short.needed)
        return "incomplete, %d more needed" % short.needed
    except Damaged as damage:
        if expect != "damaged":
            raise AssertionError(str(damage))
        return "damaged"
    if expect != "success":
        raise AssertionError("expected %s, but it was rebuilt" % expect)
    # Section 8.5: an envelope (lead byte 10) or a plain inner plaintext.
    if whole[0] == 0x10:
        keys = [single.parse_key_file(values["key"])] if "key" in values else []
        passphrases = [values["passphrase"]] if "passphrase" in values else []
        kind, name, content = single.open_envelope(whole, passphrases, keys)
    else:
        kind, name, content = single.parse_inner(whole, 16 << 20)
    if kind != values.get("content") or (kind == "file" and name != values.get("name")):
        raise AssertionError("rebuilt %s %r" % (kind, name))
    if content.hex() != values.get("plaintext"):
        raise AssertionError("content differs")
    return "rebuilt from %d parts, %s, %d bytes" % (len(parts), kind, len(content))
