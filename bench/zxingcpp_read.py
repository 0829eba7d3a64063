"""Read barcodes from image files with zxing-cpp's Python bindings, as one process.

Run with the bench venv's Python (bench/benchenv.py sets it up):
    .build/bench-venv/bin/python bench/zxingcpp_read.py IMAGE...
Prints one JSON line per symbol, {"source", "format", "text", "bytes_base64"}, a line
{"source", "error"} for an image that cannot be read, and a last line {"elapsed_ms": T}: the
time from before the first image is opened to after the last is read (images decoded with
Pillow and converted to grey, as qrseal does). zxing-cpp runs with its defaults: every
format, rotations, downscaling and inverted codes tried; `--ean-add-ons` first asks it to read
EAN/UPC add-ons too (`ean_add_on_symbol=Read`).
"""

import base64
import json
import sys
import time

import zxingcpp
from PIL import Image


def main(paths):
    options = {}
    if paths[:1] == ["--ean-add-ons"]:
        paths = paths[1:]
        options["ean_add_on_symbol"] = zxingcpp.EanAddOnSymbol.Read
    out = sys.stdout
    t0 = time.perf_counter()
    for path in paths:
        try:
            with Image.open(path) as img:
                gray = img.convert("L")
            symbols = zxingcpp.read_barcodes(gray, **options)
        except Exception as e:  # a broken image is reported and the rest go on
            out.write(json.dumps({"source": path, "error": str(e)}) + "\n")
            continue
        for s in symbols:
            out.write(json.dumps({"source": path, "format": str(s.format).split(".")[-1],
                                  "text": s.text,
                                  "bytes_base64": base64.b64encode(s.bytes).decode("ascii")}) + "\n")
    out.write(json.dumps({"elapsed_ms": (time.perf_counter() - t0) * 1000.0}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
