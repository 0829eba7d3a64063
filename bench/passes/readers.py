#!/usr/bin/env python3
"""Our own Data Matrix, Aztec and MicroPDF417 readers' cost and reads, from tables `passes --readers` writes.

    python3 bench/passes/readers.py TABLE.json [BEFORE.json]

Per folder: images, CPU ms of the binarization, of finding the runs along its rows (which
both readers share), of the finder census and of each reader. With BEFORE, each
reader's total before and after, and every image whose reads differ (a read lost is a
regression; one gained is listed too), or whose census found other patterns.
"""
import collections
import json
import os
import sys


KEYS = ("binarize", "runs", "census", "dataMatrix", "aztec", "microPDF417")


def load(path):
    return {r["file"]: r for r in json.load(open(path))["rows"]}


def main():
    after = load(sys.argv[1])
    before = load(sys.argv[2]) if len(sys.argv) > 2 else None
    folders = collections.OrderedDict()
    for f, r in after.items():
        folders.setdefault(os.path.dirname(f).split("corpus/")[-1], []).append(r)
    print("| folder | images | binarize ms | runs ms | census ms | dataMatrix ms | aztec ms | microPDF417 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for folder, rs in folders.items():
        print("| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |" % (folder, len(rs), sum(r["binarize"] for r in rs),
              sum(r.get("runs", 0) for r in rs), sum(r.get("census", 0) for r in rs),
              sum(r["dataMatrix"] for r in rs), sum(r["aztec"] for r in rs), sum(r.get("microPDF417", 0) for r in rs)))
    total = {k: sum(r.get(k, 0) for r in after.values()) for k in KEYS}
    print("\ntotal over %d images: %s (CPU)" % (len(after), ", ".join("%s %.0f ms" % (k, total[k]) for k in KEYS)))
    if before is None:
        return
    old = {k: sum(r.get(k, 0) for r in before.values()) for k in KEYS}
    print("before: %s (CPU)" % ", ".join("%s %.0f ms" % (k, old[k]) for k in KEYS))
    lost = 0
    for f, r in after.items():
        b = before.get(f)
        if b is None:
            continue
        for key in ("dataMatrixReads", "aztecReads", "microPDF417Reads"):
            was, now = set(b.get(key, [])), set(r.get(key, []))
            if was - now:
                lost += 1
                print("LOST %s %s: %s" % (key[:-5], f, sorted(was - now)))
            if now - was:
                print("gained %s %s: %s" % (key[:-5], f, sorted(now - was)))
        if "censusPatterns" in b and b["censusPatterns"] != r.get("censusPatterns"):
            lost += 1
            print("CENSUS differs %s" % f)
    print("%d images lost a read or changed their census" % lost)
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
