#!/usr/bin/env python3
"""Orders candidate passes from the tables `passes` writes, as PassPlan was chosen.

    python3 bench/passes/choose.py TABLE.json [TABLE.json ...]

Takes the images the first pass (zxing-cpp's quick search) leaves unread, then picks passes
greedily by images newly read per millisecond spent on the images still unread, and prints
them with what each adds; then prints the cost of the plan in PassPlan.swift, run as pairs
side by side (the slower of each pair counts), over all the images.
"""
import json
import sys

FIRST = "zxing(harder: false) []"
PLAN = [  # PassPlan.plain, then PassPlan.balanced
    ["zbar []", "zxing(harder: true) []"],
    ["zbar [threshold(0.025)]", "zxing(harder: false) [invert]"],
    ["zbar [blur(radius: 1), threshold(0.08)]"],
    ["zxing(harder: true) [pad(0.1), enlargeTo(400)]", "zxing(harder: true) [upscale(2.0), threshold(0.05)]"],
]


def main():
    rows, names = [], []
    for path in sys.argv[1:]:
        table = json.load(open(path))
        names = table["passes"]
        rows += table["rows"]
    ok = lambda r, p: r["passes"][p][0] == "correct"
    ms = lambda r, p: r["passes"][p][1]
    unread = [r for r in rows if not ok(r, FIRST)]
    print("%d images; the first pass reads %d in %.0f ms" % (len(rows), len(rows) - len(unread),
                                                           sum(ms(r, FIRST) for r in rows)))
    remaining, chosen = list(unread), []
    while True:
        best = None
        for p in names:
            if p == FIRST or p in chosen:
                continue
            gain = sum(1 for r in remaining if ok(r, p))
            cost = sum(ms(r, p) for r in remaining) + 1e-3
            if gain and (best is None or gain / cost > best[0]):
                best = (gain / cost, p, gain, cost)
        if not best:
            break
        chosen.append(best[1])
        remaining = [r for r in remaining if not ok(r, best[1])]
        print("  %-55s reads %2d more, costs %6.1f ms" % (best[1], best[2], best[3]))
    print("read by no pass: " + (", ".join(r["file"].split("/")[-1] for r in remaining) or "none"))
    total, read = 0.0, 0
    for r in rows:
        t, got = ms(r, FIRST), ok(r, FIRST)
        for pair in PLAN:
            if got:
                break
            t += max(ms(r, p) for p in pair)
            got = any(ok(r, p) for p in pair)
        total += t
        read += got
    print("PassPlan, pairs side by side: reads %d of %d in %.0f ms" % (read, len(rows), total))


if __name__ == "__main__":
    main()
