#!/usr/bin/env python3
"""Where the plan's time goes, from the tables `passes --plan` writes.

    python3 bench/passes/profile.py TABLE.json [--by-image]
    python3 bench/passes/profile.py --reader TABLE.json [BEFORE.json]

Per folder: images, CPU ms of decoding and of detection (every pass and census, on every
thread), and the stages that cost most; then, over all images, each stage's total CPU time
and the images on which it read something no stage before it had read (the only ones it
pays for); last, the prepared copies made, apart from the stages, and those made more than
once for one image. --by-image lists every image's stages as well.

With --reader, the tables are those of `passes --profiles` (the grey-profile reader alone on
every image): per folder, images, CPU ms and reads; given a second table, both side by side,
then every image whose reads differ between them.
"""
import collections
import json
import os
import sys


def reader(paths):
    tables = [{r["file"]: r for r in json.load(open(p))["rows"]} for p in paths]
    folders = collections.OrderedDict()
    for f in tables[0]:
        folders.setdefault(os.path.dirname(f).split("corpus/")[-1], []).append(f)
    print("| folder | images | " + " | ".join("CPU ms | reads" for _ in tables) + " |")
    print("|---|---|" + "---|---|" * len(tables))
    for folder, files in folders.items():
        cells = ["%.0f | %d" % (sum(t[f]["ms"] for f in files if f in t), sum(len(t[f]["found"]) for f in files if f in t))
                 for t in tables]
        print("| %s | %d | %s |" % (folder, len(files), " | ".join(cells)))
    print("\ntotal CPU ms: " + " → ".join("%.0f" % sum(r["ms"] for r in t.values()) for t in tables))
    if len(tables) == 2:
        differ = [f for f in tables[0] if f in tables[1] and sorted(tables[0][f]["found"]) != sorted(tables[1][f]["found"])]
        for f in differ:
            print("differs: %s: %s → %s" % (f, tables[0][f]["found"], tables[1][f]["found"]))
        print("images whose reads differ: %d" % len(differ))


def main():
    if "--reader" in sys.argv:
        return reader([a for a in sys.argv[1:] if not a.startswith("--")])
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    by_image = "--by-image" in sys.argv
    rows = []
    for path in args:
        rows += json.load(open(path))["rows"]
    folders = collections.OrderedDict()
    for r in rows:
        folders.setdefault(os.path.dirname(r["file"]).split("corpus/")[-1], []).append(r)
    print("| folder | images | decode ms | detect ms | costliest stages (ms) |")
    print("|---|---|---|---|---|")
    for folder, rs in folders.items():
        cost = collections.Counter()
        for r in rs:
            for stage, ms, _ in r["stages"]:
                cost[stage] += ms
        top = ", ".join("%s %.0f" % (s, ms) for s, ms in cost.most_common(4))
        print("| %s | %d | %.0f | %.0f | %s |" % (folder, len(rs), sum(r["decode"] for r in rs),
                                                 sum(cost.values()), top))
    cost, runs, new = collections.Counter(), collections.Counter(), collections.defaultdict(list)
    for r in rows:
        seen = set()
        for stage, ms, payloads in r["stages"]:
            cost[stage] += ms
            runs[stage] += 1
            fresh = [p for p in payloads if p not in seen and p in r["found"]]
            if fresh:
                new[stage].append(os.path.basename(r["file"]))
            seen.update(payloads)
        if by_image:
            print("%s: %s" % (r["file"], "; ".join("%s %.1f%s" % (s, ms, " READ" if p else "")
                                                   for s, ms, p in r["stages"])))
    print("\n| stage | runs | CPU ms | images it reads first |")
    print("|---|---|---|---|")
    for stage, ms in cost.most_common():
        names = new.get(stage, [])
        print("| %s | %d | %.0f | %d%s |" % (stage, runs[stage], ms, len(names),
                                            (": " + ", ".join(names[:6]) + (" …" if len(names) > 6 else "")) if names and len(names) < 40 else ""))
    print("\ntotal: %d images, decode %.0f ms, detect %.0f ms (CPU)" % (
        len(rows), sum(r["decode"] for r in rows), sum(cost.values())))
    copies(rows)


def copies(rows):
    """The prepared copies made (outside the stages' CPU): how many, their CPU, and those made
    more than once for one image (two passes asking for one copy at once), with what they cost."""
    if not any("copies" in r for r in rows):
        return
    made = again = 0
    ms = again_ms = 0.0
    repeated = collections.Counter()
    for r in rows:
        seen = set()
        for steps, cpu in r.get("copies", []):
            made += 1
            ms += cpu
            if steps in seen:
                again += 1
                again_ms += cpu
                repeated[steps] += 1
            seen.add(steps)
    print("copies: %d made, %.0f ms CPU; made again for the same image: %d, %.0f ms" % (made, ms, again, again_ms))
    for steps, n in repeated.most_common(8):
        print("  again %d× %s" % (n, steps))


if __name__ == "__main__":
    main()
