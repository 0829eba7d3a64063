#!/usr/bin/env python3
"""Live scanning benchmark: frames per second through `qrseal scan --stream -`.

Streams of YUV4MPEG2 frames (C420jpeg, as `ffmpeg -f v4l2 ... -f yuv4mpegpipe` gives) are
made here: a plain background with sensor-like noise and, in the "code" streams, one QR
code drifting a little every frame, as a code held up to a camera does; in the "dense"
streams (1280x720), a full version-40-L sealed-like code 600 pixels wide. Each stream is
piped to `qrseal scan --stream - --json --no-store`, pinned to one core with taskset.

Frames per second come from two runs of different lengths, (N2 - N1) / (t2 - t1), so
process start-up and opening cancel out; the median of --runs such pairs is shown. The
peers' rows time zbarimg and ZXingReader on the same frames written as PGM files, one
process over all of them, measured the same way: the per-frame cost of each engine alone.

Usage: python3 bench/live.py [--qrseal PATH] [--runs N] [--frames N] [--noise N] [--effort E]
                             [--quick] [--no-peers] [--markdown]
Python 3 standard library only. See bench/README.md, "Live scanning".
"""

import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from payloads import longest, sealed_like

REPO = Path(__file__).resolve().parent.parent
DENSE_SIDE = 600  # pixels: a full version-40 code held up to a 720p camera
SIZES = [(640, 480), (1280, 720)]
BACKGROUND = 170
PAYLOAD = "https://example.org/menu?table=12&seat=4"


def find_qrseal(given, name="qrseal", script="live.py"):
    """The binary given, else .build/release/NAME, else .build/debug/NAME."""
    if given:
        return given
    for config in ("release", "debug"):
        path = REPO / ".build" / config / name
        if path.exists():
            return str(path)
    sys.exit("%s: no %s binary; run 'make build' or pass --%s PATH"
             % (script, name, "qrseal" if name == "qrseal" else "app"))


def render_code(qrseal, scale, workdir):
    """The QR code for PAYLOAD as rows of 0/255 bytes, rendered by qrseal and read back as PGM."""
    png = os.path.join(workdir, "code.png")
    subprocess.run([qrseal, "encode", "--force", "--scale", str(scale), "--margin", "4", "-o", png, PAYLOAD],
                   check=True)
    return read_png(png, workdir)


def render_dense(side, workdir):
    """A full version-40-L sealed-like code (bench/payloads.py) with its quiet zone, scaled to
    side x side pixels (3.2 px per module for 600), each pixel the area-weighted mean of the
    modules it covers, so that module edges fall between pixels, grey, as in a camera's image."""
    noise = random.Random(40).randbytes(3000)
    n = longest(lambda k: sealed_like(noise, k), 40, "L", 2935)
    png = os.path.join(workdir, "dense.png")
    subprocess.run(["qrencode", "-l", "L", "-v", "40", "-s", "1", "-m", "4", "-o", png],
                   input=sealed_like(noise, n).encode("ascii"), check=True)
    w, h, rows = read_png(png, workdir)

    def spans(count):  # for each output pixel: [(source index, weight)], weights adding to 1
        out = []
        for i in range(side):
            a, b = i * count / side, (i + 1) * count / side
            first = int(a)
            last = min(count - 1, int(math.ceil(b)) - 1)
            out.append([(j, (min(b, j + 1) - max(a, j)) * side / count) for j in range(first, last + 1)])
        return out

    xs, ys = spans(w), spans(h)
    return side, side, [bytes(int(sum(wy * wx * rows[j][k] for j, wy in ys[y] for k, wx in xs[x]) + 0.5)
                              for x in range(side)) for y in range(side)]


def read_png(png, workdir):
    """An image as (width, height, rows of grey bytes), through ImageMagick's PGM."""
    pgm = os.path.join(workdir, "code.pgm")
    subprocess.run(["convert", png, "-depth", "8", pgm], check=True)
    data = open(pgm, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:  # P5, width, height, maxval, separated by whitespace
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + width * height]
    return width, height, [pixels[y * width:(y + 1) * width] for y in range(height)]


def noise_table(base, noise, rng):
    """bytes.translate table: a random byte to base ± noise (uniform), clamped."""
    return bytes(max(0, min(255, base + (b % (2 * noise + 1)) - noise)) for b in range(256)) if noise else bytes([base] * 256)


class StreamMaker:
    """Frames with `noise` (± grey levels, uniform) and, if `code`, the code drifting."""

    def __init__(self, width, height, code, noise, seed=7):
        self.width, self.height = width, height
        rng = random.Random(seed)
        bg = noise_table(BACKGROUND, noise, rng)
        # A few noisy backgrounds, reused in turn; bytes.translate keeps this fast.
        self.backgrounds = [rng.randbytes(width * height).translate(bg) for _ in range(6)]
        self.sprites = []
        if code:
            cw, ch, rows = code
            # Black (0) prints as 20, white (255) as 235, grey in between; each pixel ± noise.
            span = 2 * noise + 1
            for _ in range(6):
                sprite = []
                for row in rows:
                    r = rng.randbytes(cw)
                    sprite.append(bytes(max(0, min(255, 20 + row[i] * 215 // 255 + r[i] % span - noise))
                                        for i in range(cw)))
                self.sprites.append((cw, ch, sprite))

    def header(self):
        return b"YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg\n" % (self.width, self.height)

    def frame(self, n):
        luma = bytearray(self.backgrounds[n % len(self.backgrounds)])
        if self.sprites:
            cw, ch, sprite = self.sprites[n % len(self.sprites)]
            # Drift in a small circle around the centre, a pixel or two per frame.
            x0 = (self.width - cw) // 2 + int(12 * ((n % 40) / 20 - 1))
            y0 = (self.height - ch) // 2 + int(8 * (((n + 10) % 40) / 20 - 1))
            for y, row in enumerate(sprite):
                start = (y0 + y) * self.width + x0
                luma[start:start + cw] = row
        chroma = bytes([128]) * (2 * ((self.width + 1) // 2) * ((self.height + 1) // 2))
        return b"FRAME\n" + bytes(luma) + chroma

    def stream(self, count):
        return self.header() + b"".join(self.frame(n) for n in range(count))

    def pgm(self, n):
        body = self.frame(n)[6:6 + self.width * self.height]
        return b"P5\n%d %d\n255\n" % (self.width, self.height) + body


def pinned(cmd):
    taskset = shutil.which("taskset")
    return ([taskset, "-c", "0"] + cmd) if taskset else cmd


def timed(cmd, stdin_bytes=None, env=None):
    start = time.perf_counter()
    proc = subprocess.run(pinned(cmd), input=stdin_bytes, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env, timeout=600)
    return time.perf_counter() - start, proc


def qrseal_fps(qrseal, maker, short, long, runs, env, extra):
    """Frames per second over (long - short) frames, median of `runs`; and the events seen."""
    streams = {n: maker.stream(n) for n in (short, long)}
    rates, adds = [], None
    for _ in range(runs):
        times = {}
        for n, data in streams.items():
            seconds, proc = timed([qrseal, "scan", "--stream", "-", "--json", "--no-store"] + extra, data, env)
            if proc.returncode not in (0, 1):
                sys.exit("live.py: qrseal failed (%d): %s" % (proc.returncode, proc.stderr.decode()[-500:]))
            times[n] = seconds
            events = [json.loads(line) for line in proc.stdout.decode().splitlines() if line.strip()]
            if n == long:
                adds = sum(1 for e in events if e["event"] == "add")
        rates.append((long - short) / max(times[long] - times[short], 1e-9))
    return statistics.median(rates), adds


def peer_fps(tool, args, maker, short, long, runs, workdir):
    if not shutil.which(tool):
        return None
    paths = []
    for n in range(long):
        path = os.path.join(workdir, "f%04d.pgm" % n)
        with open(path, "wb") as f:
            f.write(maker.pgm(n))
        paths.append(path)
    rates = []
    for _ in range(runs):
        t_short, _ = timed([tool] + args + paths[:short])
        t_long, _ = timed([tool] + args + paths[:long])
        rates.append((long - short) / max(t_long - t_short, 1e-9))
    for path in paths:
        os.unlink(path)
    return statistics.median(rates)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qrseal")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--frames", type=int, default=150, help="frames in the long run (the short one has a fifth)")
    ap.add_argument("--noise", type=int, action="append", help="± grey levels of noise (repeatable; default 2 and 6)")
    ap.add_argument("--quick", action="store_true", help="1 run, 60 frames, noise 2 only")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--effort", help="pass --effort EFFORT to qrseal (live scans default to fast)")
    ap.add_argument("--markdown", action="store_true")
    opts = ap.parse_args()
    if opts.quick:
        opts.runs, opts.frames, opts.noise = 1, 60, opts.noise or [2]
    noises = opts.noise or [2, 6]
    qrseal = find_qrseal(opts.qrseal)
    long = max(10, opts.frames)
    short = max(2, long // 5)
    workdir = tempfile.mkdtemp(prefix="qrseal-live-")
    env = dict(os.environ, XDG_DATA_HOME=workdir, XDG_CONFIG_HOME=workdir)
    env.pop("QRSEAL_INBOX", None)
    try:
        version = subprocess.run([qrseal, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
        print("binary %s (%s); one core (%s); %d runs of %d and %d frames; effort %s; load %.2f"
              % (qrseal, version, "taskset -c 0" if shutil.which("taskset") else "not pinned: no taskset",
                 opts.runs, short, long, opts.effort or "fast (the live default)", os.getloadavg()[0]),
              file=sys.stderr)
        rows = []
        dense = render_dense(DENSE_SIDE, workdir)
        for width, height in SIZES:
            # About a third of the frame's height, as a code held up to a webcam.
            code = render_code(qrseal, max(2, height // 3 // 37), workdir)
            kinds = [("one code", code), ("no code", None)]
            if height >= DENSE_SIDE + 40:
                kinds.insert(1, ("dense 40-L code", dense))
            for noise in noises:
                for kind, sprite in kinds:
                    label = "%dx%d, %s, noise ±%d" % (width, height, kind, noise)
                    print("live.py: " + label, file=sys.stderr)
                    maker = StreamMaker(width, height, sprite, noise)
                    fps, adds = qrseal_fps(qrseal, maker, short, long, opts.runs, env,
                                           ["--effort", opts.effort] if opts.effort else [])
                    row = [label, "%.1f" % fps, "%.1f" % (1000 / fps), str(adds)]
                    for tool, args in (("zbarimg", ["-q", "--raw"]), ("ZXingReader", ["-1"])):
                        peer = None if opts.no_peers else peer_fps(tool, args, maker, short, min(long, 60),
                                                                   opts.runs, workdir)
                        row.append("%.1f" % peer if peer else "not run")
                    rows.append(row)
        head = ["stream", "qrseal fps", "ms/frame", "adds", "zbarimg fps", "ZXingReader fps"]
        print_table(head, rows, opts.markdown)
        bar = [r for r in rows if r[0].startswith("1280x720, one code")]
        worst = min(float(r[1]) for r in bar)
        print("\nbar: >= 30 fps at 1280x720 with a code in view: %s (slowest %.1f fps)"
              % ("met" if worst >= 30 else "MISSED", worst))
        dense_rows = [r for r in rows if "dense" in r[0]]
        worst = min(float(r[1]) for r in dense_rows)
        opened = all(r[3] == "1" for r in dense_rows)
        print("bar: >= 30 fps at 1280x720 with a dense code in view, and the code read: %s "
              "(slowest %.1f fps, %s)" % ("met" if worst >= 30 and opened else "MISSED", worst,
                                          "read in every stream" if opened else "not read in every stream"))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def print_table(head, rows, markdown):
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    def line(cells):
        parts = [str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return ("| " + " | ".join(parts) + " |") if markdown else "  ".join(parts)
    print(line(head))
    print(("|" + "|".join("-" * (w + 2) if i == 0 else "-" * (w + 1) + ":" for i, w in enumerate(widths)) + "|")
          if markdown else "  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


if __name__ == "__main__":
    main()
