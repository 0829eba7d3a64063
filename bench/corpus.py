"""The bench corpus: images with their expected codes, and how a reader's output is scored.

A folder holds `NAME.png|jpg` with `NAME.txt` (UTF-8, one trailing newline not part of the
content), `NAME.bin` (bytes) or `NAME.codes.jsonl` (several codes, one `{"format", "text"}` a
line). A folder whose images have no expectation at all holds images without any code: every
symbol read there is a false positive. A folder of `NN-MM.png` beside one `NN.txt` is one
message in several symbols (QR Structured Append).

Conventions of zxing-cpp's expected texts (../shared/corpus/README.md), each also accepted in
the reader's own form: UPC-A as 13 digits (an add-on's digits after them), UPC-E as its 13-digit EAN-13 expansion, GS1 DataBar
(Expanded) as the element string without parentheses with the leading AI 01; a parenthesised
element string is accepted too.
"""

import json
import os
import re
from pathlib import Path

IMAGE_EXTS = {".png", ".jpg", ".jpeg"}
OUTCOMES = ("correct", "wrong", "missed", "error")


def natural_key(s):
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", s)]


# --------------------------------------------------------------------------- conventions

GS1_AI = re.compile(rb"\((\d{2,4})\)")
GS = b"\x1d"


def upce_to_upca(d):
    """UPC-E (8 digits: number system, 6 digits, check) to its 12-digit UPC-A expansion."""
    ns, x, check = d[0:1], d[1:7], d[7:8]
    last = x[5:6]
    if last in (b"0", b"1", b"2"):
        body = x[0:2] + last + b"0000" + x[2:5]
    elif last == b"3":
        body = x[0:3] + b"00000" + x[3:5]
    elif last == b"4":
        body = x[0:4] + b"00000" + x[4:5]
    else:
        body = x[0:5] + b"0000" + last
    return ns + body + check


def reader_forms(data):
    """The forms under which a read payload may match an expected one."""
    forms = [data]
    if data.isdigit():
        if len(data) in (12, 14, 17):                       # UPC-A (+ add-on) -> EAN-13
            forms.append(b"0" + data)
        if len(data) == 8 and data[0:1] in (b"0", b"1"):  # UPC-E -> EAN-13 of its UPC-A
            forms.append(b"0" + upce_to_upca(data))
        elif len(data) == 14:                               # DataBar GTIN without its AI
            forms.append(b"01" + data)
    if data.startswith(b"(") and GS1_AI.match(data):        # GS1 human-readable form
        forms.append(GS1_AI.sub(rb"\1", data))
    if data.startswith(b"]"):                               # a symbology identifier ]C1, ]e0...
        forms.append(data[3:])
    return forms


def same(expected, data):
    if data == expected:
        return True
    flat = expected.replace(GS, b"")
    return any(f == expected or f.replace(GS, b"") == flat for f in reader_forms(data))


# --------------------------------------------------------------------------- samples

class Sample:
    """One image (or one Structured Append sequence of images) and the codes it holds.

    codes: list of expected codes, each a list of accepted byte strings; [] for an image
    that holds no code."""

    def __init__(self, paths, kind, codes, name):
        self.paths = [str(p) for p in paths]
        self.path = self.paths[0]
        self.kind = kind      # "text", "bin", "multi", "sequence" or "empty"
        self.codes = codes
        self.name = name      # shown in lists: "code128-1/4.png"

    def units(self):
        """How many entries this sample adds to a table: its codes, or 1 for an empty image."""
        return len(self.codes) if self.kind in ("multi",) else 1


def text_forms(raw):
    # One trailing newline is not content, but some samples (qrcode-3/18, qrcode-5/16...)
    # do encode it, so the file taken verbatim is accepted too.
    return [raw[:-1], raw] if raw.endswith(b"\n") else [raw]


def load_folder(folder, root):
    """The samples of one folder, and the names of images skipped for want of expectations."""
    rel = str(folder.relative_to(root))
    images = sorted((p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_EXTS),
                    key=lambda p: natural_key(p.name))
    has_expect = any(p.suffix in (".txt", ".bin") or p.name.endswith(".codes.jsonl")
                     for p in folder.iterdir())
    samples, skipped, groups = [], [], {}
    for img in images:
        stem = img.stem  # not with_suffix: "gs1-figure-4.15.1-2.png" has dots in its name
        name = "%s/%s" % (rel, img.name)
        txt, binf, jsonl = (folder / (stem + ".txt"), folder / (stem + ".bin"),
                            folder / (stem + ".codes.jsonl"))
        if txt.is_file():
            samples.append(Sample([img], "text", [text_forms(txt.read_bytes())], name))
        elif binf.is_file():
            samples.append(Sample([img], "bin", [[binf.read_bytes()]], name))
        elif jsonl.is_file():
            codes = [[json.loads(line)["text"].encode("utf-8")]
                     for line in jsonl.read_text(encoding="utf-8").splitlines() if line.strip()]
            samples.append(Sample([img], "multi", codes, name))
        elif re.fullmatch(r"\d+-\d+", stem) and (folder / (stem.split("-")[0] + ".txt")).is_file():
            groups.setdefault(stem.split("-")[0], []).append(img)
        elif not has_expect:
            samples.append(Sample([img], "empty", [], name))
        else:
            skipped.append(img.name)
    for key, imgs in sorted(groups.items()):
        raw = (folder / (key + ".txt")).read_bytes()
        samples.append(Sample(imgs, "sequence", [text_forms(raw)], "%s/%s-*.png" % (rel, key)))
    return samples, skipped


def find_folders(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if any(os.path.splitext(f)[1].lower() in IMAGE_EXTS for f in filenames):
            found.append(Path(dirpath))
    return sorted(found, key=lambda p: natural_key(str(p.relative_to(root))))


# --------------------------------------------------------------------------- scoring

def score(sample, reads, failed):
    """Score what a reader read from one sample.

    reads: {path: [symbol, ...]}, each symbol a list of candidate byte strings (the same
    symbol as bytes and as text, say). failed: the reader died or reported an error before
    reading this sample. Returns a dict of OUTCOMES counts plus "fp" (false positives)."""
    result = dict.fromkeys(OUTCOMES, 0)
    result["fp"] = 0
    symbols = [sym for p in sample.paths for sym in reads.get(p, [])]
    if sample.kind == "empty":
        result["fp"] = len(symbols)
        if failed and not symbols:
            result["error"] = 1
        return result
    if sample.kind == "sequence":
        joined = b"".join(sym[0] for p in sample.paths for sym in reads.get(p, [])[:1])
        symbols = symbols + [[joined]]
    left = list(symbols)
    unmatched = 0
    for accepted in sample.codes:
        hit = next((s for s in left if any(same(a, f) for a in accepted for f in s)), None)
        if hit is None:
            unmatched += 1
        else:
            left.remove(hit)
    correct = len(sample.codes) - unmatched
    if sample.kind == "multi":
        wrong = min(unmatched, len(left))
        result["correct"], result["wrong"] = correct, wrong
        result["error" if failed else "missed"] = unmatched - wrong
    elif correct:
        result["correct"] = 1
    elif symbols:
        result["wrong"] = 1
    else:
        result["error" if failed else "missed"] = 1
    return result


def read_correctly(counts, sample):
    """Whether a sample's score means every code in it was read right."""
    return sample.kind != "empty" and counts["correct"] == len(sample.codes)


if __name__ == "__main__":
    # A check of the conventions on the corpus's own examples: python3 bench/corpus.py
    assert same(b"0012345000065", b"01234565")                    # UPC-E, expanded
    assert same(b"0036602301467", b"036602301467")                # UPC-A as EAN-13
    assert same(b"007183100799519868", b"07183100799519868")      # UPC-A and its add-on
    assert same(b"0104412345678909", b"04412345678909")           # DataBar without its AI
    assert same(b"1012A01900123456789083922795", b"(10)12A(01)90012345678908(3922)795")
    assert same(b"0198898765432106\x1d42212", b"(01)98898765432106(422)12")
    assert not same(b"48512343", b"48512344")
    assert not same(b"0012345000065", b"12345000065")
    print("corpus.py: conventions ok")
