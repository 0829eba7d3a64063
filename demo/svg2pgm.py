#!/usr/bin/env python3
"""Rasterise a QR code SVG into a PGM image, so that the demo can read it back.

Small on purpose: it fills <rect> elements and <path> data made of straight
lines (M L H V Z, absolute or relative) with the non-zero rule, sampling at one
point per user unit (a module, for qrseal's SVG), then scales the result up.
Shapes filled white or "none" are treated as background. Python 3 stdlib only.

usage: svg2pgm.py IN.svg OUT.pgm [PIXELS_PER_UNIT]
"""
import math
import re
import sys

WHITE = {"#fff", "#ffffff", "white", "none", "transparent"}
TOKEN = re.compile(r"[MmLlHhVvZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
ATTR = re.compile(r'([\w:-]+)\s*=\s*"([^"]*)"')


def path_edges(d):
    edges, cmd = [], None
    x = y = sx = sy = 0.0
    toks = TOKEN.findall(d)
    i = 0

    def num():
        nonlocal i
        v = float(toks[i])
        i += 1
        return v

    while i < len(toks):
        t = toks[i]
        if t.isalpha():
            cmd = t
            i += 1
            if cmd in "Zz":
                edges.append((x, y, sx, sy))
                x, y = sx, sy
                continue
        elif cmd is None:
            raise ValueError("path data must start with a command")
        nx, ny = x, y
        if cmd in "Mm":
            dx, dy = num(), num()
            nx, ny = (x + dx, y + dy) if cmd == "m" else (dx, dy)
            x, y = sx, sy = nx, ny
            cmd = "l" if cmd == "m" else "L"  # implicit lineto after moveto
            continue
        if cmd in "Ll":
            dx, dy = num(), num()
            nx, ny = (x + dx, y + dy) if cmd == "l" else (dx, dy)
        elif cmd in "Hh":
            v = num()
            nx = x + v if cmd == "h" else v
        elif cmd in "Vv":
            v = num()
            ny = y + v if cmd == "v" else v
        else:
            raise ValueError("unsupported path command %r" % cmd)
        edges.append((x, y, nx, ny))
        x, y = nx, ny
    return edges


def main():
    src, dst = sys.argv[1], sys.argv[2]
    scale = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    svg = open(src, encoding="utf-8").read()
    root = re.search(r"<svg\b([^>]*)>", svg)
    if not root:
        sys.exit("svg2pgm: no <svg> element")
    attrs = dict(ATTR.findall(root.group(1)))
    if "viewBox" in attrs:
        vx, vy, vw, vh = (float(v) for v in attrs["viewBox"].replace(",", " ").split())
    else:
        vx = vy = 0.0
        vw, vh = float(attrs["width"].rstrip("px")), float(attrs["height"].rstrip("px"))
    edges = []
    for tag, body in re.findall(r"<(rect|path)\b([^>]*)>", svg):
        a = dict(ATTR.findall(body))
        if a.get("fill", "#000").lower() in WHITE:
            continue
        if tag == "rect":
            x, y = float(a.get("x", 0)), float(a.get("y", 0))
            w, h = float(a["width"]), float(a["height"])
            edges += [(x, y, x + w, y), (x + w, y, x + w, y + h),
                      (x + w, y + h, x, y + h), (x, y + h, x, y)]
        else:
            edges += path_edges(a.get("d", ""))
    cols, rows = int(round(vw)), int(round(vh))
    border = 4  # extra quiet zone, in user units
    crossings = [[] for _ in range(rows)]
    for x0, y0, x1, y1 in edges:
        if y0 == y1:
            continue
        lo, hi = min(y0, y1), max(y0, y1)
        r0 = max(0, int(lo - vy - 0.5) - 1)
        for r in range(r0, min(rows, int(hi - vy + 0.5) + 1)):
            yc = vy + r + 0.5
            if lo <= yc < hi:
                crossings[r].append((x0 + (yc - y0) * (x1 - x0) / (y1 - y0), 1 if y1 > y0 else -1))
    W, H = (cols + 2 * border) * scale, (rows + 2 * border) * scale
    out = bytearray(b"\xff" * (W * H))
    for r, cs in enumerate(crossings):
        cs.sort()
        dark = bytearray(b"\xff" * ((cols + 2 * border) * scale))
        wind = 0
        for k in range(len(cs) - 1):
            wind += cs[k][1]
            if wind == 0:
                continue
            # cells whose centre vx + c + 0.5 lies in [x_k, x_k+1)
            c0 = max(0, math.ceil(cs[k][0] - vx - 0.5))
            c1 = min(cols, math.ceil(cs[k + 1][0] - vx - 0.5))
            if c1 > c0:
                dark[(c0 + border) * scale:(c1 + border) * scale] = b"\x00" * ((c1 - c0) * scale)
        for dy in range(scale):
            o = ((r + border) * scale + dy) * W
            out[o:o + W] = dark
    with open(dst, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (W, H))
        f.write(out)


if __name__ == "__main__":
    main()
