#!/usr/bin/env python3
"""qrseal benchmark for public-key recipients and age files, against the real `age`.

Table 1  capacity of one version-40-L symbol for one X25519 recipient: qrseal's recipients
         envelope (digits and binary armor), qrseal's age file (--armor age, age-text), and
         `age -r R | qrencode -8 -l L` / `age -a -r R | qrencode -l L`; plus the size of a
         1-byte message in each form.
Table 2  time per message (seal to a QR code, and open from an age file) and per MiB
         (open a 1 MiB and a 16 MiB age file): `qrseal open FILE.age` against `age -d`.

Python 3 standard library only; the helpers are seal.py's. See bench/README.md, "Recipients and age".
"""

import argparse
import os
import random
import statistics
import string
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seal import fmt_ms, log, print_table, resolve_qrseal, run, run_pipe  # noqa: E402


def keygen(tmp):
    key = tmp / "me.key"
    subprocess.run(["age-keygen", "-o", str(key)], check=True, capture_output=True)
    recipient = subprocess.run(["age-keygen", "-y", str(key)], check=True, capture_output=True, text=True).stdout.strip()
    return key, recipient


def text(n, seed=1):
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


def largest(fits, low, high):
    """The largest n in [low, high] with fits(n), assuming fits is monotone; low must fit."""
    while low < high:
        mid = (low + high + 1) // 2
        if fits(mid):
            low = mid
        else:
            high = mid - 1
    return low


def capacity(qrseal, recipient, tmp):
    out = tmp / "c.png"
    rows = []

    def qrseal_fits(armor):
        def fits(n):
            return run([qrseal, "encode", "--to", recipient, "--armor", armor, "--ec", "L", "--no-compress",
                        "-o", out, "--force", text(n)]).ok
        return fits

    def age_fits(armored):
        def fits(n):
            src = tmp / "plain.txt"
            src.write_text(text(n))
            age = ["age"] + (["-a"] if armored else []) + ["-r", recipient, str(src)]
            return run_pipe(age, ["qrencode", "-l", "L"] + ([] if armored else ["-8"]) + ["-o", str(out)]).ok
        return fits

    def size(cmd):
        return len(run(cmd).out)

    one = tmp / "one.txt"
    one.write_text("x")
    for label, fits, small in [
        ("qrseal --to, digits armor", qrseal_fits("digits"), 1 + 95),
        ("qrseal --to, binary armor", qrseal_fits("binary"), 1 + 95),
        ("qrseal --to --armor age (binary age file)", qrseal_fits("age"), None),
        ("qrseal --to --armor age-text (age armor)", qrseal_fits("age-text"), None),
        ("age -r R | qrencode -8 -l L", age_fits(False), None),
        ("age -a -r R | qrencode -l L", age_fits(True), None),
    ]:
        n = largest(fits, 1, 2953)
        rows.append([label, str(n), str(small) if small else ""])
    binary = size(["age", "-r", recipient, str(one)])
    armored = size(["age", "-a", "-r", recipient, str(one)])
    rows[2][2] = rows[4][2] = str(binary)
    rows[3][2] = rows[5][2] = str(armored)
    return rows


def timing(qrseal, key, recipient, tmp, reps):
    rows = []

    def med(cmd, stdin=None):
        calls = [run(cmd, stdin) for _ in range(reps)]
        bad = [c for c in calls if not c.ok]
        if bad:
            log("failed: %s: %s" % (bad[0].describe(), bad[0].problem()))
            return None
        return statistics.median(c.ms for c in calls)

    msg = tmp / "msg.txt"
    msg.write_text(text(200))
    png = tmp / "t.png"
    rows.append(["seal 200 B to one recipient into a QR PNG",
                 fmt_ms(med([qrseal, "encode", "--to", recipient, "--armor", "age", "-o", png, "--force", "-i", msg]))
                 + " (age file)  " + fmt_ms(med([qrseal, "encode", "--to", recipient, "-o", png, "--force", "-i", msg]))
                 + " (envelope)",
                 fmt_ms(statistics.median(run_pipe(["age", "-r", recipient, str(msg)],
                                                    ["qrencode", "-8", "-o", str(png)]).ms for _ in range(reps)))
                 + " (age | qrencode -8)"])
    rows.append(["start the process (--version)", fmt_ms(med([qrseal, "--version"])), fmt_ms(med(["age", "--version"]))])
    opened = {}
    for size, label in [(200, "open a 200 B age file"), (1 << 20, "open a 1 MiB age file"), (16 << 20, "open a 16 MiB age file")]:
        src = tmp / ("p%d" % size)
        src.write_bytes(os.urandom(size))
        sealed = tmp / ("p%d.age" % size)
        subprocess.run(["age", "-r", recipient, "-o", str(sealed), str(src)], check=True)
        ours = med([qrseal, "open", sealed, "--identity", key, "--no-store", "-o", tmp / "o", "--force"])
        theirs = med(["age", "-d", "-i", str(key), "-o", str(tmp / "o2"), str(sealed)])
        same = (tmp / "o").read_bytes() == src.read_bytes() == (tmp / "o2").read_bytes()
        rows.append([label + ("" if same else " (OUTPUT DIFFERS)"), fmt_ms(ours), fmt_ms(theirs)])
        opened[size] = (ours, theirs)
    if all(v is not None for pair in opened.values() for v in pair):
        per = [(opened[16 << 20][i] - opened[1 << 20][i]) / 15 for i in (0, 1)]
        rows.append(["open: per MiB, (16 MiB - 1 MiB) / 15", fmt_ms(per[0]), fmt_ms(per[1])])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qrseal")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    qrseal, note = resolve_qrseal(args.qrseal)
    if note:
        log("qrseal: " + note)
    if qrseal is None:
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="qrseal-age-bench-"))
    env_home = tmp / "home"
    os.environ["XDG_DATA_HOME"] = str(env_home)
    key, recipient = keygen(tmp)
    print_table("Table 1: one X25519 recipient, one version-40-L symbol (content bytes; a 1-byte message's size)",
                ["form", "largest content", "1-byte message"], capacity(qrseal, recipient, tmp))
    print_table("Table 2: time, median of %d (ms)" % args.reps,
                ["task", "qrseal", "age"], timing(qrseal, key, recipient, tmp, args.reps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
