#!/usr/bin/env python3
"""The desktop app's live preview: `qrseal-desktop --stream -` fed a 1280x720 YUV4MPEG2 stream
at 30 frames per second, holding a text card and a dense QR code that enters and leaves the
view, under Xvfb, measured against issue 27's bar:

    start to first frame                 <= 0.5 s
    preview frame rate                   >= 30 fps
    code entering the view -> outline    median <= 150 ms
    longest main-loop stall              <= 50 ms
    resident memory after --seconds      <= 250 MB (the bar's duration is ten minutes)

The figures come from the app's trace (QRSEAL_DESKTOP_TRACE=PATH: JSON lines, see
bench/README.md, "The desktop app's preview") and from /proc/PID/status for memory. The
stream is written here, paced at --fps, from the same dense code as bench/live.py (a full
version-40-L sealed-like code, 600 pixels wide, grey with sensor-like noise and drifting a
pixel or two a frame) and a card of printed text; the code is in view for --in-seconds, then
out for --out-seconds, over and over, after a first second of the card alone. "Entering the
view" is the moment the first frame holding the code is written to the app's standard input
(CLOCK_MONOTONIC, the clock of the trace).

No peers: no other program here runs a GTK preview of a stream.

Usage: python3 bench/desktop.py [--app PATH] [--seconds N] [--fps N] [--in-seconds S]
                                [--out-seconds S] [--renderer NAME] [--markdown] [--json-out F]
Python 3 standard library, Xvfb, dbus-run-session and ImageMagick (make setup installs them).
Without a DISPLAY (or with --xvfb) it starts its own Xvfb.
"""

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from live import find_qrseal, noise_table, read_png, render_dense

REPO = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 1280, 720
BACKGROUND, NOISE = 170, 6
CARD_TEXT = ("Table 12 - tonight's menu\nSoup of the day 4.50\nGrilled fish 14.00\n"
             "Ask for the wine list\nwww.example.org/menu")
BARS = {"start": 0.5, "fps": 30.0, "latency_ms": 150.0, "stall_ms": 50.0, "rss_mb": 250.0}


def log(message):
    sys.stderr.write("desktop.py: %s\n" % message)


# ---------------------------------------------------------------------------------------
# The stream


def text_card(workdir):
    """The card: dark printed text on white, as a grey sprite (rows of bytes)."""
    png = os.path.join(workdir, "card.png")
    subprocess.run(["convert", "-size", "480x", "-background", "white", "-fill", "black", "-font", "DejaVu-Sans",
                    "-pointsize", "30", "caption:" + CARD_TEXT, "-bordercolor", "white", "-border", "20", png],
                   check=True)
    return read_png(png, workdir)


class Frames:
    """The frames: 40 with the code (drifting on a 40-frame circle, noise varying) and 6
    without, each with the card; built once, then written in turn."""

    def __init__(self, code, card, seed=27):
        import random
        rng = random.Random(seed)
        table = noise_table(BACKGROUND, NOISE, rng)
        backgrounds = [rng.randbytes(WIDTH * HEIGHT).translate(table) for _ in range(6)]
        chroma = bytes([128]) * (2 * ((WIDTH + 1) // 2) * ((HEIGHT + 1) // 2))
        cw, ch, card_rows = card
        card_x, card_y = WIDTH - cw - 60, (HEIGHT - ch) // 2
        # Printed black is never 0 nor paper 255 in a camera's picture.
        card_rows = [bytes(25 + b * 205 // 255 for b in row) for row in card_rows]
        w, h, rows = code
        sprites = []
        for _ in range(6):
            sprite = []
            for row in rows:
                noise = rng.randbytes(w)
                sprite.append(bytes(max(0, min(255, 20 + row[i] * 215 // 255 + noise[i] % 13 - 6)) for i in range(w)))
            sprites.append(sprite)

        def frame(n, with_code):
            luma = bytearray(backgrounds[n % len(backgrounds)])
            for y, row in enumerate(card_rows):
                start = (card_y + y) * WIDTH + card_x
                luma[start:start + cw] = row
            if with_code:
                # Drift on a small circle, a pixel or two a frame, as a code held up to a camera.
                x0 = 72 + int(12 * ((n % 40) / 20 - 1))
                y0 = (HEIGHT - h) // 2 + int(8 * (((n + 10) % 40) / 20 - 1))
                for y, row in enumerate(sprites[n % len(sprites)]):
                    start = (y0 + y) * WIDTH + x0
                    luma[start:start + w] = row
            return b"FRAME\n" + bytes(luma) + chroma

        self.inside = [frame(n, True) for n in range(40)]
        self.outside = [frame(n, False) for n in range(6)]

    @staticmethod
    def header(fps):
        return b"YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg\n" % (WIDTH, HEIGHT, fps)


class Feeder(threading.Thread):
    """Writes the stream to the app's standard input at `fps`, remembering when each frame
    (numbered from 1) began to be written, and which frames hold the code."""

    def __init__(self, pipe, frames, fps, seconds, lead_in, in_seconds, out_seconds):
        super().__init__(daemon=True)
        self.pipe, self.frames, self.fps = pipe, frames, fps
        self.total = int(seconds * fps)
        self.lead_in, self.inside, self.outside = int(lead_in * fps), int(in_seconds * fps), int(out_seconds * fps)
        self.written = {}     # frame number -> CLOCK_MONOTONIC when its write began
        self.entries = []     # frame numbers where the code enters the view
        self.late = 0         # frames written more than a frame's time after their moment
        self.broken = None

    def holds_code(self, number):
        n = number - 1
        if n < self.lead_in:
            return False
        return (n - self.lead_in) % (self.inside + self.outside) < self.inside

    def run(self):
        try:
            self.pipe.write(Frames.header(self.fps))
            start = time.monotonic()
            for number in range(1, self.total + 1):
                due = start + (number - 1) / self.fps
                now = time.monotonic()
                if due > now:
                    time.sleep(due - now)
                elif now - due > 1 / self.fps:
                    self.late += 1
                code = self.holds_code(number)
                if code and not self.holds_code(number - 1):
                    self.entries.append(number)
                frame = self.frames.inside[number % 40] if code else self.frames.outside[number % 6]
                self.written[number] = time.monotonic()
                self.pipe.write(frame)
                self.pipe.flush()
        except (BrokenPipeError, OSError) as error:
            self.broken = error
        finally:
            try:
                self.pipe.close()
            except OSError:
                pass


# ---------------------------------------------------------------------------------------
# The session: Xvfb and a D-Bus session, as a desktop gives


def start_xvfb():
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        if not chunk:
            sys.exit("desktop.py: Xvfb did not start")
        number += chunk
    os.close(read)
    return xvfb, ":" + number.decode().strip()


def app_pid(wrapper_pid, name="qrseal-desktop", timeout=10):
    """The app's pid under dbus-run-session (its child)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for task in Path("/proc/%d/task" % wrapper_pid).glob("*/children"):
            for pid in task.read_text().split():
                try:
                    if Path("/proc/%s/comm" % pid).read_text().strip() == name[:15]:
                        return int(pid)
                except OSError:
                    pass
        time.sleep(0.01)
    return None


def start_seconds(pid):
    """When the process started, in seconds since boot (/proc/PID/stat, in clock ticks), which
    is CLOCK_MONOTONIC's origin on a machine that never slept."""
    try:
        stat = Path("/proc/%d/stat" % pid).read_text()
        return int(stat[stat.rindex(")") + 2:].split()[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def to_monotonic(events, launched, app_start):
    """Puts every event's t on CLOCK_MONOTONIC: a trace timed from the process's start (its t
    far below the moment the bench launched it) is moved by the process's start time."""
    if not events or events[0].get("t", 0) >= launched - 1:
        return "monotonic"
    if app_start is None:
        return None
    for event in events:
        event["t"] = event["t"] + app_start
    return "since the process started"


def rss_mb(pid):
    try:
        for line in Path("/proc/%d/status" % pid).read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


# ---------------------------------------------------------------------------------------
# Reading the trace


def read_trace(path):
    events = []
    try:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    event = json.loads(line)
                except json.JSONDecodeError:
                    log("trace line %d is not JSON: %r" % (number, line[:80]))
                    continue
                if not isinstance(event, dict) or "event" not in event:
                    log("trace line %d has no event: %r" % (number, line[:80]))
                    continue
                events.append(event)
    except FileNotFoundError:
        pass
    return events


def percentile(values, p):
    values = sorted(values)
    if not values:
        return None
    k = (len(values) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def analyse(events, feeder, launched, fps):
    shown = [e for e in events if e["event"] == "frame-shown"]
    first = next((e for e in events if e["event"] == "first-frame"), None)
    added = [e for e in events if e["event"] == "outline-added"]
    stalls = [e for e in events if e["event"] == "stall"]
    figures = {"events": len(events)}
    figures["start_s"] = first["t"] - launched if first else None

    # Frames shown per second, in one-second windows from the first frame shown to the last
    # frame written (the first window is left out: the preview settles).
    if len(shown) >= 2:
        times = sorted(e["t"] for e in shown)
        begin, end = times[0], max(feeder.written.values()) if feeder.written else times[-1]
        windows = []
        second = begin + 1
        while second + 1 <= end:
            windows.append(sum(1 for t in times if second <= t < second + 1))
            second += 1
        figures["fps_median"] = statistics.median(windows) if windows else None
        figures["fps_lowest"] = min(windows) if windows else None
        figures["fps_overall"] = (len(times) - 1) / (times[-1] - times[0]) if times[-1] > times[0] else None
        figures["frames_shown"] = len(times)
        gaps = [b - a for a, b in zip(times, times[1:])]
        figures["longest_gap_ms"] = max(gaps) * 1000
    figures["frames_written"] = len(feeder.written)
    figures["frames_late"] = feeder.late

    # Each entry of the code: the first outline added from a frame of that stay in view.
    latencies, from_shown, missed = [], [], 0
    shown_at = {e.get("frame"): e["t"] for e in shown}
    for entry in feeder.entries:
        stay_end = entry
        while feeder.holds_code(stay_end + 1) and stay_end + 1 in feeder.written:
            stay_end += 1
        hits = [e for e in added if entry <= e.get("frame", -1) <= stay_end and e["t"] >= feeder.written[entry]]
        if not hits:
            missed += 1
            continue
        hit = min(hits, key=lambda e: e["t"])
        latencies.append((hit["t"] - feeder.written[entry]) * 1000)
        if entry in shown_at:
            from_shown.append((hit["t"] - shown_at[entry]) * 1000)
    figures["entries"] = len(feeder.entries)
    figures["entries_missed"] = missed
    figures["latency_median_ms"] = statistics.median(latencies) if latencies else None
    figures["latency_p90_ms"] = percentile(latencies, 0.9)
    figures["latency_from_shown_median_ms"] = statistics.median(from_shown) if from_shown else None
    figures["stall_longest_ms"] = max((e.get("ms", 0) for e in stalls), default=0 if events else None)
    figures["stalls_over_50ms"] = sum(1 for e in stalls if e.get("ms", 0) > 50)
    return figures


# ---------------------------------------------------------------------------------------
# Output


def fmt(value, unit="", digits=0):
    if value is None:
        return "—"
    return ("%." + str(digits) + "f%s") % (value, unit)


def verdict(value, bar, lower_is_better=True):
    if value is None:
        return "not measured"
    return "meets" if (value <= bar if lower_is_better else value >= bar) else "MISSES"


def table(rows, headers, markdown):
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    out = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)), "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(row, widths)) for row in rows]
    return "\n".join(out)


def report(f, rss, args, markdown):
    fps_bar = min(BARS["fps"], args.fps)
    rss_end = rss[-1][1] if rss else None
    rows = [
        ["start to first frame", fmt(f.get("start_s"), " s", 2), "<= %.1f s" % BARS["start"],
         verdict(f.get("start_s"), BARS["start"])],
        ["preview frame rate (median 1-s window)", fmt(f.get("fps_median"), " fps", 1),
         ">= %.0f fps" % BARS["fps"], verdict(f.get("fps_median"), fps_bar * 0.98, lower_is_better=False)],
        ["  lowest 1-s window / overall", "%s / %s" % (fmt(f.get("fps_lowest"), " fps"), fmt(f.get("fps_overall"), " fps", 1)),
         "", ""],
        ["code entering view -> outline (median)", fmt(f.get("latency_median_ms"), " ms"),
         "<= %.0f ms" % BARS["latency_ms"], verdict(f.get("latency_median_ms"), BARS["latency_ms"])],
        ["  p90; from the frame shown (median)", "%s; %s" % (fmt(f.get("latency_p90_ms"), " ms"),
                                                      fmt(f.get("latency_from_shown_median_ms"), " ms")), "", ""],
        ["  entries of the code / missed", "%d / %d" % (f.get("entries", 0), f.get("entries_missed", 0)), "", ""],
        ["longest main-loop stall", fmt(f.get("stall_longest_ms"), " ms"), "<= %.0f ms" % BARS["stall_ms"],
         verdict(f.get("stall_longest_ms"), BARS["stall_ms"])],
        ["  stalls > 50 ms; longest gap between frames shown", "%s; %s" % (
            f.get("stalls_over_50ms", "—") if f.get("events") else "—", fmt(f.get("longest_gap_ms"), " ms")), "", ""],
        ["resident memory after %d s" % args.seconds, fmt(rss_end, " MB"),
         "<= %.0f MB after 600 s" % BARS["rss_mb"], verdict(rss_end, BARS["rss_mb"])],
    ]
    print(("### " if markdown else "") + "qrseal-desktop --stream -, %dx%d at %d fps, %d s, a dense code and a text card"
          % (WIDTH, HEIGHT, args.fps, args.seconds))
    print()
    print(table(rows, ["measure", "qrseal-desktop", "bar", "verdict"], markdown))
    print()
    if rss:
        step = max(1, len(rss) // 10)
        samples = rss[::step] + ([rss[-1]] if (len(rss) - 1) % step else [])
        print(table([[fmt(t, " s"), fmt(mb, " MB", 1)] for t, mb in samples], ["time", "resident memory"], markdown))
        print()
    print("frames written %d (%d late), shown %s; trace events %d, timed %s; peers: none run a GTK preview here"
          % (f.get("frames_written", 0), f.get("frames_late", 0), f.get("frames_shown", "—"), f.get("events", 0),
             f.get("trace_clock") or "—"))
    if not f.get("events"):
        print("the app wrote no trace: it does not implement QRSEAL_DESKTOP_TRACE yet (bench/README.md)")


# ---------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app", help="qrseal-desktop to run (default .build/release, else .build/debug)")
    parser.add_argument("--seconds", type=float, default=20, help="how long to stream (default 20; the bar's memory figure is for 600)")
    parser.add_argument("--fps", type=int, default=30, help="frames per second of the stream (default 30)")
    parser.add_argument("--in-seconds", type=float, default=3, help="seconds the code stays in view (default 3)")
    parser.add_argument("--out-seconds", type=float, default=1.5, help="seconds it stays out (default 1.5)")
    parser.add_argument("--rss-interval", type=float, default=1, help="seconds between memory samples (default 1)")
    parser.add_argument("--renderer", help="GSK_RENDERER for the app (default: GTK's own choice; cairo, gl, ngl)")
    parser.add_argument("--xvfb", action="store_true", help="start an Xvfb even when DISPLAY is set")
    parser.add_argument("--keep", help="keep the trace and the app's output in this folder")
    parser.add_argument("--markdown", action="store_true", help="tables as Markdown")
    parser.add_argument("--json-out", help="write the figures as JSON to this file")
    args = parser.parse_args()
    app = find_qrseal(args.app, "qrseal-desktop", "desktop.py")
    for tool in ("dbus-run-session", "convert") + (("Xvfb",) if args.xvfb or not os.environ.get("DISPLAY") else ()):
        if not shutil.which(tool):
            sys.exit("desktop.py: %s is missing: make setup installs it" % tool)

    work = tempfile.mkdtemp(prefix="qrseal-desktop-bench.")
    xvfb = None
    try:
        log("making the frames (a dense version-40 code, a text card)")
        frames = Frames(render_dense(600, work), text_card(work))
        env = dict(os.environ)
        if args.xvfb or not env.get("DISPLAY"):
            xvfb, env["DISPLAY"] = start_xvfb()
        home = os.path.join(work, "home")
        os.makedirs(os.path.join(home, "runtime"), mode=0o700)
        trace = os.path.join(args.keep or work, "trace.jsonl")
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            if os.path.exists(trace):
                os.unlink(trace)
        env.update({"HOME": home, "XDG_RUNTIME_DIR": os.path.join(home, "runtime"),
                    "XDG_DATA_HOME": os.path.join(home, "data"), "XDG_CONFIG_HOME": os.path.join(home, "config"),
                    "QRSEAL_INBOX": os.path.join(work, "inbox.sqlite"), "QRSEAL_DESKTOP_TRACE": trace,
                    "GDK_BACKEND": "x11", "GSETTINGS_BACKEND": "memory", "GTK_USE_PORTAL": "0"})
        for name in ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "GSK_RENDERER"):
            env.pop(name, None)
        if args.renderer:
            env["GSK_RENDERER"] = args.renderer
        output = open(os.path.join(args.keep or work, "app.log"), "wb")
        log("streaming %d s at %d fps to %s" % (args.seconds, args.fps, app))
        launched = time.monotonic()
        wrapper = subprocess.Popen(["dbus-run-session", "--", app, "--stream", "-", "--page", "scan"],
                                   stdin=subprocess.PIPE, stdout=output, stderr=output, env=env, start_new_session=True)
        feeder = Feeder(wrapper.stdin, frames, args.fps, args.seconds, 1.0, args.in_seconds, args.out_seconds)
        feeder.start()
        pid = app_pid(wrapper.pid)
        app_start = start_seconds(pid) if pid else None
        rss = []
        # An app that stops reading its stream blocks the feeder: the run ends on time anyway.
        deadline = launched + args.seconds + 5
        while feeder.is_alive() and wrapper.poll() is None and time.monotonic() < deadline:
            if pid:
                mb = rss_mb(pid)
                if mb is not None:
                    rss.append((time.monotonic() - launched, mb))
            feeder.join(args.rss_interval)
        time.sleep(1)  # the last frames' outlines
        if pid and rss_mb(pid) is not None:
            rss.append((time.monotonic() - launched, rss_mb(pid)))
        status = wrapper.poll()
        if status is None:
            os.killpg(wrapper.pid, signal.SIGTERM)
            try:
                wrapper.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(wrapper.pid, signal.SIGKILL)
                wrapper.wait()
        elif status != 0:
            output.flush()
            log("the app ended early with status %d:\n%s" % (status, open(output.name, errors="replace").read()[-2000:]))
        feeder.join(5)
        if feeder.broken or feeder.is_alive():
            log("the app stopped reading its stream after %d of %d frames" % (len(feeder.written), feeder.total))
        events = read_trace(trace)
        clock = to_monotonic(events, launched, app_start)
        if clock is None:
            log("the trace's times are not on CLOCK_MONOTONIC and the app's start time is unknown")
            events = []
        figures = analyse(events, feeder, launched, args.fps)
        figures["trace_clock"] = clock
        figures["rss_mb"] = [[round(t, 2), round(mb, 1)] for t, mb in rss]
        report(figures, rss, args, args.markdown)
        if args.json_out:
            with open(args.json_out, "w") as out:
                json.dump({"seconds": args.seconds, "fps": args.fps, "bars": BARS, "figures": figures}, out, indent=1)
    finally:
        if xvfb:
            xvfb.terminate()
            xvfb.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
