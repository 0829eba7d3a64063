#!/usr/bin/env python3
"""Live text benchmark: `qrseal scan --stream - --text` with text and a dense code in view.

Streams of 1280x720 YUV4MPEG2 frames are made here (live.py's dense version-40-L code,
drifting a pixel or two every frame, as held up to a camera, on a noisy background) with a
card of printed text beside the code (ImageMagick `convert`, DejaVu fonts) whose words
change every --period frames, one frame in four of each period without the card, and three
signs that stay, scattered at the top and bottom.

1. Frame rate, text off and on: frames per second from two runs of different lengths,
   (N2 - N1) / (t2 - t1), median of --runs pairs, as live.py measures it. Text off runs on one
   core (taskset -c 0), text on on two (-c 0,1: one reads codes, the other recognises text),
   and on one for comparison. The stream is piped in, so text is paced in real time.
2. Latency: the same frames written at 30 fps, in real time, into one process; for each card
   the time from writing its first frame to reading the first add (or update) event of its
   text, and how many frames after its appearance the frame recognised was.
3. Page modes on these frames: each frame with a card alone in a stream of 4 copies (the
   first is new, the second is recognised, the third settles it), read by
   `qrseal scan --stream FILE --text --text-layout page|sparse`: word recall in the text
   added (the card's and the signs' words found), extra words (found but on neither) and
   time per stream; and the add and update events of the changing stream itself, read from
   a file, for each mode.

Usage: python3 bench/livetext.py [--qrseal PATH] [--runs N] [--frames N] [--period N] [--quick] [--markdown]
Python 3 standard library, ImageMagick, qrencode (make setup). See bench/README.md, "Live text".
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
import threading
import time

from live import DENSE_SIDE, find_qrseal, noise_table, print_table, read_png, render_dense

WIDTH, HEIGHT = 1280, 720
BACKGROUND = 170
WORDS = ("garden river window letter morning station market bridge silver orange quiet simple yellow "
         "broken evening north summer winter paper table corner music story yesterday coffee ticket "
         "platform museum harbour village").split()
FONTS = ["DejaVu-Sans", "DejaVu-Serif", "DejaVu-Sans-Bold"]
# Signs that stay where they are in every frame, scattered as in a camera's view: (text, x, y, points).
SIGNS = [("Platform 4", 700, 12, 22), ("EXIT", 1150, 14, 26), ("Tickets and Information", 690, 650, 20)]


def render_card(text_lines, font, points, workdir, border=24):
    """A card of dark text on light paper, as (width, height, rows)."""
    png = os.path.join(workdir, "card.png")
    labels = ["label:" + line for line in text_lines]
    subprocess.run(["convert", "-font", font, "-pointsize", str(points), "-background", "white",
                    "-fill", "black"] + labels + ["-append", "-bordercolor", "white", "-border", str(border), png],
                   check=True)
    return read_png(png, workdir)


class TextStream:
    """Frames: the dense code drifting at the left, a card of text at the right that changes
    every `period` frames (absent in the last quarter of each period)."""

    def __init__(self, workdir, period, noise=3, seed=11):
        rng = random.Random(seed)
        self.period = period
        bg = noise_table(BACKGROUND, noise, rng)
        self.backgrounds = [rng.randbytes(WIDTH * HEIGHT).translate(bg) for _ in range(6)]
        cw, ch, rows = render_dense(DENSE_SIDE, workdir)
        self.code = (cw, ch, [bytes(20 + v * 215 // 255 for v in row) for row in rows])
        self.signs = []
        for text, x, y, points in SIGNS:
            w, h, rows = render_card([text], "DejaVu-Sans-Bold", points, workdir, border=6)
            self.signs.append((x, y, (w, h, [bytes(35 + v * 190 // 255 for v in row) for row in rows])))
        self.sign_words = " ".join(text for text, *_ in SIGNS).split()
        self.cards = []
        for i in range(8):
            lines = [" ".join(rng.choice(WORDS) for _ in range(3)) for _ in range(3)]
            w, h, card_rows = render_card(lines, FONTS[i % len(FONTS)], 24 + 3 * (i % 3), workdir)
            # Paper at 225, ink near 35: a printout under room light.
            self.cards.append((lines, (w, h, [bytes(35 + v * 190 // 255 for v in row) for row in card_rows])))

    def header(self):
        return b"YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg\n" % (WIDTH, HEIGHT)

    def card_at(self, n):
        """The card shown in frame n (from 0), or None."""
        if n % self.period >= self.period * 3 // 4:
            return None
        return self.cards[(n // self.period) % len(self.cards)]

    def luma(self, n):
        luma = bytearray(self.backgrounds[n % len(self.backgrounds)])
        cw, ch, rows = self.code
        x0 = 40 + int(12 * ((n % 40) / 20 - 1)) + 12
        y0 = (HEIGHT - ch) // 2 + int(8 * (((n + 10) % 40) / 20 - 1))
        for y, row in enumerate(rows):
            start = (y0 + y) * WIDTH + x0
            luma[start:start + cw] = row
        for x0, y0, (w, h, rows) in self.signs:
            for y, row in enumerate(rows):
                start = (y0 + y) * WIDTH + x0
                luma[start:start + w] = row
        card = self.card_at(n)
        if card:
            w, h, rows = card[1]
            x0, y0 = 800, (HEIGHT - h) // 2
            w = min(w, WIDTH - x0 - 8)
            for y, row in enumerate(rows):
                start = (y0 + y) * WIDTH + x0
                luma[start:start + w] = row[:w]
        return bytes(luma)

    def frame(self, n):
        chroma = bytes([128]) * (2 * ((WIDTH + 1) // 2) * ((HEIGHT + 1) // 2))
        return b"FRAME\n" + self.luma(n) + chroma

    def stream(self, count):
        return self.header() + b"".join(self.frame(n) for n in range(count))


def pinned(cores, cmd):
    taskset = shutil.which("taskset")
    return ([taskset, "-c", cores] + cmd) if taskset else cmd


def events_of(stdout):
    return [json.loads(line) for line in stdout.decode().splitlines() if line.strip().startswith("{")]


def fps(qrseal, maker, short, long, runs, env, cores, extra):
    streams = {n: maker.stream(n) for n in (short, long)}
    rates, result = [], None
    for _ in range(runs):
        times = {}
        for n, data in streams.items():
            start = time.perf_counter()
            proc = subprocess.run(pinned(cores, [qrseal, "scan", "--stream", "-", "--json", "--no-store"] + extra),
                                  input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=900)
            times[n] = time.perf_counter() - start
            if proc.returncode not in (0, 1):
                sys.exit("livetext.py: qrseal failed (%d): %s" % (proc.returncode, proc.stderr.decode()[-500:]))
            if n == long:
                events = events_of(proc.stdout)
                codes = sum(1 for e in events if e["event"] == "add" and e.get("format") != "text")
                texts = sum(1 for e in events if e["event"] == "add" and e.get("format") == "text")
                result = (codes, texts)
        rates.append((long - short) / max(times[long] - times[short], 1e-9))
    return statistics.median(rates), result


def latency(qrseal, maker, count, env):
    """Frames written at 30 fps; for each card, seconds and frames from its first frame to its add."""
    proc = subprocess.Popen(pinned("0,1", [qrseal, "scan", "--stream", "-", "--json", "--no-store", "--text"]),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    written = {}
    seen = []

    def read():
        for line in proc.stdout:
            if line.startswith(b"{"):
                seen.append((time.perf_counter(), json.loads(line)))

    reader = threading.Thread(target=read)
    reader.start()
    frames = [maker.frame(n) for n in range(count)]
    proc.stdin.write(maker.header())
    start = time.perf_counter()
    for n, data in enumerate(frames):
        delay = start + n / 30 - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        written[n] = time.perf_counter()
        proc.stdin.write(data)
        proc.stdin.flush()
    proc.stdin.close()
    proc.wait()
    reader.join()
    seconds, lags, shown, found = [], [], 0, 0
    for first in range(0, count, maker.period):
        card = maker.card_at(first)
        if card is None or first + maker.period * 3 // 4 > count:
            continue
        shown += 1
        words = set(" ".join(card[0]).split())
        for at, event in seen:
            if (event.get("format") == "text" and event["event"] in ("add", "update") and event["frame"] - 1 >= first
                    and len(words & set(event["text"].split())) >= 2):
                seconds.append(at - written[first])
                lags.append(event["frame"] - 1 - first)
                found += 1
                break
    return shown, found, seconds, lags


def layouts(qrseal, maker, frames, count, env, workdir):
    """For each layout: the card's and signs' words found, extra words and time, over short
    streams of one frame each (4 copies, read from a file: every frame due is recognised)."""
    rows = []
    paths = []
    stream = os.path.join(workdir, "changing.y4m")
    with open(stream, "wb") as f:
        f.write(maker.stream(count))
    for n in frames:
        path = os.path.join(workdir, "still%03d.y4m" % n)
        with open(path, "wb") as f:
            f.write(maker.header() + maker.frame(n) * 4)
        paths.append((n, path))
    for layout in ("page", "sparse"):
        found = total = extra = 0
        times = []
        for n, path in paths:
            truth = " ".join(maker.card_at(n)[0]).split() + maker.sign_words
            start = time.perf_counter()
            proc = subprocess.run(pinned("0", [qrseal, "scan", "--stream", path, "--text", "--json", "--no-store",
                                               "--text-layout", layout]), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=env)
            times.append(time.perf_counter() - start)
            words = [w for e in events_of(proc.stdout) if e.get("format") == "text" and e["event"] == "add"
                     for w in e["text"].split()]
            remaining = list(words)
            for w in truth:
                if w in remaining:
                    remaining.remove(w)
                    found += 1
            total += len(truth)
            extra += len(remaining)
        # The changing stream itself, from a file: how many events its text makes.
        proc = subprocess.run(pinned("0", [qrseal, "scan", "--stream", stream, "--text", "--json", "--no-store",
                                           "--text-layout", layout]), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=env)
        kinds = [e["event"] for e in events_of(proc.stdout) if e.get("format") == "text"]
        rows.append([layout, "%.1f %%" % (100 * found / max(1, total)), str(extra),
                     "%.0f" % (1000 * statistics.median(times)), str(kinds.count("add")), str(kinds.count("update"))])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qrseal")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--frames", type=int, default=300, help="frames in the long run (the short one has a fifth)")
    ap.add_argument("--period", type=int, default=60, help="frames each card stays (a quarter of them without it)")
    ap.add_argument("--quick", action="store_true", help="1 run, 150 frames")
    ap.add_argument("--markdown", action="store_true")
    opts = ap.parse_args()
    if opts.quick:
        opts.runs, opts.frames = 1, 150
    qrseal = find_qrseal(opts.qrseal)
    long = max(20, opts.frames)
    short = max(4, long // 5)
    workdir = tempfile.mkdtemp(prefix="qrseal-livetext-")
    env = dict(os.environ, XDG_DATA_HOME=workdir, XDG_CONFIG_HOME=workdir)
    env.pop("QRSEAL_INBOX", None)
    try:
        version = subprocess.run([qrseal, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
        print("binary %s (%s); %d runs of %d and %d frames; a card every %d frames; load %.2f"
              % (qrseal, version, opts.runs, short, long, opts.period, os.getloadavg()[0]), file=sys.stderr)
        maker = TextStream(workdir, opts.period)
        rows = []
        for label, cores, extra in (("text off", "0", []), ("text on", "0,1", ["--text"]),
                                    ("text on, one core", "0", ["--text"])):
            print("livetext.py: " + label, file=sys.stderr)
            rate, (codes, texts) = fps(qrseal, maker, short, long, opts.runs, env, cores, extra)
            rows.append([label, cores, "%.1f" % rate, "%.1f" % (1000 / rate), str(codes), str(texts)])
        print("1280x720, dense 40-L code and a card of text in view, %d frames" % long)
        print_table(["scan", "cores", "fps", "ms/frame", "code adds", "text adds"], rows, opts.markdown)
        on = float(rows[1][2])
        print("\nbar: >= 30 fps at 1280x720 with text on: %s (%.1f fps)" % ("met" if on >= 30 else "MISSED", on))

        print("livetext.py: latency", file=sys.stderr)
        shown, found, seconds, lags = latency(qrseal, maker, long, env)
        print("\nlatency, frames written at 30 fps in real time (%d cards shown, %d reported)" % (shown, found))
        if seconds:
            print_table(["from a card's first frame to its add", "median", "worst"],
                        [["seconds", "%.2f" % statistics.median(seconds), "%.2f" % max(seconds)],
                         ["frames until the frame recognised", "%d" % statistics.median(lags), "%d" % max(lags)]],
                        opts.markdown)

        print("livetext.py: page modes", file=sys.stderr)
        stills = [n for n in range(0, min(long, 8 * opts.period), opts.period // 2) if maker.card_at(n)]
        print("\npage modes on %d of these frames, each alone in a 4-frame stream, one core" % len(stills))
        count = min(long, 2 * opts.period)
        print_table(["--text-layout", "words found", "extra words", "ms / stream",
                     "adds in %d frames" % count, "updates"],
                    layouts(qrseal, maker, stills, count, env, workdir), opts.markdown)
        print("(the %d frames show %d cards of 3 lines and 3 signs: %d adds and no update would be exact)"
              % (count, (count + opts.period - 1) // opts.period, 3 * ((count + opts.period - 1) // opts.period) + 3))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
