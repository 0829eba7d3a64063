#!/usr/bin/env python3
"""qrseal benchmark: reading accuracy/speed against peer readers, and encode speed.

Part A (reading, bench/reading.py): every folder of the corpus that holds images, and the
  generated sets of dense camera-like photos (bench/gen_dense.py), read in one process per
  folder by qrseal at each effort, zbarimg, ZXingReader (zxing-cpp 1.4) and zxing-cpp 3.1
  (its Python bindings, in the bench's own venv): correct / wrong / missed / errors / false
  positives / crashes / time; totals per group; the images a peer reads right and qrseal at
  the default effort does not; the whole corpus in one process per reader.
Part B (encoding): `qrseal encode` vs `qrencode` for a short URL and for a full
  version-40-M symbol (2,331 binary bytes), median milliseconds per symbol.

The script itself needs the Python 3 standard library only; the venv (zxing-cpp, numpy,
Pillow, OpenCV from PyPI) is made by bench/benchenv.py on first use. See bench/README.md.
"""

import argparse
import hashlib
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

import reading
import benchenv
from readers import QrsealReader, ZbarReader, ZXingReaderReader, ZxingCppReader, first_line, run
from tables import fmt_ms, log, print_table

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / ".build" / "bench-dense"
EFFORTS = ("fast", "balanced", "thorough")


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


def machine():
    """Date, CPU and load: what a figure needs beside it to be compared later."""
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), cpu)
    except OSError:
        pass
    return "%s, %s, %d cores, load average %.2f" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), cpu, os.cpu_count() or 0, os.getloadavg()[0])


def default_corpus():
    # A checkout sits beside shared/, a worktree one level further down.
    for base in (REPO.parent, REPO.parent.parent):
        if (base / "shared" / "corpus").is_dir():
            return base / "shared" / "corpus"
    return REPO.parent / "shared" / "corpus"


def generate(python, quick):
    """Make the dense photos and sheets (once; the generator is deterministic)."""
    script = REPO / "bench" / "gen_dense.py"
    # A change to the generator makes a new set rather than reusing an old one.
    digest = hashlib.sha256(script.read_bytes()).hexdigest()[:10]
    out = GENERATED / ("%s-%s" % ("quick" if quick else "full", digest))
    if (out / "COMPLETE").is_file():
        return out
    log("[generate] %s ..." % out)
    cmd = [python, str(script), "--out", str(out)]
    if quick:
        cmd.append("--quick")
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        log("[generate] failed: " + (p.stderr.strip()[-600:]))
        return None
    return out


def main():
    ap = argparse.ArgumentParser(description="Benchmark qrseal against zbarimg, ZXingReader, zxing-cpp 3.1 and qrencode.")
    ap.add_argument("--qrseal", default=".build/release/qrseal", help="qrseal binary (default: %(default)s)")
    ap.add_argument("--corpus", default=str(default_corpus()),
                    help="corpus folder (default: ../shared/corpus from the repo root, or from its parent)")
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
    ap.add_argument("--no-generated", action="store_true",
                    help="leave out the generated dense photos and sheets (bench/gen_dense.py)")
    ap.add_argument("--no-venv", action="store_true",
                    help="do not set up the bench venv: no zxing-cpp 3.1 row, no generated sets")
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
    python = None if args.no_venv or args.skip_read else benchenv.ensure(log)

    print("qrseal benchmark")
    print("  qrseal:      %s" % (qrseal or "NOT FOUND (%s) - build it with `make build`" % args.qrseal))
    if qrseal and "/debug/" in qrseal:
        print("               (a debug build: its timings are not representative)")
    for name, exe in (("zbarimg", zbar), ("ZXingReader", zxing), ("qrencode", qrencode)):
        print("  %-12s %s" % (name + ":", exe or "not installed"))
    if not args.skip_read:
        print("  zxing-cpp:   %s" % ("3.1.1 (PyPI) in " + python if python else "not installed"))
    print("  corpus:      %s" % corpus)
    print("  machine:     %s" % machine())
    print("  timeout:     %g s per process\n" % args.timeout)

    report = {"qrseal": qrseal, "corpus": str(corpus), "reps": args.reps,
              "encode_runs": args.encode_runs}
    if not args.skip_read:
        readers = [QrsealReader(qrseal, args.timeout, effort) for effort in args.efforts]
        readers += [ZbarReader(zbar, args.timeout),
                    ZXingReaderReader(zxing, args.timeout),
                    ZxingCppReader(python, str(REPO / "bench" / "zxingcpp_read.py"), args.timeout)]
        roots = [("corpus", corpus)]
        if python and not args.no_generated:
            generated = generate(python, args.quick)
            if generated:
                roots.append(("generated", generated))
        reading.part_a(args, readers, roots, report)
    if not args.skip_encode:
        part_b(args, qrseal, qrencode, zxing, zbar, report)
        part_b_refusal(args, qrseal, qrencode, report)
    print("done: %s" % machine())
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
