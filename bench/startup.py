#!/usr/bin/env python3
"""qrseal start-up benchmark: what one process costs, for scripts that call the tool in a loop.

Table 1  each binary: size, how many shared libraries the loader maps (ldd), and whether
         any of them comes from the Swift toolchain.
Table 2  median wall time of one process over N runs, the tools taking turns in each round:
         `--version` against `/bin/true`, `encode -o x.png hello` against
         `qrencode -o x.png hello`, and a one-image scan against `zbarimg -q`, with the ratio of
         each qrseal binary to the peer.
Table 3  the same runs' median CPU time (user + system, from wait4), which other processes
         on a busy machine disturb less than wall time, and how many shared objects the
         dynamic loader mapped for the command (LD_DEBUG=files, one extra run): the libraries
         qrseal opens on first use count only where the command needs them.

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
    """(wall ms, CPU ms) of one process, its output discarded."""
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE, env=env, cwd=cwd)
        stderr = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
        elapsed = (time.perf_counter() - start) * 1000
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("startup: %s failed (%d): %s" % (" ".join(argv), p.returncode, stderr.decode(errors="replace")))
    return elapsed, (usage.ru_utime + usage.ru_stime) * 1000


def objects_mapped(argv, env, cwd):
    """How many shared objects the dynamic loader maps for one run (LD_DEBUG=files)."""
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd,
                       env=dict(env, LD_DEBUG="files"))
    return sum(1 for line in r.stderr.decode(errors="replace").splitlines() if "generating link map" in line)


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
             "/bin/true", ["/bin/true"]),
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

        def objects(argv):
            n = objects_mapped(argv, env, tmp)
            return ", %d object%s" % (n, "" if n == 1 else "s")

        rows, cpu_rows = [], []
        for case, tools, peer, peer_argv in cases:
            runs = {name: [] for name, _ in tools}
            runs[peer] = []
            for _ in range(args.runs):
                for name, argv in tools:
                    runs[name].append(run_once(argv, env, tmp))
                if peer_argv:
                    runs[peer].append(run_once(peer_argv, env, tmp))
            row, cpu_row = [case], [case]
            for column, out in ((0, row), (1, cpu_row)):
                peer_ms = statistics.median(r[column] for r in runs[peer]) if runs[peer] else None
                for name, argv in tools:
                    ms = statistics.median(r[column] for r in runs[name])
                    cell = "%.1f" % ms + (" (%.1f×)" % (ms / peer_ms) if peer_ms else "")
                    out.append(cell + (objects(argv) if column == 1 else ""))
                if peer_ms is None:
                    out.append("%s missing" % peer)
                else:
                    out.append("%s %.1f" % (peer, peer_ms)
                               + (objects(peer_argv) if column == 1 else ""))
            rows.append(row)
            cpu_rows.append(cpu_row)
        headers = ["command"] + ["qrseal " + n for n, _ in binaries] + ["peer"]
        print("Table 2: one process, median wall time of %d runs, ms (× the peer)" % args.runs)
        print_table(headers, rows, markdown=args.markdown)
        print("Table 3: the same runs, median CPU time (user + system), ms (× the peer), and shared objects mapped")
        print_table(headers, cpu_rows, markdown=args.markdown)


if __name__ == "__main__":
    main()
