#!/usr/bin/env python3
"""qrseal start-up benchmark: what one process costs, for scripts that call the tool in a loop.

Table 1  each binary: size, how many shared libraries the loader maps (ldd), and whether
         any of them comes from the Swift toolchain.
Table 2  median wall time of one process over N runs, the tools taking turns in each round:
         `--version`, `encode -o x.png hello` against `qrencode -o x.png hello`, and a
         one-image scan against `zbarimg -q`, with the ratio of each qrseal binary to the peer.

Give the binaries to compare with --qrseal (repeatable, NAME=PATH), e.g. the release binary
linked against the toolchain's shared Swift runtime and the one with it linked statically.
Python 3 standard library only. See bench/README.md, section "Start-up".
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tables import print_table  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TOOLCHAIN_MARK = "/swift"   # a library path from the toolchain (/opt/swift/usr/lib/swift/linux/…)


def libraries(path):
    """The shared libraries ldd resolves for `path`: [(name, resolved path)]."""
    out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    libs = []
    for line in out.splitlines():
        line = line.strip()
        if "=>" in line:
            name, _, rest = line.partition("=>")
            libs.append((name.strip(), rest.split("(")[0].strip()))
        elif line.startswith("/"):
            libs.append((line.split()[0], line.split()[0]))
    return libs


def run_once(argv, env, cwd):
    start = time.perf_counter()
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    elapsed = (time.perf_counter() - start) * 1000
    if r.returncode != 0:
        sys.exit("startup: %s failed (%d): %s" % (" ".join(argv), r.returncode, r.stderr.decode(errors="replace")))
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qrseal", action="append", metavar="NAME=PATH",
                    help="a qrseal binary to measure (repeatable; default static=.build/release/qrseal)")
    ap.add_argument("-n", "--runs", type=int, default=40, help="runs per command (default 40)")
    ap.add_argument("--markdown", action="store_true", help="print Markdown tables")
    args = ap.parse_args()

    binaries = []
    for item in args.qrseal or ["static=" + str(REPO / ".build/release/qrseal")]:
        name, _, path = item.partition("=")
        if not path:
            name, path = Path(item).name, item
        if not os.access(path, os.X_OK):
            sys.exit("startup: %s is not an executable" % path)
        binaries.append((name, str(Path(path).resolve())))
    peers = {name: shutil.which(name) for name in ("qrencode", "zbarimg")}

    with tempfile.TemporaryDirectory(prefix="qrseal-startup-") as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp + "/data", XDG_CONFIG_HOME=tmp + "/config")
        for key in [k for k in env if k.startswith("QRSEAL_")]:
            del env[key]
        image = os.path.join(tmp, "hello.png")
        subprocess.run([binaries[0][1], "encode", "-o", image, "hello"], check=True, env=env)

        # (case, [(tool, argv)], peer tool, peer argv)
        cases = [
            ("--version", [(n, [p, "--version"]) for n, p in binaries],
             "qrencode", peers["qrencode"] and [peers["qrencode"], "--version"]),
            ("encode -o x.png hello", [(n, [p, "encode", "--force", "-o", "x.png", "hello"]) for n, p in binaries],
             "qrencode", peers["qrencode"] and [peers["qrencode"], "-o", "x.png", "hello"]),
            ("scan (one image, kept in the inbox)", [(n, [p, "scan", image]) for n, p in binaries],
             "zbarimg", peers["zbarimg"] and [peers["zbarimg"], "-q", image]),
            ("scan --no-store (one image)", [(n, [p, "scan", "--no-store", image]) for n, p in binaries],
             "zbarimg", peers["zbarimg"] and [peers["zbarimg"], "-q", image]),
        ]

        sizes = []
        for name, path in binaries + [(k, v) for k, v in peers.items() if v]:
            libs = libraries(path)
            from_toolchain = [lib for lib, where in libs if TOOLCHAIN_MARK in where]
            sizes.append([name, path, "%.2f" % (os.path.getsize(path) / 1e6), str(len(libs)),
                          str(len(from_toolchain))])
        print("Table 1: binaries")
        print_table(["binary", "path", "MB", "shared libraries", "of them from the Swift toolchain"], sizes,
                    markdown=args.markdown, left=2)

        rows = []
        for case, tools, peer, peer_argv in cases:
            runs = {name: [] for name, _ in tools}
            runs[peer] = []
            for _ in range(args.runs):
                for name, argv in tools:
                    runs[name].append(run_once(argv, env, tmp))
                if peer_argv:
                    runs[peer].append(run_once(peer_argv, env, tmp))
            peer_ms = statistics.median(runs[peer]) if runs[peer] else None
            row = [case]
            for name, _ in tools:
                ms = statistics.median(runs[name])
                row.append("%.1f" % ms + (" (%.1f×)" % (ms / peer_ms) if peer_ms else ""))
            row.append("%s %.1f" % (peer, peer_ms) if peer_ms else "%s missing" % peer)
            rows.append(row)
        print("Table 2: one process, median of %d runs, ms (× the peer)" % args.runs)
        print_table(["command"] + ["qrseal " + n for n, _ in binaries] + ["peer"], rows, markdown=args.markdown)


if __name__ == "__main__":
    main()
