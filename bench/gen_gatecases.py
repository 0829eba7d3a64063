"""Hard QR codes in 640x480 pictures, for checking a gate of the budgeted stages of PassPlan.

    .build/bench-venv/bin/python bench/gen_gatecases.py --out DIR [--seed N] [--count N]

Each picture is 640x480, the size of the photos with no code in zxing-nothing/, so that a
gate cannot pass a code by the picture's size alone: one QR code (from `qrencode`, 2 to 8
pixels a module, 1 or 4 modules of quiet zone; shrunk to fit the picture when larger), in three of ten light on dark, in three of
ten in low contrast, blurred by 0.3 to 0.6 of a module, in three of ten turned by 5 to 40
degrees, pasted on one of the no-code photos or on a flat grey, with sensor noise. NAME.png
and NAME.txt (the payload) side by side; the name says the module, the blur and the kind.
Deterministic: the same seed and count give the same files. About one in five is read by a
budgeted stage only (`passes --plan balanced`; bench/README.md, "An evidence gate for the
budgeted stages").
"""

import argparse
import random
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

PHOTOS = ["01.png", "07.png", "14.png", "17.png", "21.png", "08.png"]


def corpus():
    """../shared/corpus beside the checkout, or beside the folder of a worktree."""
    repo = Path(__file__).resolve().parents[1]
    for base in (repo.parent, repo.parent.parent):
        if (base / "shared" / "corpus").is_dir():
            return base / "shared" / "corpus"
    return repo.parent / "shared" / "corpus"


def code(text, scale, margin, work):
    path = Path(work) / "code.png"
    subprocess.run(["qrencode", "-o", str(path), "-s", str(scale), "-m", str(margin), "-l", "M", text], check=True)
    return Image.open(path).convert("L")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--count", type=int, default=240)
    parser.add_argument("--corpus", default=str(corpus()))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    noise = np.random.default_rng(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    photos = [Path(args.corpus) / "zxing-nothing" / "falsepositives-1" / p for p in PHOTOS]
    with tempfile.TemporaryDirectory() as work:
        for i in range(args.count):
            text = "gate %d " % i + "y" * rng.choice([5, 20, 60, 120])
            scale = rng.choice([2, 3, 4, 5, 6, 8])
            pixels = np.asarray(code(text, scale, rng.choice([1, 4, 4]), work)).astype(float)
            inverted = rng.random() < 0.3
            if inverted:
                pixels = 255 - pixels
            low = rng.random() < 0.3
            if low:
                pixels = 100 + pixels * rng.uniform(0.15, 0.4)
            image = Image.fromarray(pixels.clip(0, 255).astype("uint8"))
            blur = rng.uniform(0.3, 0.6)
            image = image.filter(ImageFilter.GaussianBlur(scale * blur))
            turned = rng.random() < 0.3
            if turned:
                image = image.rotate(rng.uniform(5, 40), resample=Image.BILINEAR, expand=True,
                                     fillcolor=0 if inverted else 255)
            if rng.random() < 0.5:
                page = Image.open(rng.choice(photos)).convert("L")
            else:
                page = Image.new("L", (640, 480), rng.randint(120, 230))
            # A code larger than the page is shrunk to fit it.
            fit = min(1.0, (page.width - 8) / image.width, (page.height - 8) / image.height)
            if fit < 1:
                image = image.resize((int(image.width * fit), int(image.height * fit)), Image.BILINEAR)
            page.paste(image, (rng.randint(0, page.width - image.width), rng.randint(0, page.height - image.height)))
            pixels = np.asarray(page).astype(float) + noise.normal(0, rng.uniform(1, 8), (page.height, page.width))
            name = "%03d-m%d-b%.1f%s%s%s" % (i, scale, blur, "-inverted" if inverted else "", "-low" if low else "",
                                            "-turned" if turned else "")
            Image.fromarray(pixels.clip(0, 255).astype("uint8")).save(out / (name + ".png"))
            (out / (name + ".txt")).write_text(text)


if __name__ == "__main__":
    main()
