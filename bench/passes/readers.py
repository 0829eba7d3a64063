#!/usr/bin/env python3
"""Our own Data Matrix and Aztec readers' cost and reads, from tables `passes --readers` writes.

    python3 bench/passes/readers.py TABLE.json [BEFORE.json]

Per folder: images, CPU ms of the binarization, of finding the runs along its rows (which
both readers share) and of each reader. With BEFORE, each
reader's total before and after, and every image whose reads differ (a read lost is a
regression; one gained is listed too).
"""
import collections
import json
import os
import sys


def load(path):
    return {r["file"]: r for r in json.load(open(path))["rows"]}


def main():
    after = load(sys.argv[1])
    before = load(sys.argv[2]) if len(sys.argv) > 2 else None
    folders = collections.OrderedDict()
    for f, r in after.items():
        folders.setdefault(os.path.dirname(f).split("corpus/")[-1], []).append(r)
    print("| folder | images | binarize ms | runs ms | dataMatrix ms | aztec ms |")
    print("|---|---|---|---|---|---|")
    for folder, rs in folders.items():
        print("| %s | %d | %.1f | %.1f | %.1f | %.1f |" % (folder, len(rs), sum(r["binarize"] for r in rs),
              sum(r.get("runs", 0) for r in rs), sum(r["dataMatrix"] for r in rs), sum(r["aztec"] for r in rs)))
    total = {k: sum(r.get(k, 0) for r in after.values()) for k in ("binarize", "runs", "dataMatrix", "aztec")}
    print("\ntotal over %d images: binarize %.0f ms, runs %.0f ms, dataMatrix %.0f ms, aztec %.0f ms (CPU)" % (
        len(after), total["binarize"], total["runs"], total["dataMatrix"], total["aztec"]))
    if before is None:
        return
    old = {k: sum(r.get(k, 0) for r in before.values()) for k in ("binarize", "runs", "dataMatrix", "aztec")}
    print("before: binarize %.0f ms, runs %.0f ms, dataMatrix %.0f ms, aztec %.0f ms (CPU)" % (
        old["binarize"], old["runs"], old["dataMatrix"], old["aztec"]))
    lost = 0
    for f, r in after.items():
        b = before.get(f)
        if b is None:
            continue
        for key in ("dataMatrixReads", "aztecReads"):
            was, now = set(b[key]), set(r[key])
            if was - now:
                lost += 1
                print("LOST %s %s: %s" % (key[:-5], f, sorted(was - now)))
            if now - was:
                print("gained %s %s: %s" % (key[:-5], f, sorted(now - was)))
    print("%d images lost a read" % lost)
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
