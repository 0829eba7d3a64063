#!/usr/bin/env python3
"""Inbox benchmark: 100,000 items, then list/search/count/export through the real CLI.

Usage: python3 bench/inbox.py [--qrseal PATH] [--items N] [--runs N]

Times are wall-clock for a whole `qrseal` process (start-up included), median of N runs.
The items are synthetic but shaped like real scans: URLs, Wi-Fi codes, product codes,
prose, sealed messages, a little binary.
"""
import argparse, base64, json, os, random, statistics, subprocess, sys, tempfile, time

KINDS = ["url", "wifi", "product", "text", "sealed", "email", "binary"]
WORDS = ("north gate meeting bring forms lunch room coffee receipt parcel ticket train "
         "harbour library invoice garden tomorrow evening bicycle market river").split()


def make_item(i, rng):
    kind = rng.choice(KINDS)
    if kind == "url":
        text = "https://example.org/%s/%d?ref=%s" % (rng.choice(WORDS), i, rng.choice(WORDS))
    elif kind == "wifi":
        text = "WIFI:S:%s-%d;T:WPA;P:%s%d;;" % (rng.choice(WORDS), i % 97, rng.choice(WORDS), i)
    elif kind == "product":
        text = "%013d" % rng.randrange(10**12, 10**13)
    elif kind == "sealed":
        text = "QRSEAL1:" + "".join(rng.choice("0123456789") for _ in range(160))
    elif kind == "email":
        text = "mailto:%s%d@example.org" % (rng.choice(WORDS), i)
    else:
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(4, 30)))
    t = 1_700_000_000_000 + i * 60_000
    when = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t / 1000)) + ".000Z"
    obj = {"received_at": when, "source_kind": "file", "source": "/home/user/scans/img%06d.png" % i,
           "symbology": "ean13" if kind == "product" else "qr", "kind": kind}
    if kind == "binary":
        data = bytes(rng.randrange(256) for _ in range(40))
    else:
        data = text.encode()
        obj["text"] = text
    obj["bytes_base64"] = base64.b64encode(data).decode()
    obj["corners"] = [[10, 10], [110, 10], [110, 110], [10, 110]]
    obj["pinned"] = False
    return json.dumps(obj, ensure_ascii=False)


def timed(cmd, env, runs):
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        r = subprocess.run(cmd, env=env, capture_output=True)
        times.append((time.perf_counter() - start) * 1000)
        out = r
    return statistics.median(times), min(times), out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--qrseal", default=os.path.join(here, "..", ".build", "release", "qrseal"))
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    qrseal = os.path.abspath(args.qrseal)
    if not os.path.exists(qrseal):
        sys.exit("bench/inbox.py: %s not built (run make build)" % qrseal)
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        inbox = os.path.join(tmp, "inbox.sqlite")
        env = dict(os.environ, QRSEAL_INBOX=inbox, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp)
        export = os.path.join(tmp, "items.jsonl")
        with open(export, "w") as f:
            for i in range(args.items):
                f.write(make_item(i, rng) + "\n")
        start = time.perf_counter()
        r = subprocess.run([qrseal, "inbox", "import", export], env=env, capture_output=True)
        import_ms = (time.perf_counter() - start) * 1000
        if r.returncode != 0:
            sys.exit("import failed: " + r.stderr.decode())
        size = os.path.getsize(inbox)
        print("Inbox with %d items (%.1f MB), imported in %.0f ms (%.0f items/s)"
              % (args.items, size / 1e6, import_ms, args.items / import_ms * 1000))
        # Repeated payloads used to make import quadratic (one digest matched every line).
        repeats = args.items // 5
        same = os.path.join(tmp, "same.jsonl")
        with open(same, "w") as f:
            line = json.loads(make_item(0, random.Random(1)))
            for i in range(repeats):
                line["received_at"] = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(1_700_000_000 + i)) + ".000Z"
                f.write(json.dumps(line) + "\n")
        start = time.perf_counter()
        r = subprocess.run([qrseal, "inbox", "import", same, "--inbox", os.path.join(tmp, "same.sqlite")],
                           env=env, capture_output=True)
        same_ms = (time.perf_counter() - start) * 1000
        print("%d lines of one payload imported in %.0f ms (%.0f items/s, exit %d)\n"
              % (repeats, same_ms, repeats / same_ms * 1000, r.returncode))
        cases = [
            ("inbox list (newest 50)", ["inbox", "list"]),
            ("inbox list --search harbour", ["inbox", "list", "--search", "harbour"]),
            ("inbox list --search (rare: 'img099999')", ["inbox", "list", "--search", "P:river99999"]),
            ("inbox list --search (no match)", ["inbox", "list", "--search", "zzzqqq"]),
            ("inbox list --search 'ha' (2 chars)", ["inbox", "list", "--search", "ha"]),
            ("inbox list --kind wifi", ["inbox", "list", "--kind", "wifi"]),
            ("inbox list --kind wifi --search river", ["inbox", "list", "--kind", "wifi", "--search", "river"]),
            ("inbox list --since 7d", ["inbox", "list", "--since", "2023-12-01"]),
            ("inbox count", ["inbox", "count"]),
            ("inbox count --search harbour", ["inbox", "count", "--search", "harbour"]),
            ("inbox export (JSON, all)", ["inbox", "export", "--force", "-o", os.path.join(tmp, "out.jsonl")]),
            ("inbox export --format csv (all)", ["inbox", "export", "--format", "csv", "--force", "-o", os.path.join(tmp, "out.csv")]),
            ("qrseal --version (process start-up)", ["--version"]),
        ]
        print("%-44s %10s %8s %6s" % ("command (%d items)" % args.items, "median ms", "min ms", "exit"))
        print("-" * 72)
        for name, argv in cases:
            median, low, r = timed([qrseal] + argv, env, args.runs)
            print("%-44s %10.1f %8.1f %6d" % (name, median, low, r.returncode))


if __name__ == "__main__":
    main()
