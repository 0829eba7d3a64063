#!/usr/bin/env python3
"""qrseal benchmark for sealed messages: what sealing costs, and how much fits.

Table 1  time to seal+encode one full version-40-L symbol and to scan+open it again,
         with a key file (no KDF) and with a passphrase (scrypt N=2^17, r=8, p=1);
         the passphrase-minus-key-file difference is the KDF's share.
Table 2  the largest random plaintext that fits in one version-40-L symbol:
         qrseal (digits and binary armor), `openssl enc -aes-256-cbc -pbkdf2 -a | qrencode`
         and `age -a -r RECIPIENT | qrencode`.
Table 3  time to seal and open through those peers at their largest size, with qrseal
         at the same size beside them.

Python 3 standard library only. See bench/README.md, section "Sealed messages".
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TIMEOUT = 60.0          # seconds allowed per call (per pipeline for the peers)
NAME = "f"              # 1-character file name: the payload costs 2 bytes more than text
SCALE, MARGIN = 8, 4    # qrseal's defaults, passed explicitly so the PNG width tells the version
V40_MODULES = 177
V40_L_BYTES = 2953      # byte-mode capacity of version 40-L: nothing larger can fit
PASSPHRASE = "correct horse battery staple, bench only\n"


# --------------------------------------------------------------------------- processes

def child_env():
    env = dict(os.environ)
    env.pop("QRSEAL_PASSPHRASE", None)  # while set, encode would seal with it
    return env


ENV = child_env()


class Call:
    def __init__(self, cmd, rcs, out, err, ms, timed_out=False, failed=None):
        self.cmd = cmd          # list of argv lists (one per process of a pipeline)
        self.rcs = rcs          # exit status of each process
        self.out = out
        self.err = err
        self.ms = ms
        self.timed_out = timed_out
        self.failed = failed    # OSError text when a process could not start

    @property
    def ok(self):
        return not self.failed and not self.timed_out and all(rc == 0 for rc in self.rcs)

    def problem(self):
        if self.failed:
            return "cannot run: " + self.failed
        if self.timed_out:
            return "timed out after %.0f s" % TIMEOUT
        bad = [rc for rc in self.rcs if rc != 0]
        if bad:
            err = self.err.decode("utf-8", "replace").strip().splitlines()
            err = [l for l in err if not l.startswith("Connection ")]  # zbar's D-Bus noise
            return "exit %s%s" % ("/".join(str(rc) for rc in self.rcs),
                                  (": " + err[-1][:160]) if err else "")
        return None

    def describe(self):
        return " | ".join(" ".join(c) for c in self.cmd)


def run(cmd, stdin_data=None):
    """One process; stdin_data bytes or None."""
    cmd = [str(c) for c in cmd]
    t0 = time.perf_counter()
    try:
        p = subprocess.Popen(cmd, env=ENV,
                             stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        return Call([cmd], [None], b"", b"", 0.0, failed=str(e))
    timed_out = False
    try:
        out, err = p.communicate(input=stdin_data, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        timed_out = True
    ms = (time.perf_counter() - t0) * 1000.0
    return Call([cmd], [p.returncode], out, err, ms, timed_out)


def run_pipe(cmd1, cmd2):
    """cmd1 | cmd2, a real pipe as a shell would make it; timed as a whole."""
    cmd1 = [str(c) for c in cmd1]
    cmd2 = [str(c) for c in cmd2]
    err1 = tempfile.TemporaryFile()
    t0 = time.perf_counter()
    try:
        p1 = subprocess.Popen(cmd1, env=ENV, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=err1)
    except OSError as e:
        err1.close()
        return Call([cmd1, cmd2], [None, None], b"", b"", 0.0, failed=str(e))
    try:
        p2 = subprocess.Popen(cmd2, env=ENV, stdin=p1.stdout,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        p1.kill()
        p1.wait()
        err1.close()
        return Call([cmd1, cmd2], [None, None], b"", b"", 0.0, failed=str(e))
    p1.stdout.close()  # so p1 gets SIGPIPE if p2 exits early
    timed_out = False
    try:
        out, err = p2.communicate(timeout=TIMEOUT)
        p1.wait(timeout=max(0.1, TIMEOUT - (time.perf_counter() - t0)))
    except subprocess.TimeoutExpired:
        timed_out = True
        for p in (p1, p2):
            p.kill()
        out, err = p2.communicate()
        p1.wait()
    ms = (time.perf_counter() - t0) * 1000.0
    err1.seek(0)
    err = err1.read() + err
    err1.close()
    return Call([cmd1, cmd2], [p1.returncode, p2.returncode], out, err, ms, timed_out)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- helpers

def resolve_qrseal(arg):
    """(path, note). The default is the release build unless it is missing or older
    than the sources; then the debug build is used and the note says so."""
    if arg:
        p = Path(arg)
        return (p if p.is_file() else None), (None if p.is_file() else "%s not found" % arg)
    release = REPO / ".build/release/qrseal"
    debug = REPO / ".build/debug/qrseal"
    sources = [REPO / "Package.swift"] + [p for p in (REPO / "Sources").rglob("*") if p.is_file()]
    newest = max((p.stat().st_mtime for p in sources if p.exists()), default=0.0)

    def fresh(p):
        return p.is_file() and p.stat().st_mtime >= newest

    if fresh(release):
        return release, None
    why = "is older than the sources" if release.is_file() else "is missing"
    if debug.is_file():
        note = ("the release binary %s: using the DEBUG build .build/debug/qrseal "
                "(its timings are not those of a release build)" % why)
        if not fresh(debug):
            note += "; the debug build is older than the sources too"
        return debug, note
    if release.is_file():
        return release, "the release binary %s and there is no debug build: using it anyway" % why
    return None, "qrseal is not built (no .build/release/qrseal or .build/debug/qrseal)"


def load_average():
    try:
        return "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "unknown"


def median_ms(calls):
    good = [c.ms for c in calls if c.ok]
    if not good:
        return None, True
    return statistics.median(good), len(good) != len(calls)


def fmt_ms(v, flagged=False):
    if v is None:
        return "failed"
    return ("%.1f" % v) + (" !" if flagged else "")


def fmt_n(n):
    return "{:,}".format(n)


def print_table(title, headers, rows):
    print()
    print(title)
    print()
    rows = [[str(c) for c in r] for r in rows]
    widths = [max(len(headers[i]), *(len(r[i]) for r in rows)) if rows else len(headers[i])
              for i in range(len(headers))]

    def line(cells):
        out = []
        for i, c in enumerate(cells):
            out.append(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]))
        return "| " + " | ".join(out) + " |"

    print(line(headers))
    print("|" + "|".join("-" * (w + 1) + ("-" if i == 0 else ":")
                         for i, w in enumerate(widths)) + "|")
    for r in rows:
        print(line(r))


def png_modules(path):
    """Modules across the symbol, from the PNG width (IHDR), given SCALE and MARGIN."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    width = int.from_bytes(head[16:20], "big")
    return width // SCALE - 2 * MARGIN


def same_bytes(a, b):
    try:
        return Path(a).read_bytes() == Path(b).read_bytes()
    except OSError:
        return False


class Payloads:
    """Random file contents named NAME, one folder per size (fixed seed)."""

    def __init__(self, root):
        self.root = root
        self.rng = random.Random(20261130)
        self.made = {}

    def get(self, n):
        if n not in self.made:
            d = self.root / ("payload-%d" % n)
            d.mkdir()
            (d / NAME).write_bytes(self.rng.randbytes(n))
            self.made[n] = d / NAME
        return self.made[n]


# --------------------------------------------------------------------------- qrseal

class QRSeal:
    def __init__(self, exe, work):
        self.exe = str(exe)
        self.work = work
        self.key = work / "bench.key"
        self.passfile = work / "passphrase.txt"
        self.counter = 0

    def setup(self):
        c = run([self.exe, "keygen", "-o", self.key])
        if not c.ok:
            raise SystemExit("qrseal keygen failed: %s" % c.problem())
        self.passfile.write_text(PASSPHRASE)

    def key_args(self, mode):
        return ["--key-file", self.key] if mode == "key" else ["--passphrase-file", self.passfile]

    def capacity(self, armor):
        """(passphrase, key file) bytes of sealed text in version 40-L, from the last row."""
        cmd = [self.exe, "capacity", "--seal", "--ec", "L"]
        if armor == "binary":
            cmd += ["--armor", "binary"]
        c = run(cmd)
        if not c.ok:
            raise SystemExit("qrseal capacity failed: %s" % c.problem())
        rows = [l.split() for l in c.out.decode().splitlines() if l.strip()]
        last = rows[-1]
        if len(last) < 4 or last[0] != "40":
            raise SystemExit("qrseal capacity: unexpected last row %r" % " ".join(last))
        return int(last[2]), int(last[3])

    def encode(self, mode, src, png, armor="digits"):
        # --force: the tables encode to the same file run after run.
        cmd = [self.exe, "encode", "--force", *self.key_args(mode), "-i", src, "-o", png, "--ec", "L",
               "--scale", SCALE, "--margin", MARGIN]
        if armor == "binary":
            cmd += ["--armor", "binary"]
        return run(cmd)

    def scan_open(self, mode, png, src, failures, label):
        """scan -o DIR; returns the call, and records a failure unless DIR/NAME == src."""
        self.counter += 1
        outdir = self.work / ("scan-%d" % self.counter)
        outdir.mkdir()
        c = run([self.exe, "scan", *self.key_args(mode), "-o", outdir, png])
        if not c.ok:
            failures.append("%s: %s" % (label, c.problem()))
        elif not same_bytes(outdir / NAME, src):
            c.rcs.append(-999)  # mark as failed for the medians
            failures.append("%s: the written file differs from the input" % label)
        shutil.rmtree(outdir, ignore_errors=True)
        return c

    def digits_text(self, png):
        """What a phone scanner app would show: the symbol's text, read without a key."""
        c = run([self.exe, "scan", "--json", png])
        for line in c.out.decode("utf-8", "replace").splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("text", "").upper().startswith("QRSEAL1:"):
                return rec["text"]
        return None

    def open_digits(self, mode, text, src, failures, label):
        out = self.work / "opened.bin"
        if out.exists():
            out.unlink()
        c = run([self.exe, "open", *self.key_args(mode), "-o", out, "-"],
                stdin_data=text.encode())
        if not c.ok:
            failures.append("%s: %s" % (label, c.problem()))
        elif not same_bytes(out, src):
            c.rcs.append(-999)
            failures.append("%s: the written file differs from the input" % label)
        if out.exists():
            out.unlink()
        return c


# --------------------------------------------------------------------------- peers

class Peers:
    def __init__(self, work):
        self.work = work
        self.openssl = shutil.which("openssl")
        self.qrencode = shutil.which("qrencode")
        self.age = shutil.which("age")
        self.age_keygen = shutil.which("age-keygen")
        self.zbarimg = shutil.which("zbarimg")
        self.passfile = work / "passphrase.txt"
        self.age_key = work / "age.key"
        self.recipient = None

    def missing(self, peer):
        """None when the peer can write a symbol, else what is missing."""
        need = {"openssl": [("openssl", self.openssl)],
                "age": [("age", self.age), ("age-keygen", self.age_keygen)]}[peer]
        need = need + [("qrencode", self.qrencode)]
        gone = [n for n, p in need if not p]
        return ("not installed (%s)" % ", ".join(gone)) if gone else None

    def setup(self):
        if self.age and self.age_keygen:
            c = run([self.age_keygen, "-o", self.age_key])
            if c.ok:
                c = run([self.age_keygen, "-y", self.age_key])
            if c.ok:
                self.recipient = c.out.decode().strip()
            else:
                log("age-keygen failed: %s" % c.problem())
                self.age = None

    def encrypt_cmd(self, peer, src):
        if peer == "openssl":
            return [self.openssl, "enc", "-aes-256-cbc", "-pbkdf2", "-a",
                    "-pass", "file:%s" % self.passfile, "-in", src]
        return [self.age, "-a", "-r", self.recipient, src]

    def decrypt_cmd(self, peer, out):
        if peer == "openssl":
            return [self.openssl, "enc", "-d", "-aes-256-cbc", "-pbkdf2", "-a",
                    "-pass", "file:%s" % self.passfile, "-out", out]
        return [self.age, "-d", "-i", self.age_key, "-o", out]

    def seal_encode(self, peer, src, png):
        return run_pipe(self.encrypt_cmd(peer, src), [self.qrencode, "-l", "L", "-o", png])

    def scan_open(self, peer, png, src, failures, label):
        out = self.work / "peer-opened.bin"
        if out.exists():
            out.unlink()
        c = run_pipe([self.zbarimg, "--raw", "-q", png], self.decrypt_cmd(peer, out))
        if not c.ok:
            failures.append("%s: %s" % (label, c.problem()))
        elif not same_bytes(out, src):
            c.rcs.append(-999)
            failures.append("%s: the decrypted file differs from the input" % label)
        if out.exists():
            out.unlink()
        return c


# --------------------------------------------------------------------------- tables

def table1(qr, payloads, sizes, runs, failures):
    """Full 40-L symbol: key file vs passphrase."""
    png = qr.work / "t1.png"
    times = {}   # (mode, op) -> list of calls
    version_bad = []
    for mode in ("key", "pass"):
        n = sizes[mode]
        src = payloads.get(n)
        label = "table 1, %s" % ("key file" if mode == "key" else "passphrase")
        log("table 1: %s, %d bytes, 1 warm-up + %d runs" % (label[9:], n, runs))
        for i in range(runs + 1):
            keep = i > 0
            tag = "%s, run %d" % (label, i) if keep else "%s, warm-up" % label
            if png.exists():
                png.unlink()
            enc = qr.encode(mode, src, png)
            if not enc.ok:
                failures.append("%s: encode: %s" % (tag, enc.problem()))
                if keep:
                    for op in ("encode", "scan", "open"):
                        times.setdefault((mode, op), []).append(enc)
                continue
            mods = png_modules(png)
            if mods != V40_MODULES:
                version_bad.append("%s: symbol has %s modules, not %d (version 40)" % (tag, mods, V40_MODULES))
            scan = qr.scan_open(mode, png, src, failures, tag + ": scan+open")
            text = qr.digits_text(png)
            if text is None:
                failures.append("%s: no QRSEAL1: text read back for open" % tag)
                opened = Call([["qrseal", "open"]], [-999], b"", b"", 0.0)
            else:
                opened = qr.open_digits(mode, text, src, failures, tag + ": open pasted digits")
            if keep:
                times.setdefault((mode, "encode"), []).append(enc)
                times.setdefault((mode, "scan"), []).append(scan)
                times.setdefault((mode, "open"), []).append(opened)
    failures.extend(version_bad)

    ops = [("encode", "seal + encode (`encode -i f -o out.png --ec L`)"),
           ("scan", "scan + open (`scan -o DIR out.png`)"),
           ("open", "open pasted digits (`open -o PATH -`)")]
    rows = []
    for op, name in ops:
        k, kf = median_ms(times.get(("key", op), []))
        p, pf = median_ms(times.get(("pass", op), []))
        diff = fmt_ms(p - k) if (k is not None and p is not None) else "-"
        rows.append([name, fmt_ms(k, kf), fmt_ms(p, pf), diff, fmt_ms(k, kf)])
    print_table(
        "Table 1. One full version-40-L symbol, digits armor: median ms over %d runs "
        "(random file, 1-char name: %s bytes with a key file, %s with a passphrase)"
        % (runs, fmt_n(sizes["key"]), fmt_n(sizes["pass"])),
        ["operation", "key file ms", "passphrase ms", "KDF ms (difference)", "rest ms"], rows)
    print()
    print("KDF = passphrase - key file (scrypt N=2^17, r=8, p=1, once to seal and once to open);"
          " rest = the key-file time (process start, Brotli attempt, AES-GCM, QR + PNG,"
          " image decoding). One untimed warm-up run first. Every run's output was"
          " compared with the input.")


def qrseal_limit(qr, payloads, mode, armor, claimed, failures):
    """Check that `claimed` bytes seal into one 40-L symbol and claimed+1 do not."""
    png = qr.work / "cap.png"
    ok_at = qr.encode(mode, payloads.get(claimed), png, armor)
    fits = ok_at.ok and png_modules(png) == V40_MODULES
    if png.exists():
        png.unlink()
    over = qr.encode(mode, payloads.get(claimed + 1), png, armor)
    refused = (not over.ok) and not over.timed_out and not over.failed and over.rcs == [2]
    label = "qrseal %s armor, %s" % (armor, "passphrase" if mode == "pass" else "key file")
    if not ok_at.ok:
        failures.append("table 2, %s: %d bytes did not seal: %s" % (label, claimed, ok_at.problem()))
    if not refused:
        failures.append("table 2, %s: %d bytes were not refused (%s)"
                        % (label, claimed + 1, over.problem() or "exit 0"))
    return fits and refused


def peer_fits(peers, peer, payloads, n, attempts):
    """True when n bytes fitted in every one of `attempts` tries (stops at the first miss)."""
    png = peers.work / ("%s-cap.png" % peer)
    src = payloads.get(n)
    for _ in range(attempts):
        c = peers.seal_encode(peer, src, png)
        if c.timed_out or c.failed or c.rcs[0] != 0:
            raise RuntimeError("%s: %s" % (peer, c.problem()))
        if c.rcs[1] != 0:
            return False
    return True


def peer_fit_count(peers, peer, payloads, n, tries):
    """How many of `tries` fresh encryptions of n bytes qrencode fits in one 40-L symbol."""
    png = peers.work / ("%s-cap.png" % peer)
    src = payloads.get(n)
    fits = 0
    for _ in range(tries):
        c = peers.seal_encode(peer, src, png)
        if c.timed_out or c.failed or c.rcs[0] != 0:
            raise RuntimeError("%s: %s" % (peer, c.problem()))
        fits += 1 if c.rcs[1] == 0 else 0
    return fits


def peer_limit(peers, peer, payloads, attempts):
    """(always, sometimes, fitted, tried). The armored ciphertext is random and qrencode
    picks its segment modes from the text, so near the limit a size may fit in some tries
    and not in others. `always` is the largest size that fitted in every one of `attempts`
    tries (binary search); the sizes above it are then probed, `attempts` tries each, until
    16 sizes in a row never fit: `sometimes` is the largest that fitted at least once, and
    fitted/tried the count over the probed sizes up to it."""
    lo, hi = 0, V40_L_BYTES + 1  # hi cannot fit: the ciphertext is longer than the plaintext
    if peer_fits(peers, peer, payloads, lo, attempts) is False:
        return None, None, 0, 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if peer_fits(peers, peer, payloads, mid, attempts):
            lo = mid
        else:
            hi = mid
    sometimes, fitted, tried, misses, m = lo, 0, 0, 0, lo + 1
    counts = []
    while misses < 16 and m <= V40_L_BYTES:
        k = peer_fit_count(peers, peer, payloads, m, attempts)
        counts.append((m, k))
        if k:
            sometimes, misses = m, 0
        else:
            misses += 1
        m += 1
    for size, k in counts:
        if size <= sometimes:
            fitted += k
            tried += attempts
    return lo, sometimes, fitted, tried


def table2(qr, peers, payloads, caps, attempts, failures):
    rows, notes, peer_sizes = [], [], {}
    if qr:
        for armor, mode, name in (("digits", "pass", "qrseal, digits armor + passphrase"),
                                  ("binary", "pass", "qrseal, binary armor + passphrase"),
                                  ("digits", "key", "qrseal, digits armor + key file"),
                                  ("binary", "key", "qrseal, binary armor + key file")):
            claimed = caps[armor][mode] - 2
            log("table 2: %s, checking %d and %d bytes" % (name, claimed, claimed + 1))
            ok = qrseal_limit(qr, payloads, mode, armor, claimed, failures)
            rows.append([name, fmt_n(claimed) + ("" if ok else " (check failed)"), "yes"])
        notes.append("qrseal: `capacity --seal --ec L` last row minus 2 (a file payload named"
                     " `f` costs 2 bytes more than text); each checked by sealing that many"
                     " random bytes (fits) and one more (refused, exit 2).")
    else:
        rows.append(["qrseal", "not built", "yes"])

    for peer, name, auth in (("openssl", "openssl enc -aes-256-cbc -pbkdf2 -a, piped to qrencode -l L", "no"),
                             ("age", "age -a (X25519 recipient), piped to qrencode -l L", "yes")):
        miss = peers.missing(peer)
        if peer == "age" and not miss and not peers.recipient:
            miss = "age-keygen failed"
        if miss:
            rows.append([name, miss, auth])
            continue
        log("table 2: %s, binary search" % name)
        try:
            n, some, fitted, tried = peer_limit(peers, peer, payloads, attempts)
        except RuntimeError as e:
            failures.append("table 2, %s: %s" % (name, e))
            rows.append([name, "failed", auth])
            continue
        if n is None:
            rows.append([name, "0 (nothing fits)", auth])
            continue
        peer_sizes[peer] = n
        if some > n:
            rows.append([name, "%s (up to %s in some tries)" % (fmt_n(n), fmt_n(some)), auth])
            notes.append("%s: %s to %s bytes fitted in %d of %d tries (%.0f %%)."
                         % (peer, fmt_n(n + 1), fmt_n(some), fitted, tried, 100.0 * fitted / tried))
        else:
            rows.append([name, fmt_n(n), auth])
    notes.append("openssl and age: the first figure is the largest size that fitted in every one"
                 " of %d tries (binary search; each try encrypts afresh, so the armored text is"
                 " new random characters from which qrencode picks its segment modes); the"
                 " sizes above it were tried %d times each until 16 sizes in a row never fitted."
                 % (attempts, attempts))
    notes.append("age reads a passphrase only from a terminal, so it encrypts to an X25519"
                 " recipient from `age-keygen -o` (a key, not a passphrase; compare with"
                 " qrseal's key file).")
    print_table("Table 2. Largest random plaintext in one version-40-L symbol",
                ["method", "bytes of random plaintext in one 40-L symbol", "authenticated"], rows)
    print()
    for n in notes:
        print("- " + n)
    return peer_sizes


def table3(qr, peers, payloads, peer_sizes, runs, failures):
    rows = []
    have_zbar = bool(peers.zbarimg)
    for peer, name in (("openssl", "openssl enc -aes-256-cbc -pbkdf2 -a"),
                       ("age", "age -a (X25519 recipient)")):
        miss = peers.missing(peer)
        if miss:
            rows.append([name + " + qrencode", "-", miss, miss, "-"])
            continue
        if peer not in peer_sizes:
            rows.append([name + " + qrencode", "-", "no size (see table 2)", "-", "-"])
            continue
        n = peer_sizes[peer]
        src = payloads.get(n)
        png = peers.work / ("%s-t3.png" % peer)
        enc_calls, open_calls, good, refused = [], [], 0, 0
        log("table 3: %s, %d bytes, 1 warm-up + %d runs" % (name, n, runs))
        for i in range(runs + 1):
            tag = "table 3, %s, %s" % (peer, "run %d" % i if i else "warm-up")
            e = peers.seal_encode(peer, src, png)
            if (not e.ok and not e.timed_out and not e.failed and e.rcs[0] == 0
                    and b"too large" in e.err):
                # this ciphertext came out a little less compact for qrencode (see table 2)
                refused += 1 if i else 0
                continue
            if not e.ok:
                failures.append("%s: seal+encode: %s" % (tag, e.problem()))
            o = None
            if e.ok and have_zbar:
                o = peers.scan_open(peer, png, src, failures, tag + ": zbarimg | decrypt")
            if i:
                enc_calls.append(e)
                if o is not None:
                    open_calls.append(o)
                    good += 1 if o.ok else 0
        em, ef = median_ms(enc_calls)
        if have_zbar:
            om, of = median_ms(open_calls)
            rows.append([name + " + qrencode; zbarimg + decrypt", fmt_n(n), fmt_ms(em, ef),
                         fmt_ms(om, of), "%d/%d" % (good, runs)
                         + (" (%d too large)" % refused if refused else "")])
        else:
            rows.append([name + " + qrencode", fmt_n(n), fmt_ms(em, ef),
                         "not installed (zbarimg)", "-"])
        if qr:
            for mode, mname in (("key", "qrseal, key file"), ("pass", "qrseal, passphrase")):
                qpng = qr.work / "t3.png"
                enc_calls, open_calls, good = [], [], 0
                log("table 3: %s at %d bytes, 1 warm-up + %d runs" % (mname, n, runs))
                for i in range(runs + 1):
                    tag = "table 3, %s at %d bytes, %s" % (mname, n, "run %d" % i if i else "warm-up")
                    e = qr.encode(mode, src, qpng)
                    if not e.ok:
                        failures.append("%s: encode: %s" % (tag, e.problem()))
                        if i:
                            enc_calls.append(e)
                        continue
                    o = qr.scan_open(mode, qpng, src, failures, tag + ": scan+open")
                    if i:
                        enc_calls.append(e)
                        open_calls.append(o)
                        good += 1 if o.ok else 0
                em, ef = median_ms(enc_calls)
                om, of = median_ms(open_calls)
                rows.append([mname + " (same size)", fmt_n(n), fmt_ms(em, ef),
                             fmt_ms(om, of), "%d/%d" % (good, runs)])
    print_table("Table 3. Seal and open through the peers at their largest size (table 2),"
                " qrseal at the same size: median ms over %d runs" % runs,
                ["method", "plaintext bytes", "seal + encode ms", "scan + open ms", "round trips ok"],
                rows)
    print()
    print("- Peers: `openssl enc ... -pass file:F -in FILE | qrencode -l L -o x.png` and"
          " `age -a -r RECIPIENT FILE | qrencode -l L -o x.png`; opened with"
          " `zbarimg --raw -q x.png | openssl enc -d ...` or `| age -d -i KEY`. Each pipeline"
          " is timed as a whole. openssl's PBKDF2 uses its default 10,000 iterations of"
          " SHA-256; age with a recipient runs no KDF.")
    print("- qrseal: `encode -i FILE -o out.png --ec L` and `scan -o DIR out.png` (zbar inside,"
          " as zbarimg), same sizes, digits armor.")
    print("- A peer run that qrencode refused as too large (it happens near the limit, see"
          " table 2) is counted in `round trips ok` as not done and left out of the medians.")


# --------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description="Benchmark qrseal's sealed messages (see bench/README.md).")
    ap.add_argument("--qrseal", metavar="PATH",
                    help="the binary under test (default: .build/release/qrseal, or "
                         ".build/debug/qrseal when the release build is missing or stale)")
    ap.add_argument("--runs", type=int, metavar="N",
                    help="timed runs per measurement (default 10, 3 with --quick)")
    ap.add_argument("--quick", action="store_true",
                    help="3 runs, and 3 tries per size in the peers' capacity search instead of 10")
    args = ap.parse_args()
    runs = args.runs if args.runs is not None else (3 if args.quick else 10)
    if runs < 1:
        ap.error("--runs must be at least 1")
    attempts = 3 if args.quick else 10

    exe, note = resolve_qrseal(args.qrseal)
    failures = []
    print("qrseal sealed-message benchmark, %s" % time.strftime("%Y-%m-%d"))
    if exe:
        v = run([exe, "--version"])
        shown = Path(os.path.abspath(exe))
        if shown.is_relative_to(REPO):
            shown = shown.relative_to(REPO)
        print("binary: %s (%s, modified %s)" % (
            shown, v.out.decode("utf-8", "replace").strip() or "version unknown",
            time.strftime("%Y-%m-%d %H:%M", time.localtime(exe.stat().st_mtime))))
    else:
        print("binary: none")
    if note:
        print("NOTE: " + note)
    print("host: %d CPU(s), Python %s; runs per measurement: %d; timeout %.0f s per call;"
          " load average at start %s"
          % (os.cpu_count() or 0, sys.version.split()[0], runs, TIMEOUT, load_average()))

    with tempfile.TemporaryDirectory(prefix="qrseal-seal-bench-") as tmp:
        work = Path(tmp)
        payloads = Payloads(work)
        peers = Peers(work)
        qr = None
        caps = None
        if exe:
            # Run a copy, so that a rebuild during the benchmark cannot change the binary
            # under test (its runtime search path holds an absolute directory as well).
            snap = work / "qrseal-under-test"
            shutil.copy2(exe, snap)
            if not run([snap, "--version"]).ok:
                snap = exe.resolve()
            qr = QRSeal(snap, work)
            qr.setup()  # also writes the passphrase file the peers use
            d_pass, d_key = qr.capacity("digits")
            b_pass, b_key = qr.capacity("binary")
            caps = {"digits": {"pass": d_pass, "key": d_key},
                    "binary": {"pass": b_pass, "key": b_key}}
        else:
            peers.passfile.write_text(PASSPHRASE)
        peers.setup()

        if qr:
            table1(qr, payloads, {"key": caps["digits"]["key"] - 2,
                                  "pass": caps["digits"]["pass"] - 2}, runs, failures)
        else:
            print()
            print("Table 1: qrseal not built")
        peer_sizes = table2(qr, peers, payloads, caps, attempts, failures)
        table3(qr, peers, payloads, peer_sizes, runs, failures)

    print()
    print("load average at the end: %s (other work on the machine inflates every time above)"
          % load_average())
    print()
    if failures:
        print("FAILURES (%d):" % len(failures))
        for f in failures:
            print("- " + f)
    else:
        print("All round trips matched the input; no call failed or timed out.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
