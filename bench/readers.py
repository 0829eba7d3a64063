"""The readers the bench compares, each run as one process over a folder's images.

Every reader answers `scan(samples)` with a Scan: what it read from each image (a list of
symbols, each a list of candidate byte strings), which images it failed on, the processes it
ran (for the time and for crashes) and notes. A reader that dies by a signal loses the rest of
its call, as it would for a user; `crashers` then runs each image it did not report alone to
name the images that crash it.
"""

import base64
import binascii
import html
import json
import os
import re
import subprocess
import time


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

    def crashed(self):
        return self.rc is not None and self.rc < 0 and not self.timed_out

    def problem(self):
        if self.failed:
            return "cannot run: " + self.failed
        if self.timed_out:
            return "timed out"
        if self.crashed():
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


class Scan:
    def __init__(self):
        self.reads = {}       # path -> [symbol, ...]; symbol = [candidate bytes, ...]
        self.failed = set()   # paths the reader failed on (error, or lost to a crash)
        self.calls = []
        self.notes = []
        self.crashers = []    # image paths that crash the reader on their own
        self.inner_ms = None  # time measured inside the process, when the reader reports it

    def add(self, path, symbol):
        self.reads.setdefault(path, []).append(symbol)

    def ms(self):
        return sum(c.ms for c in self.calls)

    def crashed(self):
        return any(c.crashed() for c in self.calls)

    def ok(self):
        return not any(c.problem() for c in self.calls)


def json_symbols(out):
    """JSON lines with `source` and `bytes_base64` and/or `text` -> [(source, symbol)], bad lines."""
    found, bad, extra = [], 0, []
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
        if "source" not in obj or "error" in obj:
            extra.append(obj)
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
            # An event with no payload, such as qrseal's "nothing_found" for a file with no
            # code or a part of a message still waiting for the others, is no symbol.
            if "event" in obj:
                extra.append(obj)
            else:
                bad += 1
            continue
        found.append((str(obj["source"]), cands))
    return found, bad, extra


def asks_add_ons(paths):
    """Whether a call reads only folders of EAN/UPC codes with add-ons (`*-extension-*`), where
    the expected text is the main code followed by its add-on's digits: there each reader is
    asked to read add-ons, as a user who wants them would ask (zxing-cpp and zbar read them
    only when asked, as qrseal does)."""
    return bool(paths) and all("-extension-" in os.path.basename(os.path.dirname(p)) for p in paths)


class Reader:
    name = "?"
    missing = "not installed"

    def __init__(self, exe, timeout):
        self.exe = exe
        self.timeout = timeout

    def available(self):
        return self.exe is not None

    def scan(self, samples, census=True):
        """Read samples in one call; census: name the images that crash the reader, if it crashed."""
        paths = [p for s in samples for p in s.paths]
        result = Scan()
        self.read(paths, [s for s in samples if s.kind == "bin"], result)
        for c in result.calls:
            if c.problem():
                result.notes.append("%s: %s" % (os.path.basename(c.cmd[0]), c.problem()))
        if result.crashed():
            lost = [p for p in paths if p not in result.reads and p not in result.failed]
            result.failed.update(lost)
            if census:
                result.crashers = [p for p in lost if self.crashes_alone(p, samples)]
        return result

    def crashes_alone(self, path, samples):
        alone = Scan()
        self.read([path], [s for s in samples if s.kind == "bin" and s.path == path], alone)
        return alone.crashed()

    def read(self, paths, bin_samples, result):
        """Run the reader over paths (bin_samples: those expecting raw bytes), fill result."""
        raise NotImplementedError


class QrsealReader(Reader):
    missing = "not built"

    def __init__(self, exe, timeout, effort):
        super().__init__(exe, timeout)
        self.effort = effort
        self.name = "qrseal " + effort

    def read(self, paths, bin_samples, result):
        # --no-store: the bench measures reading, and must not fill the user's inbox.
        add_ons = ["--ean-add-ons"] if asks_add_ons(paths) else []
        call = run([self.exe, "scan", "--json", "--no-store", "--effort", self.effort] + add_ons + paths,
                   self.timeout)
        result.calls.append(call)
        found, bad, _ = json_symbols(call.out)
        known = set(paths)
        by_base = {}
        for p in paths:
            by_base.setdefault(os.path.basename(p), []).append(p)
        unmatched = 0
        for source, symbol in found:
            p = source if source in known else os.path.abspath(source)
            if p not in known and len(by_base.get(os.path.basename(source), [])) == 1:
                p = by_base[os.path.basename(source)][0]
            if p not in known:
                unmatched += 1
                continue
            result.add(p, symbol)
        if bad:
            result.notes.append("%d unparsable JSON line(s)" % bad)
        if unmatched:
            result.notes.append("%d symbol(s) with an unknown \"source\"" % unmatched)
        if call.rc == 2:  # an image could not be read: blame the images stderr names
            err = call.err.decode("utf-8", "replace")
            result.failed.update(p for p in paths if p in err)
        elif call.rc not in (0, 1, None) and not call.problem():
            result.notes.append("exit %s: %s" % (call.rc, first_line(call.err)))


class ZbarReader(Reader):
    """zbarimg --xml, which names the file of each symbol; `--raw -Sbinary` per image of raw bytes."""
    name = "zbarimg"

    def read(self, paths, bin_samples, result):
        bins = {p for s in bin_samples for p in s.paths}
        texts = [p for p in paths if p not in bins]
        if texts:
            add_ons = ["-Sean2.enable", "-Sean5.enable"] if asks_add_ons(texts) else []
            call = run([self.exe, "--xml", "-q"] + add_ons + texts, self.timeout)
            result.calls.append(call)
            mangled = self.parse(call.out, texts, result)
            if call.rc not in (0, 4, None) and not call.problem():
                result.notes.append("exit %s: %s" % (call.rc, first_line(call.err)))
            # zbarimg 0.23 writes non-ASCII data in XML as base64 of sign-extended bytes
            # (0xE3 becomes FF FF E3); what it read is taken from --raw instead, untimed.
            for p in mangled:
                result.reads.pop(p, None)
                self.read_raw(p, [], result, timed=False)
        for p in (p for p in paths if p in bins):
            self.read_raw(p, ["-Sbinary"], result, timed=True)

    def read_raw(self, path, extra, result, timed):
        call = run([self.exe, "--raw", "-q"] + extra + [path], self.timeout)
        if timed:
            result.calls.append(call)
        if call.out and not call.problem():
            if extra:  # -Sbinary: the bytes as they are, no newline added
                result.add(path, [call.out, call.out[:-1]] if call.out.endswith(b"\n") else [call.out])
            else:      # each symbol and a newline: a text with line breaks, or several symbols
                text = call.out[:-1] if call.out.endswith(b"\n") else call.out
                result.add(path, [text] + text.split(b"\n"))

    def parse(self, out, group, result):
        """Add the symbols of zbarimg's XML to result; returns the paths with base64 data.

        By hand rather than with an XML parser, which would turn the CR LF inside CDATA into
        LF. A call cut short by a crash ends in the middle of a <source>: its complete symbols
        still count."""
        mangled = []
        known = {p: p for p in group}
        known.update({os.path.abspath(p): p for p in group})
        for href, body in ZBAR_SOURCE.findall(out):
            href = html.unescape(href.decode("utf-8", "surrogateescape"))
            path = known.get(href, known.get(os.path.abspath(href)))
            if path is None:
                continue
            for attrs, data in ZBAR_DATA.findall(body):
                if b"format='base64'" in attrs:
                    mangled.append(path)
                    break
                result.add(path, [b"".join(ZBAR_CDATA.findall(data))])
            # zbar reports an add-on as a symbol of its own (EAN-2, EAN-5) beside its main
            # code; where add-ons were asked for, each main code is also taken with each add-on.
            if asks_add_ons(group):
                symbols = [(kind, b"".join(ZBAR_CDATA.findall(data))) for kind, data in ZBAR_SYMBOL.findall(body)]
                add_ons = [text for kind, text in symbols if kind in (b"EAN-2", b"EAN-5")]
                for kind, text in symbols:
                    if add_ons and kind not in (b"EAN-2", b"EAN-5"):
                        result.add(path, [text + a for a in add_ons])
        return mangled


ZBAR_SOURCE = re.compile(rb"<source href='([^']*)'>(.*?)(?=<source |\Z)", re.DOTALL)
ZBAR_DATA = re.compile(rb"<data([^>]*)>(.*?)</data>", re.DOTALL)
ZBAR_SYMBOL = re.compile(rb"<symbol type='([^']*)'[^>]*><data[^>]*>(.*?)</data>", re.DOTALL)
ZBAR_CDATA = re.compile(rb"<!\[CDATA\[(.*?)\]\]>", re.DOTALL)


ZX_BLOCK = re.compile(rb'^Text: +"(.*?)"\r?\nBytes:', re.DOTALL | re.MULTILINE)


class ZXingReaderReader(Reader):
    """Debian's ZXingReader 1.4: plain output (`File:` before each image's symbols when there
    are several files; `Text:` unescaped, unlike `-1`), and `-bytes` per image of raw bytes.
    It has no switch for EAN add-ons."""
    name = "ZXingReader"

    def read(self, paths, bin_samples, result):
        bins = {p for s in bin_samples for p in s.paths}
        texts = [p for p in paths if p not in bins]
        if texts:
            call = run([self.exe] + texts, self.timeout)
            result.calls.append(call)
            self.parse(call.out, texts, result)
        for p in (p for p in paths if p in bins):
            call = run([self.exe, "-bytes", p], self.timeout)
            result.calls.append(call)
            if call.out and not call.problem():
                result.add(p, [call.out])

    def parse(self, out, texts, result):
        if len(texts) == 1:
            for t in ZX_BLOCK.findall(out):
                result.add(texts[0], [t])
            return
        known = {p: p for p in texts}
        # Each image's output starts with "File:       PATH"; split on those lines.
        parts = re.split(rb"^File: +(.*?)\r?\n", out, flags=re.MULTILINE)
        for i in range(1, len(parts) - 1, 2):
            path = known.get(parts[i].decode("utf-8", "surrogateescape"))
            if path is None:
                continue
            for t in ZX_BLOCK.findall(parts[i + 1]):
                result.add(path, [t])


class ZxingCppReader(Reader):
    """zxing-cpp 3.1 through its Python bindings (bench/zxingcpp_read.py in the bench venv)."""
    name = "zxing-cpp 3.1"
    missing = "not installed (no bench venv: see bench/benchenv.py)"

    def __init__(self, python, script, timeout):
        super().__init__(python, timeout)
        self.script = script

    def read(self, paths, bin_samples, result):
        add_ons = ["--ean-add-ons"] if asks_add_ons(paths) else []
        call = run([self.exe, self.script] + add_ons + paths, self.timeout)
        result.calls.append(call)
        found, bad, extra = json_symbols(call.out)
        known = set(paths)
        for source, symbol in found:
            if source in known:
                result.add(source, symbol)
        for obj in extra:
            if "elapsed_ms" in obj:
                result.inner_ms = (result.inner_ms or 0.0) + float(obj["elapsed_ms"])
            elif obj.get("source") in known:
                result.failed.add(obj["source"])
        if bad:
            result.notes.append("%d unparsable JSON line(s)" % bad)
        if call.rc not in (0, None) and not call.problem():
            result.notes.append("exit %s: %s" % (call.rc, first_line(call.err)))
