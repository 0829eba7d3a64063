#!/usr/bin/env python3
"""qrseal benchmark: reading accuracy/speed against peer readers, and encode speed.

Part A (reading): every folder of the corpus that holds images is scanned by
  - qrseal       one `qrseal scan --json` process over the whole folder (scored),
                 plus one process per image (timed, and checked against the folder run)
  - zbarimg      `zbarimg --raw -q IMAGE` per image (`-Sbinary` for .bin expectations),
                 plus one process over the whole folder (timed)
  - ZXingReader  `ZXingReader IMAGE` per image (`-bytes` for .bin expectations),
                 plus one process over the whole folder (timed)
Part B (encoding): `qrseal encode` vs `qrencode` for a short URL and for a full
  version-40-M symbol (2,331 binary bytes), median milliseconds per symbol.

Python 3 standard library only. See bench/README.md.
"""

import argparse
import base64
import binascii
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
IMAGE_EXTS = {".png", ".jpg", ".jpeg"}
OUTCOMES = ("correct", "wrong", "missed", "error")
EFFORTS = ("fast", "balanced", "thorough")


# --------------------------------------------------------------------------- processes

class Call:
    """Result of one child process."""

    def __init__(self, cmd, rc, out, err, ms, timed_out=False, failed=None):
        self.cmd = cmd
        self.rc = rc
        self.out = out
        self.err = err
        self.ms = ms
        self.timed_out = timed_out
        self.failed = failed  # OSError text if the process could not start

    def problem(self):
        if self.failed:
            return "cannot run: " + self.failed
        if self.timed_out:
            return "timed out"
        if self.rc is not None and self.rc < 0:
            return "killed by signal %d" % -self.rc
        return None


def run(cmd, timeout, stdin_data=None):
    cmd = [str(c) for c in cmd]
    t0 = time.perf_counter()
    try:
        p = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as e:
        return Call(cmd, None, b"", b"", 0.0, failed=str(e))
    timed_out = False
    try:
        out, err = p.communicate(input=stdin_data, timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        timed_out = True
    ms = (time.perf_counter() - t0) * 1000.0
    return Call(cmd, p.returncode, out or b"", err or b"", ms, timed_out=timed_out)


def first_line(data, limit=160):
    text = data.decode("utf-8", "replace").strip()
    for line in text.splitlines():
        line = line.strip()
        # zbarimg on machines without D-Bus prints noise we do not care about
        if line and not line.startswith("Connection "):
            return line[:limit]
    return ""


# --------------------------------------------------------------------------- corpus

class Sample:
    def __init__(self, path, kind, raw):
        self.path = path          # str, absolute
        self.name = os.path.basename(path)
        self.kind = kind          # "text" or "bin"
        # Accepted payloads. A .bin file is the payload. For a .txt file the corpus
        # rule is "one trailing newline is not part of the content", but some
        # zxing-cpp samples (qrcode-3/18, qrcode-5/16, ...) do encode that final
        # newline, so the file taken verbatim is accepted too.
        self.forms = [raw]
        if kind == "text" and raw.endswith(b"\n"):
            self.forms.insert(0, raw[:-1])
        self.expected = self.forms[0]

    def matches(self, data):
        return data in self.forms


def natural_key(s):
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", s)]


def load_folder(folder):
    samples, skipped = [], []
    for img in sorted(folder.iterdir(), key=lambda p: natural_key(p.name)):
        if not img.is_file() or img.suffix.lower() not in IMAGE_EXTS:
            continue
        txt = img.with_suffix(".txt")
        binf = img.with_suffix(".bin")
        if txt.is_file():
            samples.append(Sample(str(img.resolve()), "text", txt.read_bytes()))
        elif binf.is_file():
            samples.append(Sample(str(img.resolve()), "bin", binf.read_bytes()))
        else:
            skipped.append(img.name)
    return samples, skipped


def find_folders(corpus):
    found = []
    for dirpath, dirnames, filenames in os.walk(corpus):
        dirnames.sort()
        if any(os.path.splitext(f)[1].lower() in IMAGE_EXTS for f in filenames):
            found.append(Path(dirpath))
    return sorted(found, key=lambda p: natural_key(str(p.relative_to(corpus))))


# --------------------------------------------------------------------------- readers

def outcome(sample, payloads, call):
    """payloads: list of candidate byte strings read for this sample."""
    if any(sample.matches(p) for p in payloads):
        return "correct"
    if payloads:
        return "wrong"
    if call is not None and call.problem():
        return "error"
    return "missed"


class Reader:
    name = "?"
    missing = "not installed"

    def __init__(self, exe, timeout):
        self.exe = exe
        self.timeout = timeout

    def available(self):
        return self.exe is not None

    def scan_one(self, sample):
        """Returns (outcome, Call, note-or-None)."""
        raise NotImplementedError

    def scan_folder(self, samples):
        """Returns (Call, {path: outcome} or None, [notes])."""
        raise NotImplementedError


class QrsealReader(Reader):
    name = "qrseal"
    missing = "not built"

    def __init__(self, exe, timeout, effort=None):
        super().__init__(exe, timeout)
        self.effort = effort
        if effort:
            self.name = "qrseal " + effort

    def command(self, paths):
        # --no-store: the benchmark measures reading, and must not fill the user's inbox.
        cmd = [self.exe, "scan", "--json", "--no-store"]
        if self.effort:
            cmd += ["--effort", self.effort]
        return cmd + list(paths)

    @staticmethod
    def parse(out):
        """JSON lines -> list of (source, [candidate bytes]), count of bad lines."""
        records, bad = [], 0
        for line in out.splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                bad += 1
                continue
            if not isinstance(obj, dict):
                bad += 1
                continue
            cands = []
            b64 = obj.get("bytes_base64")
            if isinstance(b64, str):
                try:
                    cands.append(base64.b64decode(b64, validate=True))
                except (binascii.Error, ValueError):
                    bad += 1
            text = obj.get("text")
            if isinstance(text, str):
                cands.append(text.encode("utf-8", "surrogatepass"))
            if not cands:
                bad += 1
                continue
            records.append((str(obj.get("source", "")), cands))
        return records, bad

    @staticmethod
    def assign(records, samples):
        """Map each record's source to one of the samples' paths."""
        by_path = {s.path: s for s in samples}
        by_norm = {os.path.normpath(s.path): s for s in samples}
        by_base = {}
        for s in samples:
            by_base.setdefault(s.name, []).append(s)
        result = {s.path: [] for s in samples}
        unmatched = 0
        for source, cands in records:
            s = by_path.get(source) or by_norm.get(os.path.normpath(os.path.abspath(source)))
            if s is None and len(by_base.get(os.path.basename(source), [])) == 1:
                s = by_base[os.path.basename(source)][0]
            if s is None and len(samples) == 1:
                s = samples[0]
            if s is None:
                unmatched += 1
                continue
            result[s.path].extend(cands)
        return result, unmatched

    def _check_rc(self, call, found_any):
        if call.problem():
            return call.problem()
        if call.rc == 0 and not found_any:
            return "exit 0 but nothing reported"
        if call.rc == 1 and found_any:
            return "exit 1 but symbols reported"
        if call.rc not in (0, 1, 2):
            return "unexpected exit %s: %s" % (call.rc, first_line(call.err))
        return None

    def scan_one(self, sample):
        call = run(self.command([sample.path]), self.timeout)
        records, bad = self.parse(call.out)
        mapping, _ = self.assign(records, [sample])
        payloads = mapping[sample.path]
        note = self._check_rc(call, bool(records))
        if bad:
            note = (note + "; " if note else "") + "%d unparsable JSON line(s)" % bad
        res = outcome(sample, payloads, call)
        if res == "missed" and call.rc not in (0, 1):
            res = "error"  # exit 2 = image error, or a crash
        return res, call, note

    def scan_folder(self, samples):
        call = run(self.command(s.path for s in samples), self.timeout)
        records, bad = self.parse(call.out)
        mapping, unmatched = self.assign(records, samples)
        notes = []
        if call.problem():
            notes.append("whole-folder run " + call.problem())
        elif call.rc not in (0, 1, 2):
            notes.append("whole-folder run exit %s: %s" % (call.rc, first_line(call.err)))
        if bad:
            notes.append("%d unparsable JSON line(s)" % bad)
        if unmatched:
            notes.append("%d symbol(s) with an unknown \"source\"" % unmatched)
        results = {}
        err_text = call.err.decode("utf-8", "replace")
        for s in samples:
            res = outcome(s, mapping[s.path], call)
            # exit 2 = an image could not be read; blame the images stderr names
            if res == "missed" and call.rc == 2 and (s.path in err_text or s.name in err_text):
                res = "error"
            results[s.path] = res
        return call, results, notes


class ZbarReader(Reader):
    name = "zbarimg"

    def scan_one(self, sample):
        cmd = [self.exe, "--raw", "-q"]
        if sample.kind == "bin":
            cmd.append("-Sbinary")
        call = run(cmd + [sample.path], self.timeout)
        out = call.out
        payloads = []
        if out:
            if sample.kind == "bin":
                # -Sbinary writes the bytes as they are (no newline appended)
                payloads.append(out)
                if out.endswith(b"\n"):
                    payloads.append(out[:-1])
            else:
                # --raw: each symbol's text followed by a newline
                payloads.append(out[:-1] if out.endswith(b"\n") else out)
                for form in sample.forms:
                    if (b"\n" + out).find(b"\n" + form + b"\n") >= 0:
                        payloads.append(form)  # one of several symbols
        note = None
        if call.problem():
            note = call.problem()
        elif call.rc not in (0, 4):
            note = "exit %s: %s" % (call.rc, first_line(call.err))
        res = outcome(sample, payloads, call)
        if res == "missed" and call.rc not in (0, 4):
            res = "error"
        return res, call, note

    def scan_folder(self, samples):
        call = run([self.exe, "--raw", "-q"] + [s.path for s in samples], self.timeout)
        notes = []
        if call.problem():
            notes.append("whole-folder run " + call.problem())
        return call, None, notes


ZX_TEXT = re.compile(rb'^Text: +"(.*?)"\r?\nBytes:', re.DOTALL | re.MULTILINE)


class ZXingReaderReader(Reader):
    name = "ZXingReader"

    def scan_one(self, sample):
        if sample.kind == "bin":
            call = run([self.exe, "-bytes", sample.path], self.timeout)
            payloads = [call.out] if call.out else []
        else:
            # Plain output prints `Text:       "..."` unescaped (CR/LF and non-ASCII
            # as they are); `-1` would escape them as <CR>, <U+5916>, ...
            call = run([self.exe, sample.path], self.timeout)
            payloads = ZX_TEXT.findall(call.out)
        note = None
        if call.problem():
            note = call.problem()
        elif call.rc != 0:
            note = "exit %s: %s" % (call.rc, first_line(call.err or call.out))
        res = outcome(sample, payloads, call)
        if res == "missed" and call.rc != 0:
            res = "error"
        return res, call, note

    def scan_folder(self, samples):
        call = run([self.exe] + [s.path for s in samples], self.timeout)
        notes = []
        if call.problem():
            notes.append("whole-folder run " + call.problem())
        return call, None, notes


# --------------------------------------------------------------------------- tables

def fmt_ms(v):
    if v is None:
        return "-"
    return "%.1f" % v if v < 100 else "%.0f" % v


def print_table(headers, rows, markdown=False, left=1, out=sys.stdout):
    """left: how many leading columns are left-aligned text."""
    cells = [[str(c) for c in r] for r in rows]
    if markdown:
        out.write("| " + " | ".join(headers) + " |\n")
        out.write("|" + "|".join("---" for _ in headers) + "|\n")
        for r in cells:
            r = r + [""] * (len(headers) - len(r))
            out.write("| " + " | ".join(r) + " |\n")
        out.write("\n")
        return
    widths = [len(h) for h in headers]
    for r in cells:
        # a short row ("qrseal  not built") ends in free text that may overflow
        for i, c in enumerate(r if len(r) == len(headers) else r[:-1]):
            widths[i] = max(widths[i], len(c))

    def line(r):
        if len(r) < len(headers):  # left-aligned, e.g. "qrseal  not built"
            return "  ".join([c.ljust(widths[i]) for i, c in enumerate(r[:-1])] + r[-1:])
        return "  ".join(c.ljust(widths[i]) if i < left else c.rjust(widths[i])
                         for i, c in enumerate(r))

    out.write(line(headers) + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for r in cells:
        out.write(line(r) + "\n")
    out.write("\n")


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


# --------------------------------------------------------------------------- part A

def part_a(args, readers, corpus, report):
    folders = find_folders(corpus)
    if args.only:
        folders = [f for f in folders if any(o in str(f.relative_to(corpus)) for o in args.only)]
    if not folders:
        print("no image folders under %s" % corpus)
        return
    headers = ["reader", "correct", "wrong", "missed", "errors", "ms/image", "whole-folder ms"]
    totals = {r.name: {"counts": dict.fromkeys(OUTCOMES, 0), "img_ms": [], "folder_ms": 0.0,
                       "folder_ms_ok": True} for r in readers}
    total_images = 0
    report["reading"] = []
    print("== Part A: reading (%d repetition%s) ==\n" % (args.reps, "" if args.reps == 1 else "s"))
    for folder in folders:
        rel = str(folder.relative_to(corpus))
        samples, skipped = load_folder(folder)
        if not samples:
            continue
        total_images += len(samples)
        rows, notes = [], []
        if skipped:
            notes.append("skipped (no .txt/.bin beside it): " + ", ".join(skipped))
        folder_report = {"folder": rel, "images": len(samples), "readers": {}}
        for reader in readers:
            if not reader.available():
                rows.append([reader.name, reader.missing])
                folder_report["readers"][reader.name] = None
                continue
            log("[%s] %s ..." % (rel, reader.name))
            # whole-folder runs
            folder_calls, folder_results, fnotes = [], None, []
            for rep in range(args.reps):
                call, results, n = reader.scan_folder(samples)
                folder_calls.append(call)
                if rep == 0:
                    folder_results, fnotes = results, n
            folder_ms = statistics.median(c.ms for c in folder_calls)
            folder_ok = not any(c.problem() for c in folder_calls)
            # per-image runs
            per_image = {}
            img_ms, inote_count = [], {}
            for rep in range(args.reps):
                for s in samples:
                    res, call, note = reader.scan_one(s)
                    img_ms.append(call.ms)
                    if rep == 0:
                        per_image[s.path] = res
                    if note:
                        inote_count[note] = inote_count.get(note, 0) + 1
            scored = folder_results if folder_results is not None else per_image
            counts = dict.fromkeys(OUTCOMES, 0)
            for s in samples:
                counts[scored[s.path]] += 1
            mean_ms = statistics.mean(img_ms) if img_ms else None
            rows.append([reader.name, counts["correct"], counts["wrong"], counts["missed"],
                         counts["error"], fmt_ms(mean_ms),
                         fmt_ms(folder_ms) + ("" if folder_ok else "!")])
            t = totals[reader.name]
            for k in OUTCOMES:
                t["counts"][k] += counts[k]
            t["img_ms"].extend(img_ms)
            t["folder_ms"] += folder_ms
            t["folder_ms_ok"] = t["folder_ms_ok"] and folder_ok
            for n in fnotes:
                notes.append("%s: %s" % (reader.name, n))
            for n, c in sorted(inote_count.items()):
                notes.append("%s: per-image runs: %s (x%d)" % (reader.name, n, c))
            if folder_results is not None:
                differ = [os.path.basename(p) for p in folder_results
                          if folder_results[p] != per_image[p]]
                if differ:
                    notes.append("%s: per-image runs disagree with the whole-folder run on: %s"
                                 % (reader.name, ", ".join(differ)))
            wrong = [s.name for s in samples if scored[s.path] == "wrong"]
            missed = [s.name for s in samples if scored[s.path] in ("missed", "error")]
            folder_report["readers"][reader.name] = {
                "counts": counts, "ms_per_image": mean_ms, "whole_folder_ms": folder_ms,
                "whole_folder_ok": folder_ok, "wrong": wrong, "missed_or_error": missed,
                "per_image": {os.path.basename(p): r for p, r in scored.items()},
            }
        print("%s  (%d images)" % (rel, len(samples)))
        print_table(headers, rows, args.markdown)
        for n in notes:
            print("  note: " + n)
        if notes:
            print()
        report["reading"].append(folder_report)

    rows = []
    for reader in readers:
        if not reader.available():
            rows.append([reader.name, reader.missing])
            continue
        t = totals[reader.name]
        c = t["counts"]
        rows.append([reader.name, c["correct"], c["wrong"], c["missed"], c["error"],
                     fmt_ms(statistics.mean(t["img_ms"]) if t["img_ms"] else None),
                     fmt_ms(t["folder_ms"]) + ("" if t["folder_ms_ok"] else "!")])
    print("TOTAL  (%d images)" % total_images)
    print_table(headers, rows, args.markdown)
    if any("!" in str(c) for r in rows for c in r):
        print("  '!' after a time: at least one whole-folder run timed out or failed.\n")
    whole_corpus(args, readers, folders, report)


def whole_corpus(args, readers, folders, report):
    """Every image of every folder in one process per reader, the readers taking turns in
    each repetition so that they share the machine's state alike."""
    samples = []
    for folder in folders:
        samples += load_folder(folder)[0]
    if not samples:
        return
    times = {r.name: [] for r in readers if r.available()}
    problems = {name: False for name in times}
    for _ in range(args.reps):
        for reader in readers:
            if not reader.available():
                continue
            log("[whole corpus] %s ..." % reader.name)
            call, _, _ = reader.scan_folder(samples)
            times[reader.name].append(call.ms)
            problems[reader.name] = problems[reader.name] or bool(call.problem())
    rows = []
    for reader in readers:
        if reader.name not in times:
            rows.append([reader.name, reader.missing])
            continue
        t = times[reader.name]
        rows.append([reader.name, fmt_ms(statistics.median(t)) + ("!" if problems[reader.name] else ""),
                     fmt_ms(min(t)), fmt_ms(statistics.median(t) / len(samples))])
    print("WHOLE CORPUS IN ONE PROCESS  (%d images, median of %d)" % (len(samples), args.reps))
    print_table(["reader", "median ms", "min ms", "ms/image"], rows, args.markdown)
    report["whole_corpus"] = {name: {"ms": t, "images": len(samples)} for name, t in times.items()}


# --------------------------------------------------------------------------- part B

SMALL_PAYLOAD = "https://example.org/qrseal/bench?id=4242"  # 40 characters
FULL_SIZE = 2331  # bytes: byte-mode capacity of version 40 at level M


def verify_png(png, expected, zxing, zbar, timeout):
    """Decode an encoder's output with a peer; returns 'ok', 'FAIL' or '-'."""
    if not os.path.isfile(png) or os.path.getsize(png) == 0:
        return "FAIL"
    if zxing:
        c = run([zxing, "-bytes", png], timeout)
        return "ok" if c.out == expected else "FAIL"
    if zbar:
        c = run([zbar, "--raw", "-q", "-Sbinary", png], timeout)
        return "ok" if c.out in (expected, expected + b"\n") else "FAIL"
    return "-"


def part_b(args, qrseal, qrencode, zxing, zbar, report):
    n = args.encode_runs
    print("== Part B: encoding (median of %d runs, PNG output, EC level M) ==\n" % n)
    tmp = Path(tempfile.mkdtemp(prefix="qrseal-bench-"))
    try:
        rnd = random.Random(20240601)
        full = tmp / "full.bin"
        full.write_bytes(bytes(rnd.getrandbits(8) for _ in range(FULL_SIZE)))
        small_bytes = SMALL_PAYLOAD.encode("utf-8")
        cases = [
            ("%d-char URL" % len(SMALL_PAYLOAD), small_bytes,
             lambda o: [qrseal, "encode", SMALL_PAYLOAD, "--ec", "M", "-o", o],
             lambda o: [qrencode, "-l", "M", "-o", o, SMALL_PAYLOAD]),
            ("%d random bytes (40-M)" % FULL_SIZE, full.read_bytes(),
             lambda o: [qrseal, "encode", "-i", str(full), "--ec", "M", "-o", o],
             lambda o: [qrencode, "-8", "-l", "M", "-r", str(full), "-o", o]),
        ]
        headers = ["payload", "encoder", "median ms", "min ms", "errors", "PNG bytes", "decodes"]
        rows = []
        report["encoding"] = []
        for label, expected, qcmd, rcmd in cases:
            for name, exe, mk in (("qrseal", qrseal, qcmd), ("qrencode", qrencode, rcmd)):
                if not exe:
                    rows.append([label, name, "not installed" if name != "qrseal" else "not built"])
                    report["encoding"].append({"payload": label, "encoder": name, "available": False})
                    continue
                log("[encode] %s: %s ..." % (label, name))
                out = str(tmp / ("%s.png" % name))
                times, errors, first_err = [], 0, None
                for i in range(n + 1):  # run 0 is a warm-up, not timed
                    if os.path.exists(out):
                        os.unlink(out)
                    c = run(mk(out), args.timeout)
                    bad = c.problem() or (c.rc != 0 and "exit %s: %s" % (c.rc, first_line(c.err)))
                    if bad:
                        errors += 1
                        first_err = first_err or bad
                    elif i > 0:
                        times.append(c.ms)
                size = os.path.getsize(out) if os.path.isfile(out) else 0
                check = verify_png(out, expected, zxing, zbar, args.timeout) if size else "FAIL"
                med = statistics.median(times) if times else None
                rows.append([label, name, fmt_ms(med), fmt_ms(min(times) if times else None),
                             errors, size or "-", check])
                report["encoding"].append({"payload": label, "encoder": name, "median_ms": med,
                                           "runs": len(times), "errors": errors,
                                           "png_bytes": size, "decodes": check,
                                           "first_error": first_err})
                if first_err:
                    print("  note: %s / %s: %s" % (label, name, first_err))
        print_table(headers, rows, args.markdown, left=2)
        print("  'decodes': the last PNG written, read back by %s and compared byte for byte.\n"
              % ("ZXingReader -bytes" if zxing else "zbarimg -Sbinary" if zbar else "(no peer reader)"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


REFUSAL_SIZES = [1 << 20, 20 << 20]  # bytes of "hello world\n" that no code can hold


def run_measured(cmd, stdin_path, timeout):
    """Run cmd with stdin from a file; return (rc, ms, peak RSS in MiB, first stderr line)."""
    with open(stdin_path, "rb") as stdin, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen([str(c) for c in cmd], stdin=stdin, stdout=subprocess.DEVNULL, stderr=err)
        deadline = t0 + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                p.kill()
                pid, status, usage = os.wait4(p.pid, 0)
                break
            time.sleep(0.005)
        ms = (time.perf_counter() - t0) * 1000.0
        err.seek(0)
        return os.waitstatus_to_exitcode(status), ms, usage.ru_maxrss / 1024.0, first_line(err.read())


def part_b_refusal(args, qrseal, qrencode, report):
    """Input far larger than any code: how fast, and in how much memory, each encoder says no."""
    n = max(1, min(args.encode_runs, 5))
    print("== Part B2: refusing input no code can hold (median of %d runs, standard input) ==\n" % n)
    tmp = Path(tempfile.mkdtemp(prefix="qrseal-bench-"))
    try:
        headers = ["input", "encoder", "median ms", "peak MiB", "exit", "message"]
        rows = []
        report["refusal"] = []
        for size in REFUSAL_SIZES:
            path = tmp / ("text-%d.txt" % size)
            line = b"hello world\n"
            path.write_bytes(line * (size // len(line)))
            label = "%d MiB of text" % (size >> 20)
            for name, exe, cmd in (("qrseal", qrseal, [qrseal, "encode", "-o", tmp / "q.png", "-"]),
                                   ("qrencode", qrencode, [qrencode, "-o", tmp / "r.png"])):
                if not exe:
                    rows.append([label, name, "not installed" if name != "qrseal" else "not built"])
                    continue
                log("[refuse] %s: %s ..." % (label, name))
                results = [run_measured(cmd, path, args.timeout) for _ in range(n)]
                med = statistics.median(r[1] for r in results)
                peak = max(r[2] for r in results)
                rc, message = results[-1][0], results[-1][3]
                rows.append([label, name, fmt_ms(med), "%.0f" % peak, rc, message[:70]])
                report["refusal"].append({"input": label, "encoder": name, "median_ms": med,
                                          "peak_mib": peak, "exit": rc, "message": message})
        # Sealing: compression stops once it cannot fit, so noise is refused after a few blocks.
        if qrseal:
            key = tmp / "k.key"
            subprocess.run([qrseal, "keygen", "-o", key], capture_output=True, check=True)
            noise = tmp / "noise.bin"
            noise.write_bytes(os.urandom(16 << 20))
            label = "%d MiB of random bytes, sealed" % (noise.stat().st_size >> 20)
            log("[refuse] %s: qrseal ..." % label)
            cmd = [qrseal, "encode", "--key-file", key, "-o", tmp / "s.png", "-"]
            results = [run_measured(cmd, noise, args.timeout) for _ in range(n)]
            med = statistics.median(r[1] for r in results)
            peak = max(r[2] for r in results)
            rc, message = results[-1][0], results[-1][3]
            rows.append([label, "qrseal", fmt_ms(med), "%.0f" % peak, rc, message[:70]])
            report["refusal"].append({"input": label, "encoder": "qrseal", "median_ms": med,
                                      "peak_mib": peak, "exit": rc, "message": message})
        print_table(headers, rows, args.markdown, left=2)
        print()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --------------------------------------------------------------------------- main

def resolve_qrseal(arg):
    candidates = []
    p = Path(arg)
    if p.is_absolute():
        candidates.append(p)
    else:
        candidates += [Path.cwd() / p, REPO / p]
        if arg == ".build/release/qrseal":  # default: fall back to a debug build
            candidates.append(REPO / ".build/debug/qrseal")
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return os.path.abspath(str(c))
    return None


def main():
    ap = argparse.ArgumentParser(description="Benchmark qrseal against zbarimg, ZXingReader and qrencode.")
    ap.add_argument("--qrseal", default=".build/release/qrseal", help="qrseal binary (default: %(default)s)")
    ap.add_argument("--corpus", default=str(REPO.parent / "shared" / "corpus"),
                    help="corpus folder (default: ../shared/corpus from the repo root)")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (1 reading pass, 5 encode runs)")
    ap.add_argument("--reps", type=int, help="reading repetitions per folder (default 3, --quick 1)")
    ap.add_argument("--encode-runs", type=int, help="timed runs per encode case (default 20, --quick 5)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per process (default %(default)s)")
    ap.add_argument("--only", action="append", metavar="SUBSTR", help="only corpus folders containing SUBSTR")
    ap.add_argument("--skip-read", action="store_true", help="skip part A")
    ap.add_argument("--skip-encode", action="store_true", help="skip part B")
    ap.add_argument("--markdown", action="store_true", help="print tables as Markdown")
    ap.add_argument("--json-out", metavar="FILE", help="also write all figures as JSON")
    ap.add_argument("--effort", action="append", choices=EFFORTS, dest="efforts",
                    help="qrseal effort to measure (repeatable; default: all three)")
    args = ap.parse_args()
    if not args.efforts:
        args.efforts = list(EFFORTS)
    if args.reps is None:
        args.reps = 1 if args.quick else 3
    if args.encode_runs is None:
        args.encode_runs = 5 if args.quick else 20
    args.reps = max(1, args.reps)
    args.encode_runs = max(1, args.encode_runs)

    corpus = Path(args.corpus)
    if not corpus.is_absolute() and not corpus.exists():
        corpus = REPO / corpus
    if not args.skip_read and not corpus.is_dir():
        print("bench: corpus not found: %s" % args.corpus, file=sys.stderr)
        return 2

    qrseal = resolve_qrseal(args.qrseal)
    zbar = shutil.which("zbarimg")
    zxing = shutil.which("ZXingReader")
    qrencode = shutil.which("qrencode")

    print("qrseal benchmark")
    print("  qrseal:      %s" % (qrseal or "NOT FOUND (%s) - build it with `make build`" % args.qrseal))
    if qrseal and "/debug/" in qrseal:
        print("               (a debug build: its timings are not representative)")
    for name, exe in (("zbarimg", zbar), ("ZXingReader", zxing), ("qrencode", qrencode)):
        print("  %-12s %s" % (name + ":", exe or "not installed"))
    print("  corpus:      %s" % corpus)
    print("  timeout:     %g s per process\n" % args.timeout)

    report = {"qrseal": qrseal, "corpus": str(corpus), "reps": args.reps,
              "encode_runs": args.encode_runs}
    if not args.skip_read:
        readers = [QrsealReader(qrseal, args.timeout, effort) for effort in args.efforts]
        readers += [ZbarReader(zbar, args.timeout),
                   ZXingReaderReader(zxing, args.timeout)]
        part_a(args, readers, corpus, report)
    if not args.skip_encode:
        part_b(args, qrseal, qrencode, zxing, zbar, report)
        part_b_refusal(args, qrseal, qrencode, report)
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
