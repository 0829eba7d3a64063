"""Payloads the bench puts in codes of its own (Python standard library only)."""

import math
import subprocess
import sys

sys.set_int_max_str_digits(10000)  # the digits armor of a whole version-40 envelope


def sealed_like(noise, n):
    """The digits armor of an n-byte envelope sealed with a key file (docs/FORMAT.md 2.1, 4.1):
    lead byte 0x10, key type 0x00, then nonce, ciphertext and tag, here bytes of noise, which
    no reader can tell from a real sealed message without the key."""
    envelope = bytes([0x10, 0x00]) + noise[:n - 2]
    width = math.floor(n * math.log10(256)) + 1   # D(n): the digits of 256^n - 1
    return "QRSEAL1:" + str(int.from_bytes(envelope, "big")).zfill(width)


def qrencode_fits(payload, version, level, eight_bit=False):
    """Whether qrencode puts payload in a symbol of exactly `version` (-8: in byte mode)."""
    p = subprocess.run(["qrencode", "-t", "PNG32", "-v", str(version), "-l", level, "-s", "1", "-m", "0",
                        "-o", "-"] + (["-8"] if eight_bit else []), input=payload.encode("ascii"),
                       capture_output=True)
    if p.returncode != 0 or len(p.stdout) < 24:
        return False
    return int.from_bytes(p.stdout[16:20], "big") == 17 + 4 * version  # the PNG's IHDR width


def longest(make, version, level, limit, eight_bit=False):
    """The largest n <= limit for which make(n) fits in exactly `version`."""
    lo, hi, best = 1, limit, None
    while lo <= hi:
        mid = (lo + hi) // 2
        if qrencode_fits(make(mid), version, level, eight_bit):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return best
