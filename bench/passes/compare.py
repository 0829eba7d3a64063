#!/usr/bin/env python3
"""Compares two plan profiles (`passes --plan EFFORT OUT.json IMAGE...`) image for image.

    python3 bench/passes/compare.py BEFORE.json AFTER.json [-v]

Prints each image whose payloads were lost or gained, then how many images differ in the
stages that ran (-v lists those stages) and the detection CPU of both profiles, in ms.
"""
import json
import os
import sys


def rows(path):
    with open(path) as f:
        return {row["file"]: row for row in json.load(f)["rows"]}


def stage_names(row):
    return sorted(s[0] for s in row["stages"] if not s[0].startswith("bar regions"))


def cpu(profile):
    return sum(s[1] for row in profile.values() for s in row["stages"])


def main(argv):
    args = [a for a in argv if a != "-v"]
    if len(args) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    before, after = rows(args[0]), rows(args[1])
    lost = gained = differ = 0
    for name, a in before.items():
        b = after.get(name)
        if b is None:
            print("missing", name)
            continue
        found_a, found_b = set(a["found"]), set(b["found"])
        if found_a - found_b:
            lost += 1
            print("LOST", name, len(found_a - found_b))
        if found_b - found_a:
            gained += 1
            print("GAINED", name, len(found_b - found_a))
        if stage_names(a) != stage_names(b):
            differ += 1
            if "-v" in argv:
                print("  stages differ", os.path.basename(name),
                      "added", set(stage_names(b)) - set(stage_names(a)),
                      "left out", set(stage_names(a)) - set(stage_names(b)))
    print("images %d, lost %d, gained %d, stages differ on %d, CPU %.0f -> %.0f ms"
          % (len(before), lost, gained, differ, cpu(before), cpu(after)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
