#!/usr/bin/env python3
"""Paper round trip: a random file, sealed with a passphrase, printed as a PDF sheet and read back.

Usage: python3 bench/sheets.py [--qrseal PATH] [--size BYTES] [--lose FRACTION] [--dpi N]
                               [--paper a4|letter] [--seed N] [--markdown]

Steps, each through the real tools: `qrseal encode --format pdf` of SIZE random bytes sealed
with a passphrase file; `pdftoppm` at DPI (300) to grey PNG pages; ZXingReader's positions of
every code on the pages; a grey box painted over LOSE (25 %) of the codes, chosen at random;
`qrseal scan` of the pages in shuffled order into a fresh inbox, writing the file it restores;
a byte-for-byte comparison with the input. It prints the pages per MiB beside qr-backup's
published densities.

`encode` splits a file too large for one code into parts (issue 11). On a build without that,
a file that does not fit one code is reported as such and the run goes on with the largest
size that does (one code: nothing is painted over, since a quarter of one code is none).
"""
import argparse, os, random, re, subprocess, sys, tempfile, time

from tables import log, print_table

MIB = 1 << 20
# qr-backup's published densities (its README and author): 3 KB a page by default, up to
# 130 KB a page with small, dense codes.
QR_BACKUP = [("qr-backup default (3 KB/page)", MIB / 3000), ("qr-backup dense (130 KB/page)", MIB / 130_000)]
FALLBACK_SIZES = [2200, 2000, 1800, 1500, 1000, 500]


def run(cmd, **kw):
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, **kw)
    return r, time.perf_counter() - start


def encode(qrseal, work, size, paper, rng):
    """Writes SIZE random bytes and their sheet; returns (size, seconds) or (None, error)."""
    data = rng.randbytes(size)
    with open(os.path.join(work, "payload.bin"), "wb") as f:
        f.write(data)
    sheet = os.path.join(work, "sheet.pdf")
    if os.path.exists(sheet):
        os.remove(sheet)
    r, seconds = run([qrseal, "encode", "--passphrase-file", os.path.join(work, "pass.txt"), "--paper", paper,
                      "-i", os.path.join(work, "payload.bin"), "-o", sheet])
    if r.returncode != 0:
        return None, r.stderr.decode(errors="replace").strip()
    return data, seconds


def code_boxes(pages):
    """Each page's codes as (x0, y0, x1, y1) boxes, from ZXingReader's positions (qrseal's
    events for parts do not carry corners)."""
    boxes = {}
    for page in pages:
        r = subprocess.run(["ZXingReader", "-format", "QRCode", page], capture_output=True, text=True)
        boxes[page] = []
        for line in r.stdout.splitlines():
            if line.startswith("Position:"):
                points = [tuple(int(v) for v in p.split("x")) for p in line.split()[1:]]
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                boxes[page].append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--qrseal", default=os.path.join(here, "..", ".build", "release", "qrseal"))
    ap.add_argument("--size", type=int, default=MIB)
    ap.add_argument("--lose", type=float, default=0.25)
    ap.add_argument("--dpi", type=int, default=300)
    ap.add_argument("--paper", default="a4", choices=["a4", "letter"])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    qrseal = os.path.abspath(args.qrseal)
    if not os.access(qrseal, os.X_OK):
        sys.exit("sheets: no qrseal at %s (swift build -c release --product qrseal)" % qrseal)
    rng = random.Random(args.seed)

    with tempfile.TemporaryDirectory(prefix="qrseal-sheets-") as work:
        with open(os.path.join(work, "pass.txt"), "w") as f:
            f.write("correct horse battery staple\n")
        data, result = encode(qrseal, work, args.size, args.paper, rng)
        note = None
        if data is None:
            note = "%d bytes do not fit one code and this encode does not split (issue 11's parts): %s" % (
                args.size, result.splitlines()[0])
            log("sheets: " + note)
            for size in FALLBACK_SIZES:
                data, result = encode(qrseal, work, size, args.paper, rng)
                if data is not None:
                    log("sheets: going on with %d bytes, the most of these that fit one code" % size)
                    break
            if data is None:
                sys.exit("sheets: no size fits: " + result)
        encode_s = result
        sheet = os.path.join(work, "sheet.pdf")
        info = subprocess.run(["pdfinfo", sheet], capture_output=True, text=True).stdout
        pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
        text = subprocess.run(["pdftotext", sheet, "-"], capture_output=True, text=True).stdout
        m = re.search(r"(\d+) codes, any (\d+) restore it", text)
        codes, needed = (int(m.group(1)), int(m.group(2))) if m else (1, 1)

        r, raster_s = run(["pdftoppm", "-r", str(args.dpi), "-gray", "-png", sheet, os.path.join(work, "page")])
        if r.returncode != 0:
            sys.exit("sheets: pdftoppm failed: " + r.stderr.decode(errors="replace"))
        images = sorted(os.path.join(work, n) for n in os.listdir(work) if n.startswith("page-"))
        boxes = code_boxes(images)
        found = sum(len(b) for b in boxes.values())
        every = [(page, box) for page, bs in boxes.items() for box in bs]
        lost = rng.sample(every, int(len(every) * args.lose))
        for page, (x0, y0, x1, y1) in lost:
            subprocess.run(["convert", page, "-fill", "gray50", "-draw",
                            "rectangle %d,%d %d,%d" % (x0 - 8, y0 - 8, x1 + 8, y1 + 8), page], check=True)

        shuffled = images[:]
        rng.shuffle(shuffled)
        out = os.path.join(work, "out")
        os.mkdir(out)
        r, scan_s = run([qrseal, "scan", "--inbox", os.path.join(work, "inbox.sqlite"), "--passphrase-file",
                         os.path.join(work, "pass.txt"), "-o", out] + shuffled)
        restored_path = os.path.join(out, "payload.bin")
        restored = os.path.exists(restored_path) and open(restored_path, "rb").read() == data

    size = len(data)
    rows = [["qrseal (%s, %d dpi)" % (args.paper, args.dpi), size, codes, needed, pages, "%.1f" % (pages * MIB / size),
             "%d of %d" % (len(lost), found), "yes" if restored else "NO (scan status %d)" % r.returncode,
             "%.2f" % encode_s, "%.2f" % raster_s, "%.2f" % scan_s]]
    for name, per_mib in QR_BACKUP:
        rows.append([name, "-", "-", "-", "-", "%.1f" % per_mib, "-", "-", "-", "-", "-"])
    print_table(["sheet", "bytes", "codes", "needed", "pages", "pages/MiB", "painted over", "restored",
                 "encode s", "pdftoppm s", "scan s"], rows, markdown=args.markdown)
    if note:
        print("note: " + note)
    sys.exit(0 if restored else 1)


if __name__ == "__main__":
    main()
