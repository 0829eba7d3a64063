#!/usr/bin/env python3
"""Text recognition benchmark: `qrseal scan --text-only` against the `tesseract` CLI.

A deterministic generator (ImageMagick `convert`, DejaVu fonts, seeded) makes pages of
words drawn from a fixed list, in three fonts and three sizes, each with its ground truth,
then camera-like copies of them: perspective, blur, noise, JPEG, uneven light, turned 3° and
-5°, each kind alone; small print (x-height 5 to 6 pixels); and sparse camera-like frames
(a few words scattered over mottled ground; their words are compared sorted, as they have no
one reading order). Both readers see the same files. For each kind the table gives word and character
error rates (edit distance over the ground truth's words / characters, lines joined by
spaces), the median and the worst image's time and CPU time (user and system, all threads;
fairer than wall time on a loaded machine), each image its own process, as a user runs them,
and for qrseal the number of images it read slower than the CLI did (the bar is per image).
`tesseract` runs with its default settings (`tesseract IMG -`); its row with
OMP_THREAD_LIMIT=1 shows what its OpenMP threads cost on this machine.

`--layouts` adds rows for qrseal with `--text-layout page` and `sparse` forced, which is how
the automatic choice between them was measured.

Usage: python3 bench/text.py [--qrseal PATH] [--reps N] [--quick] [--markdown] [--keep DIR] [--layouts] [--kinds K,…]
Python 3 standard library, ImageMagick and tesseract-ocr (make setup). See bench/README.md.
"""

import argparse
import os
import resource
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORDS = ("time person year way day thing man world life hand part child eye woman place work "
         "week case point government company number group problem fact garden river window "
         "letter morning station market bridge silver orange quiet simple yellow broken "
         "evening north summer winter paper table corner music story yesterday").split()
FONTS = ["DejaVu-Sans", "DejaVu-Serif", "DejaVu-Sans-Mono"]
SIZES = [16, 22, 30]
# Each degraded kind: ImageMagick operators applied to a clean page.
DEGRADED = {
    "perspective": lambda w, h: ["-virtual-pixel", "white", "-distort", "Perspective",
                                 f"0,0 {w*0.04:.0f},{h*0.06:.0f} {w},0 {w*0.97:.0f},0 "
                                 f"0,{h} 0,{h*0.95:.0f} {w},{h} {w*0.93:.0f},{h}"],
    "blur": lambda w, h: ["-blur", "0x1.2"],
    "noise": lambda w, h: ["-seed", "7", "-attenuate", "0.6", "+noise", "Gaussian", "-colorspace", "Gray"],
    "jpeg": lambda w, h: ["-quality", "25"],
    "uneven-light": lambda w, h: ["(", "-size", f"{w}x{h}", "gradient:gray95-gray45", "-rotate", "0", ")",
                                  "-compose", "Multiply", "-composite"],
    # A sheet laid crooked on the scanner, either way.
    "rotated 3°": lambda w, h: ["-background", "white", "-rotate", "3"],
    "rotated -5°": lambda w, h: ["-background", "white", "-rotate", "-5"],
}
# Small print: the same kind of page at sizes where the x-height is 5 to 6 pixels.
SMALL_SIZES = [8, 9, 10]


def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def page(folder, name, font, size, rng, lines=6, per_line=7):
    truth = [" ".join(rng.choice(WORDS) for _ in range(per_line)) for _ in range(lines)]
    path = folder / (name + ".png")
    subprocess.run(["convert", "-font", font, "-pointsize", str(size), "-background", "white"]
                   + ["label:" + t for t in truth]
                   + ["-append", "-bordercolor", "white", "-border", "40", "-strip", str(path)], check=True)
    return path, truth


def sparse_photo(folder, n, rng):
    """A 1280x720 camera-like frame: a few words scattered over mottled, unevenly lit ground."""
    args = ["convert", "-size", "1280x720", "-seed", str(n), "plasma:gray60-gray90", "-colorspace", "Gray", "-blur", "0x2"]
    truth = []
    for i in range(rng.randint(2, 6)):
        phrase = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
        truth.append(phrase)
        args += ["-font", rng.choice(FONTS), "-pointsize", str(rng.choice([24, 32, 44])), "-fill", "gray10",
                 "-annotate", f"+{rng.randint(20, 900)}+{40 + 150 * i}", phrase]
    path = folder / f"sparse-{n}.jpg"
    subprocess.run(args + ["-quality", "70", "-strip", str(path)], check=True)
    return path, truth


def degrade(src, kind, folder):
    w, h = map(int, subprocess.run(["identify", "-format", "%w %h", str(src)], capture_output=True,
                                   text=True, check=True).stdout.split())
    slug = "".join(c if c.isalnum() or c == "-" else "_" for c in kind)
    out = folder / (src.stem + "-" + slug + (".jpg" if kind == "jpeg" else ".png"))
    subprocess.run(["convert", str(src)] + DEGRADED[kind](w, h) + ["-strip", str(out)], check=True)
    return out


def generate(folder, quick):
    rng = random.Random(13)
    pages = []
    for font in FONTS:
        for size in (SIZES[1:2] if quick else SIZES):
            pages.append(page(folder, f"{font}-{size}", font, size, rng))
    sets = {"clean page": pages}
    for kind in DEGRADED:
        sets[kind] = [(degrade(p, kind, folder), t) for p, t in pages]
    sets["small print"] = [page(folder, f"{font}-small-{size}", font, size, rng)
                           for font in FONTS for size in (SMALL_SIZES[1:2] if quick else SMALL_SIZES)]
    sets["sparse photo"] = [sparse_photo(folder, n, rng) for n in range(3 if quick else 9)]
    return sets


def run(cmd, env=None):
    """The command's output, its wall time and its CPU time (user + system, all threads)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p.stdout, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def score(truth, text, ordered=True):
    ref = " ".join(truth).split()
    got = text.split()
    # Words scattered over a photo have no one reading order: compare them sorted.
    if not ordered:
        ref, got = sorted(ref), sorted(got)
    return edit_distance(ref, got), len(ref), edit_distance(" ".join(ref), " ".join(got)), len(" ".join(ref))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qrseal", default=None)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--keep", default=None, help="write the generated images here and keep them")
    ap.add_argument("--layouts", action="store_true", help="also run qrseal with each --text-layout forced")
    ap.add_argument("--kinds", default=None, help="only these kinds, comma-separated")
    args = ap.parse_args()
    qrseal = args.qrseal or next((str(p) for p in [REPO / ".build/release/qrseal", REPO / ".build/debug/qrseal"]
                                  if p.is_file()), None)
    for tool in ["convert", "tesseract"]:
        if not shutil.which(tool):
            sys.exit(f"text.py: {tool} not installed (make setup)")
    if not qrseal:
        sys.exit("text.py: no qrseal binary (swift build -c release --product qrseal)")
    folder = Path(args.keep or tempfile.mkdtemp(prefix="qrseal-text-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    sets = generate(folder, args.quick)
    env = {k: v for k, v in os.environ.items() if k != "OMP_THREAD_LIMIT"}
    # The CLI's default run comes first: each qrseal row counts the images it read slower than that.
    readers = [
        ("tesseract (default)", lambda p: ["tesseract", str(p), "-"], env),
        ("qrseal scan --text-only", lambda p: [qrseal, "scan", "--text-only", "--raw", "--no-store", str(p)], env),
        ("tesseract, OMP_THREAD_LIMIT=1", lambda p: ["tesseract", str(p), "-"], dict(env, OMP_THREAD_LIMIT="1")),
    ]
    if args.layouts:
        for layout in ["page", "sparse"]:
            readers.insert(2, (f"qrseal --text-layout {layout}", lambda p, l=layout: [
                qrseal, "scan", "--text-only", "--raw", "--no-store", "--text-layout", l, str(p)], env))
    if args.kinds:
        sets = {k: v for k, v in sets.items() if k in args.kinds.split(",")}
    rows = []
    for kind, images in sets.items():
        # Each image's median wall and CPU time under the CLI's default settings, for the per-image comparison.
        cli = {}
        for name, cmd, e in readers:
            werr = words = cerr = chars = 0
            times, cpus = [], []
            slower = [0, 0]
            for path, truth in images:
                mine = []
                for rep in range(args.reps):
                    out, t, c = run(cmd(path), e)
                    mine.append((t, c))
                t = statistics.median(x for x, _ in mine)
                c = statistics.median(x for _, x in mine)
                times.append(t)
                cpus.append(c)
                if name == "tesseract (default)":
                    cli[path] = (t, c)
                elif name.startswith("qrseal") and path in cli:
                    slower[0] += t > cli[path][0]
                    slower[1] += c > cli[path][1]
                a, b, c, d = score(truth, out, ordered=kind != "sparse photo")
                werr += a; words += b; cerr += c; chars += d
            versus = f"{slower[0]} / {slower[1]}" if name.startswith("qrseal") and cli else "–"
            rows.append((kind, name, len(images), 100.0 * werr / words, 100.0 * cerr / chars,
                         1000 * statistics.median(times), 1000 * max(times),
                         1000 * statistics.median(cpus), 1000 * max(cpus), versus))
            sys.stderr.write(f"[text] {kind}: {name} done\n")
    head = ["kind", "reader", "images", "word error %", "char error %", "ms / image (median)", "ms (worst image)",
            "CPU ms / image (median)", "CPU ms (worst image)", "images slower than the CLI (wall / CPU)"]
    cells = [[k, n, str(i), f"{w:.2f}", f"{c:.2f}", f"{t:.0f}", f"{tw:.0f}", f"{u:.0f}", f"{uw:.0f}", v]
             for k, n, i, w, c, t, tw, u, uw, v in rows]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in cells:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(x) for x in col) for col in zip(head, *cells)]
        for r in [head] + cells:
            print("  ".join(x.ljust(w) for x, w in zip(r, widths)))
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
