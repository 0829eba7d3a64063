#!/usr/bin/env python3
"""Messages in parts: the overhead of a part against one symbol, and a file sent through a
stream of frames with frames dropped.

1. Overhead. For each version and level, the most envelope bytes one symbol holds (found by
   encoding sealed input of growing size until `encode` splits it) against the chunk bytes
   each part of a large sealed file carries (read back from a part with zbarimg).

2. Stream. A random file (default 100 KB) is split by `qrseal encode` (one PNG per part);
   a 1280x720 YUV4MPEG2 stream at 10 fps shows the parts in a cycle, one per frame, with
   --drop of the frames dropped at random (shown without a code, so that they still take
   their time) and sensor-like noise; `qrseal scan --stream -
   --once --json` reads it at its live default effort. The effective rate is the file's size
   over the stream time of the frame that completed it (txqr's best published run: 9 KB/s at
   11 fps); the wall time says whether the reader keeps up with 10 fps.

3. Restore (--restore BYTES): a file sealed with a passphrase, split into PNG parts at
   40-L, a quarter of them lost at random, the rest scanned shuffled in one call. The PDF
   pipeline (sheet, 300 dpi pages, codes painted over) comes with the sheets work: --pdf is
   its hook and runs nothing yet.

Usage: python3 bench/parts.py [--qrseal PATH] [--size BYTES] [--drop FRACTION] [--version V]
                              [--ec L] [--redundancy PCT] [--noise N] [--seed N] [--restore BYTES]
                              [--no-overhead] [--markdown]
Python 3 standard library only, plus zbarimg and ImageMagick (make setup installs both).
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live import find_qrseal, read_png, noise_table  # noqa: E402

HEADER = 16


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def largest(fits, hi=3000):
    """The largest n in 0...hi with fits(n), for a monotone fits."""
    lo = 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    return lo


# A key-file envelope of binary input read from stdin (a nameless file, uncompressed): 14 header,
# 1 flags, 1 name length and 16 tag bytes more.
ENVELOPE_OVERHEAD = 32


def single_capacity(qrseal, key, version, level, workdir):
    """The most envelope bytes one symbol of `version` holds: the largest key-file-sealed
    random input that encode writes as one symbol no larger than that version (its PNG at
    scale 1, margin 0, is 17 + 4·version pixels wide)."""
    png = os.path.join(workdir, "one.png")

    def fits(n):
        r = run([qrseal, "encode", "--key-file", key, "--no-compress", "--ec", level, "--scale", "1", "--margin", "0",
                 "-o", png, "--force", "-"], input=random.Random(n).randbytes(n))
        if r.returncode != 0 or b"split into" in r.stderr:
            for f in Path(workdir).glob("one-*"):
                f.unlink()
            return False
        width = int.from_bytes(open(png, "rb").read()[16:20], "big")
        return width <= 17 + 4 * version
    return largest(fits) + ENVELOPE_OVERHEAD


def part_chunk(qrseal, key, version, level, workdir):
    """The most chunk bytes one part of `version` carries: the largest input that --parts 2
    --redundancy 0 --max-version `version` accepts holds two full chunks."""
    folder = os.path.join(workdir, "p%d%s" % (version, level))
    os.makedirs(folder, exist_ok=True)

    def fits(n):
        r = run([qrseal, "encode", "--key-file", key, "--no-compress", "--ec", level, "--max-version", str(version),
                 "--parts", "2", "--redundancy", "0", "--force", "-o", os.path.join(folder, "p.png"), "-"],
                input=random.Random(n).randbytes(n))
        return r.returncode == 0
    return math.ceil((largest(fits, 6000) + ENVELOPE_OVERHEAD) / 2)


def overhead_table(qrseal, workdir):
    key = os.path.join(workdir, "k.key")
    run([qrseal, "keygen", "-o", key])
    rows = []
    for level in ("L", "M"):
        for version in (20, 25, 30, 40):
            single = single_capacity(qrseal, key, version, level, workdir)
            chunk = part_chunk(qrseal, key, version, level, workdir)
            rows.append(("%d-%s" % (version, level), single, chunk, "%.2f %%" % (100 * (single - chunk) / single)))
    return rows


def stream_run(qrseal, args, workdir):
    data = random.Random(args.seed).randbytes(args.size)
    src = os.path.join(workdir, "file.bin")
    open(src, "wb").write(data)
    folder = os.path.join(workdir, "codes")
    os.makedirs(folder, exist_ok=True)
    r = run([qrseal, "encode", "-i", src, "-o", os.path.join(folder, "f.png"), "--ec", args.ec,
             "--max-version", str(args.version), "--redundancy", str(args.redundancy), "--scale", "3", "--margin", "4"])
    if r.returncode != 0:
        sys.exit("parts.py: encode failed: %s" % r.stderr.decode())
    note = r.stderr.decode().strip().splitlines()[0]
    pngs = sorted(Path(folder).glob("f-*.png"))
    codes = [read_png(str(p), workdir) for p in pngs]
    width, height = 1280, 720
    rng = random.Random(args.seed)
    bg = noise_table(200, args.noise, rng)
    backgrounds = [rng.randbytes(width * height).translate(bg) for _ in range(4)]
    span = 2 * args.noise + 1
    sprites = []
    for cw, ch, rows in codes:
        if cw > width or ch > height:
            sys.exit("parts.py: a %dx%d code does not fit a %dx%d frame" % (cw, ch, width, height))
        sprite = []
        for row in rows:
            noise = rng.randbytes(cw)
            sprite.append(bytes(max(0, min(255, 20 + row[i] * 215 // 255 + noise[i] % span - args.noise)) for i in range(cw)))
        sprites.append((cw, ch, sprite))
    chroma = bytes([128]) * (2 * (width // 2) * (height // 2))
    frames = []
    shown = 0
    cycles = 4
    for n in range(len(sprites) * cycles):
        luma = bytearray(backgrounds[n % len(backgrounds)])
        # A dropped frame still takes its tenth of a second: the camera saw no code in it.
        if rng.random() < args.drop:
            frames.append(b"FRAME\n" + bytes(luma) + chroma)
            continue
        cw, ch, sprite = sprites[n % len(sprites)]
        x0, y0 = (width - cw) // 2 + rng.randint(-6, 6), (height - ch) // 2 + rng.randint(-4, 4)
        for y, row in enumerate(sprite):
            start = (y0 + y) * width + x0
            luma[start:start + cw] = row
        frames.append(b"FRAME\n" + bytes(luma) + chroma)
        shown += 1
    stream = b"YUV4MPEG2 W%d H%d F10:1 Ip A1:1 C420jpeg\n" % (width, height) + b"".join(frames)
    out = os.path.join(workdir, "out")
    os.makedirs(out, exist_ok=True)
    start = time.perf_counter()
    r = run([qrseal, "scan", "--stream", "-", "--once", "--json", "--no-store", "-o", out], input=stream, timeout=1200)
    wall = time.perf_counter() - start
    events = [json.loads(line) for line in r.stdout.decode().splitlines() if line.startswith("{")]
    done = [e for e in events if e.get("event") == "message"]
    restored = os.path.join(out, "file.bin")
    same = os.path.exists(restored) and open(restored, "rb").read() == data
    parts_seen = len([e for e in events if e.get("event") == "part"]) + len(done)
    result = {"note": note, "parts": len(pngs), "frames_made": shown, "frames_total": len(frames), "same": same, "wall": wall,
              "parts_seen": parts_seen}
    if done:
        t = done[0]["time"]
        frames_used = int(round(t * 10)) + 1
        result.update(stream_time=t, frames_used=frames_used, kbps=args.size / 1000 / max(t, 0.1),
                      fps=frames_used / wall)
    return result


def restore_run(qrseal, size, lose, seed, workdir):
    """A `size`-byte random file sealed with a passphrase, split into PNG parts at 40-L, `lose`
    of them removed at random, the rest scanned in shuffled order in one call."""
    rng = random.Random(seed)
    src, passfile = os.path.join(workdir, "big.bin"), os.path.join(workdir, "pass.txt")
    data = rng.randbytes(size)
    open(src, "wb").write(data)
    open(passfile, "w").write("correct horse battery\n")
    folder = os.path.join(workdir, "sheet")
    os.makedirs(folder, exist_ok=True)
    start = time.perf_counter()
    r = run([qrseal, "encode", "--passphrase-file", passfile, "-i", src, "--ec", "L", "-o", os.path.join(folder, "p.png")])
    encode = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit("parts.py: encode failed: %s" % r.stderr.decode())
    pngs = sorted(str(p) for p in Path(folder).glob("p-*.png"))
    kept = rng.sample(pngs, len(pngs) - round(lose * len(pngs)))
    out = os.path.join(workdir, "restored")
    os.makedirs(out, exist_ok=True)
    start = time.perf_counter()
    r = run([qrseal, "scan", "--no-store", "--passphrase-file", passfile, "-o", out] + kept, timeout=3600)
    scan = time.perf_counter() - start
    restored = os.path.join(out, "big.bin")
    same = os.path.exists(restored) and open(restored, "rb").read() == data
    return len(pngs), len(kept), encode, scan, same


def table(head, rows, markdown):
    cols = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for row in rows:
            print("| " + " | ".join(str(x) for x in row) + " |")
    else:
        for row in [head] + rows:
            print("  ".join(str(x).rjust(w) for x, w in zip(row, cols)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--qrseal")
    p.add_argument("--size", type=int, default=100_000)
    p.add_argument("--drop", type=float, default=0.30)
    p.add_argument("--version", type=int, default=40)
    p.add_argument("--ec", default="L")
    p.add_argument("--redundancy", type=int, default=50)
    p.add_argument("--noise", type=int, default=8)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--no-overhead", action="store_true")
    p.add_argument("--restore", type=int, metavar="BYTES",
                   help="also restore a sealed file of BYTES (1048576 for the issue's bar) from its PNG parts, 25 %% lost")
    p.add_argument("--pdf", action="store_true", help="the PDF sheet pipeline (after merge): not built yet")
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()
    qrseal = find_qrseal(args.qrseal)
    if args.pdf:
        print("parts.py: --pdf: the PDF sheet pipeline comes with the sheets work; nothing run")
    with tempfile.TemporaryDirectory(prefix="qrseal-parts-bench-") as workdir:
        if not args.no_overhead:
            print("Overhead: envelope bytes of one symbol against chunk bytes of one part (digits armor)")
            table(["version", "one symbol", "one part", "less"], overhead_table(qrseal, workdir), args.markdown)
            print()
        if args.restore:
            total, kept, encode, scan, same = restore_run(qrseal, args.restore, 0.25, args.seed, workdir)
            print("Restore: %d bytes sealed with a passphrase, %d PNG parts at 40-L, 25 %% lost, %d scanned shuffled"
                  % (args.restore, total, kept))
            table(["step", "time", "file"], [("encode", "%.1f s" % encode, ""),
                                             ("scan", "%.1f s" % scan, "identical" if same else "DIFFERS")], args.markdown)
            print()
        r = stream_run(qrseal, args, workdir)
        print("Stream: %d bytes, %s; %d frames at 10 fps, %.0f %% of them dropped, noise ±%d"
              % (args.size, r["note"].replace("qrseal: ", ""), r["frames_total"], 100 * args.drop, args.noise))
        if "kbps" not in r:
            print("  not completed: %d parts seen, file restored: %s (wall %.1f s)" % (r["parts_seen"], r["same"], r["wall"]))
            return 1
        table(["reader", "frames to complete", "stream time", "effective rate", "wall time", "frames/s read", "file"],
              [("qrseal scan --stream", r["frames_used"], "%.1f s" % r["stream_time"], "%.1f KB/s" % r["kbps"],
                "%.1f s" % r["wall"], "%.1f" % r["fps"], "identical" if r["same"] else "DIFFERS"),
               ("txqr (published)", "", "", "9 KB/s at 11 fps", "", "", "")], args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
