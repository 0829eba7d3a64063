"""Camera-like photos of dense QR codes, and of sheets with many small codes, for bench/run.py.

    .build/bench-venv/bin/python bench/gen_dense.py --out DIR [--seed N] [--quick]

Deterministic: the same seed (and the pinned packages of bench/benchenv.py) gives the same
files. Writes three folders under DIR, each image with its ground truth beside it:

  dense-sealed/  versions 20-40 at level L or M, filled to capacity with a sealed-like payload:
                 `QRSEAL1:` and the digits of a key-file envelope of random bytes, in the
                 form of qrseal's digits armor; NAME.jpg + NAME.txt
  dense-text/    versions 20-40, random text in byte mode at 85-100 % of capacity
  dense-hard/    versions 15-40, sealed-like and text payloads by turns, through a harder
                 camera: blur sigma 0.8-1.2 px, noise sigma 6-12, JPEG quality 60-70, page
                 waves up to 0.8 module, 2.5-3.5 pixels per module
  sheets/        sheets of 20-60 small codes (versions 1-6) photographed whole, 5 to 12
                 megapixels; NAME.jpg + NAME.codes.jsonl

Each photo: the code printed on paper (matrix from `qrencode`), at 2.5-5 pixels per module
for the dense sets; the page curled (a smooth non-linear warp: a bow across the page, a curl
at one edge and a few low-frequency waves), seen in perspective and slightly rotated, through
a lens with barrel distortion, on a darker desk; uneven light, a white-balance tint, optical
blur, sensor noise, JPEG compression. A manifest.jsonl in each folder lists every image's
parameters. DIR/COMPLETE is written last.
"""

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from payloads import longest, sealed_like

QUIET = 4  # modules of quiet zone printed around each code


# --------------------------------------------------------------------------- codes

def qr_matrix(payload, version, level, eight_bit):
    """The module matrix qrencode makes for payload (version at least `version`): bool array."""
    cmd = ["qrencode", "-t", "PNG32", "-v", str(version), "-l", level, "-s", "1", "-m", "0", "-o", "-"]
    if eight_bit:
        cmd.append("-8")
    p = subprocess.run(cmd, input=payload.encode("ascii"), capture_output=True)
    if p.returncode != 0:
        return None
    from io import BytesIO
    img = np.asarray(Image.open(BytesIO(p.stdout)).convert("L"))
    return img < 128


def modules(version):
    return 17 + 4 * version


def fill(version, level, make, eight_bit, limit):
    """The longest make(n) (n <= limit) that fits in exactly `version`: (payload, matrix)."""
    payload = make(longest(make, version, level, limit, eight_bit))
    return payload, qr_matrix(payload, version, level, eight_bit)


def random_text(rng, n):
    words = ["harbour", "river", "seal", "north", "quartz", "lantern", "meadow", "copper", "42",
             "https://example.org/", "id=", "&", "-"]
    out = []
    while sum(len(w) + 1 for w in out) < n:
        out.append(words[rng.integers(len(words))] if rng.random() < 0.7
                   else "".join(chr(rng.integers(33, 127)) for _ in range(rng.integers(3, 12))))
    return " ".join(out)[:n]


# --------------------------------------------------------------------------- the camera

def paper_with(codes, page_modules, scale):
    """A white page of page_modules (w, h) with dark modules: codes = [(matrix, x, y)] in modules."""
    w, h = page_modules
    page = np.zeros((h, w), dtype=bool)
    for m, x, y in codes:
        page[y:y + m.shape[0], x:x + m.shape[1]] |= m
    ink, white = 28, 236
    img = np.where(page, ink, white).astype(np.uint8)
    return cv2.resize(img, (w * scale, h * scale), interpolation=cv2.INTER_NEAREST)


def photograph(rng, page, scale, ppm, frame, fill_frac, curl, tilt, max_angle,
               blur_range=None, noise_range=(2.0, 7.0), wave=0.4):
    """Photograph a page rendered at `scale` px/module so that it shows at ~ppm px/module.

    frame: (width, height) of the photo or None to fit the page; fill_frac: how much of the
    frame the page spans; curl, tilt: strengths in [0, 1]; blur_range, noise_range: the
    sigmas (px, grey levels) drawn from (blur by default 0.3 to min(1, ppm / 4)); wave: the
    largest amplitude of the page's waves, in modules. Returns an RGB uint8 array and the
    parameters used."""
    ph, pw = page.shape
    s = ppm / scale                          # page px -> photo px
    # Anti-aliasing: a photo pixel integrates about 1/s page pixels.
    page = cv2.GaussianBlur(page, (0, 0), 0.45 / s)
    if frame is None:
        fw, fh = int(pw * s / fill_frac), int(ph * s / fill_frac)
    else:
        fw, fh = frame
    # Where the page's corners land: a rotated rectangle, each corner pushed for perspective;
    # drawn again (a little smaller) until the whole page is in the frame.
    for _ in range(40):
        angle = math.radians(rng.uniform(-max_angle, max_angle))
        cx, cy = fw / 2 + rng.uniform(-0.04, 0.04) * fw, fh / 2 + rng.uniform(-0.04, 0.04) * fh
        hw, hh = pw * s / 2, ph * s / 2
        corners = []
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            x, y = sx * hw, sy * hh
            x, y = x * math.cos(angle) - y * math.sin(angle), x * math.sin(angle) + y * math.cos(angle)
            j = tilt * 0.09
            corners.append((cx + x + rng.uniform(-j, j) * 2 * hw, cy + y + rng.uniform(-j, j) * 2 * hh))
        if all(0.03 * fw < x < 0.97 * fw and 0.03 * fh < y < 0.97 * fh for x, y in corners):
            break
        s *= 0.97
    to_page = cv2.getPerspectiveTransform(np.float32(corners),
                                          np.float32([(0, 0), (pw, 0), (pw, ph), (0, ph)]))
    # Photo pixel -> through the lens (barrel distortion) -> the curled page -> the flat page.
    u, v = np.meshgrid(np.arange(fw, dtype=np.float32), np.arange(fh, dtype=np.float32))
    k1 = rng.uniform(0.0, 0.06)
    nx, ny = (u - fw / 2) / (fw / 2), (v - fh / 2) / (fw / 2)
    r2 = nx * nx + ny * ny
    u2, v2 = fw / 2 + nx * (1 + k1 * r2) * (fw / 2), fh / 2 + ny * (1 + k1 * r2) * (fw / 2)
    den = to_page[2, 0] * u2 + to_page[2, 1] * v2 + to_page[2, 2]
    x = (to_page[0, 0] * u2 + to_page[0, 1] * v2 + to_page[0, 2]) / den
    y = (to_page[1, 0] * u2 + to_page[1, 1] * v2 + to_page[1, 2]) / den
    del u, v, nx, ny, r2, u2, v2, den
    xn, yn = x / pw, y / ph
    bow = curl * rng.uniform(-0.035, 0.035) * ph          # rows bow across the page
    edge = curl * rng.uniform(0.0, 0.06) * pw             # the right edge curls away
    waves = []
    for _ in range(3):
        waves.append((curl * rng.uniform(0.0, wave) * scale,  # amplitude: up to `wave` modules
                      rng.uniform(0.4, 1.5), rng.uniform(0.4, 1.5), rng.uniform(0, 2 * math.pi)))
    dx = edge * np.clip(xn - 0.6, 0, None) ** 2 / 0.16
    dy = bow * (4 * (xn - 0.5) ** 2 - 1)
    for a, fx, fy, phase in waves:
        dx = dx + a * np.sin(2 * math.pi * (fx * xn + fy * yn) + phase)
        dy = dy + a * np.cos(2 * math.pi * (fy * xn - fx * yn) + phase)
    map_x, map_y = (x + dx).astype(np.float32), (y + dy).astype(np.float32)
    del x, y, xn, yn, dx, dy
    shot = cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    inside = cv2.remap(np.full(page.shape, 255, np.uint8), map_x, map_y, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    del map_x, map_y
    # The desk: darker, with low-frequency texture.
    desk = cv2.resize(rng.uniform(50, 120, (8, 8)).astype(np.float32), (fw, fh), interpolation=cv2.INTER_CUBIC)
    a = inside.astype(np.float32) / 255.0
    img = shot.astype(np.float32) * a + desk * (1 - a)
    del shot, inside, desk, a
    # Uneven light: a gradient across the frame and a soft bright spot.
    gx, gy = rng.uniform(-1, 1), rng.uniform(-1, 1)
    lu, lv = np.meshgrid(np.linspace(-1, 1, fw, dtype=np.float32), np.linspace(-1, 1, fh, dtype=np.float32))
    strength = rng.uniform(0.15, 0.4)
    sx, sy = rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6)
    light = 1 - strength * (0.5 + 0.5 * (gx * lu + gy * lv) / math.hypot(gx, gy))
    light += 0.15 * np.exp(-((lu - sx) ** 2 + (lv - sy) ** 2) / 0.3)
    img *= light
    del lu, lv, light
    blur = rng.uniform(*(blur_range or (0.3, min(1.0, 0.25 * ppm))))
    img = cv2.GaussianBlur(img, (0, 0), blur)
    tint = np.float32([rng.uniform(0.92, 1.05), 1.0, rng.uniform(0.88, 1.04)])
    noise = rng.uniform(*noise_range)
    rgb = img[:, :, None] * tint[None, None, :]
    del img
    rgb += rng.normal(0, noise, rgb.shape).astype(np.float32)
    params = {"ppm": round(s * scale, 2), "size": [fw, fh], "rotation_deg": round(math.degrees(angle), 1),
              "tilt": round(tilt, 2), "curl": round(curl, 2), "lens_k1": round(k1, 3),
              "blur_sigma": round(blur, 2), "noise_sigma": round(noise, 1),
              "light_drop": round(strength, 2)}
    return np.clip(rgb, 0, 255).astype(np.uint8), params


def save(rgb, path, quality):
    Image.fromarray(rgb, "RGB").save(path, "JPEG", quality=quality)


# --------------------------------------------------------------------------- the sets

def dense_set(rng, out, count, sealed, hard=False):
    """hard: the harder camera of issue 28 (more blur, more noise, JPEG 60-70, deeper waves,
    2.5-3.5 px per module), text and sealed payloads alternating, versions 15-40."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    versions = np.linspace(15 if hard else 20, 40, count).round().astype(int)
    for i, version in enumerate(versions):
        level = "L" if rng.random() < 0.6 else "M"
        if hard:
            sealed = i % 2 == 0
        if sealed:
            noise = rng.bytes(3000)
            payload, m = fill(version, level, lambda n: sealed_like(noise, n), False, 2935)
        else:
            text = random_text(rng, 3000)
            full, _ = fill(version, level, lambda n: text[:n], True, 2953)
            payload = full[:int(len(full) * rng.uniform(0.85, 1.0))]
            m = qr_matrix(payload, version, level, True)
        n = m.shape[0]
        ppm = rng.uniform(2.5, 3.5) if hard else rng.uniform(2.6, 5.0)
        scale = max(4, math.ceil(2.5 * ppm))
        border = QUIET + int(rng.integers(2, 12))   # paper beyond the quiet zone
        page = paper_with([(m, border, border)], (n + 2 * border, n + 2 * border), scale)
        camera = dict(blur_range=(0.8, 1.2), noise_range=(6.0, 12.0), wave=0.8) if hard else {}
        rgb, params = photograph(rng, page, scale, ppm, None, rng.uniform(0.55, 0.8),
                                 curl=rng.uniform(0.2, 1.0), tilt=rng.uniform(0.2, 1.0), max_angle=12, **camera)
        quality = int(rng.integers(60, 71)) if hard else int(rng.integers(60, 93))
        name = "%02d-v%d%s" % (i + 1, version, level)
        save(rgb, out / (name + ".jpg"), quality)
        (out / (name + ".txt")).write_text(payload, encoding="ascii")
        manifest.append(dict(name=name, version=int(version), level=level, chars=len(payload),
                             jpeg_quality=quality, **params))
        del rgb, page
    write_manifest(out, manifest)


SHEETS = [(60, (4000, 3000)), (48, (4000, 3000)), (40, (3264, 2448)), (30, (3264, 2448)),
          (24, (2592, 1944)), (20, (2592, 1944))]


def sheet_set(rng, out, sheets):
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for i, (count, frame) in enumerate(sheets):
        cols = math.ceil(math.sqrt(count * frame[0] / frame[1]))
        rows = math.ceil(count / cols)
        codes, texts = [], []
        cell = modules(6) + 2 * QUIET + 2   # every code fits a version-6 cell
        for k in range(count):
            text = "S%d-%02d %s" % (i + 1, k + 1, random_text(rng, int(rng.integers(8, 90))))
            m = qr_matrix(text, 1, "M", True)
            r, c = divmod(k, cols)
            off = (cell - m.shape[0]) // 2
            codes.append((m, c * cell + off + 2, r * cell + off + 2))
            texts.append(text)
        page_modules = (cols * cell + 4, rows * cell + 4)
        ppm = min(rng.uniform(3.0, 5.0), 0.75 * frame[0] / page_modules[0], 0.75 * frame[1] / page_modules[1])
        fill_frac = ppm * page_modules[0] / frame[0]
        scale = max(4, math.ceil(2 * ppm))
        page = paper_with(codes, page_modules, scale)
        rgb, params = photograph(rng, page, scale, ppm, frame, fill_frac,
                                 curl=rng.uniform(0.2, 0.7), tilt=rng.uniform(0.2, 0.8), max_angle=8)
        quality = int(rng.integers(75, 93))
        name = "sheet-%02d-%dcodes" % (i + 1, count)
        save(rgb, out / (name + ".jpg"), quality)
        with open(out / (name + ".codes.jsonl"), "w", encoding="utf-8") as f:
            for t in texts:
                f.write(json.dumps({"format": "QR Code", "text": t}) + "\n")
        manifest.append(dict(name=name, codes=count, jpeg_quality=quality, **params))
        del rgb, page
    write_manifest(out, manifest)


def write_manifest(out, manifest):
    with open(out / "manifest.jsonl", "w", encoding="utf-8") as f:
        for m in manifest:
            f.write(json.dumps(m) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder to write the sets into")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--quick", action="store_true", help="8 + 8 + 8 dense photos and 2 sheets instead of 24 + 24 + 24 and 6")
    args = ap.parse_args()
    out = Path(args.out)
    rng = np.random.default_rng(args.seed)
    dense = 8 if args.quick else 24
    dense_set(rng, out / "dense-sealed", dense, sealed=True)
    dense_set(rng, out / "dense-text", dense, sealed=False)
    sheet_set(rng, out / "sheets", [SHEETS[0], SHEETS[4]] if args.quick else SHEETS)
    # Drawn last, so that the sets above stay the same images.
    dense_set(rng, out / "dense-hard", dense, sealed=True, hard=True)
    (out / "COMPLETE").write_text("seed %d\n" % args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
