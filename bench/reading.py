"""Part A of bench/run.py: how well and how fast each reader reads each folder.

Every reader reads each folder in one process (two for zbarimg and ZXingReader when a folder
also holds images of raw bytes); it is scored on the first repetition and timed by the median
over the repetitions. Then: totals per group of folders, the images some peer reads and qrseal
at the default effort does not, and the whole corpus in one process per reader.
"""

import os
import statistics

from corpus import OUTCOMES, find_folders, load_folder, read_correctly, score
from tables import fmt_ms, log, print_table

DEFAULT_EFFORT = "balanced"  # qrseal scan's default for image files
COUNTS = OUTCOMES + ("fp", "crashes")
HEADERS = ["reader", "correct", "wrong", "missed", "errors", "false pos.", "crashes", "ms", "ms/image"]

# How the shared corpus's folders add up in the summary (as in its README).
GROUPS = [("QR folders", ("zxing-qr", "zbar")), ("1D + 2D folders", ("zxing-1d", "zxing-2d")),
          ("several codes", ("zxing-multi",)), ("no code", ("zxing-nothing",))]


def group_of(root_label, rel):
    top = rel.split("/")[0]
    for label, tops in GROUPS:
        if top in tops:
            return label
    return "%s: %s" % (root_label, rel) if root_label != "corpus" else rel


def zero():
    return dict.fromkeys(COUNTS, 0)


def add(into, counts):
    for k in COUNTS:
        into[k] += counts.get(k, 0)


def cell(c):
    text = "%d / %d / %d" % (c["correct"], c["wrong"], c["missed"] + c["error"])
    if c["fp"]:
        text += ", %d fp" % c["fp"]
    if c["crashes"]:
        text += ", %d crash%s" % (c["crashes"], "" if c["crashes"] == 1 else "es")
    return text


def units(samples):
    return sum(s.units() for s in samples)


def part_a(args, readers, roots, report):
    """roots: [(label, folder)], the shared corpus and the generated sets."""
    print("== Part A: reading (one process per folder and reader, %d repetition%s) ==\n"
          % (args.reps, "" if args.reps == 1 else "s"))
    live = [r for r in readers if r.available()]
    groups = {}   # group label -> reader name -> counts
    matrix = []   # (folder, units, {reader name: counts})
    group_ms = {}
    better = []   # (sample name, [peers right where qrseal is not])
    qrseal_default = next((r for r in live if r.name == "qrseal " + DEFAULT_EFFORT), None)
    report["reading"] = []
    all_samples = []
    crashers = set()  # images that crash some reader: left out of the whole-corpus run
    for label, root in roots:
        folders = find_folders(root)
        if args.only:
            folders = [f for f in folders
                       if any(o in "%s/%s" % (label, f.relative_to(root)) for o in args.only)]
        for folder in folders:
            rel = str(folder.relative_to(root))
            samples, skipped = load_folder(folder, root)
            if not samples:
                continue
            if label != "corpus":
                for s in samples:
                    s.name = "%s/%s" % (label, s.name)
            if label == "corpus":
                all_samples += samples
            group = group_of(label, rel)
            shown = rel if label == "corpus" else "%s/%s" % (label, rel)
            rows, notes, per_reader = [], [], {}
            if skipped:
                notes.append("skipped (no expectation beside it): " + ", ".join(skipped))
            entry = {"folder": shown, "images": len(samples), "codes": units(samples), "readers": {}}
            for reader in readers:
                if not reader.available():
                    rows.append([reader.name, reader.missing])
                    continue
                log("[%s] %s ..." % (shown, reader.name))
                scans = [reader.scan(samples) for _ in range(args.reps)]
                first = scans[0]
                counts, per_image = zero(), {}
                for s in samples:
                    c = score(s, first.reads, any(p in first.failed for p in s.paths))
                    add(counts, c)
                    per_image[s.name] = c
                counts["crashes"] = len(first.crashers) or (1 if first.crashed() else 0)
                ms = statistics.median(sc.ms() for sc in scans)
                ok = all(sc.ok() for sc in scans)
                rows.append([reader.name, counts["correct"], counts["wrong"], counts["missed"],
                             counts["error"], counts["fp"], counts["crashes"],
                             fmt_ms(ms) + ("" if ok else "!"), fmt_ms(ms / len(samples))])
                per_reader[reader.name] = per_image
                add(groups.setdefault(group, {}).setdefault(reader.name, zero()), counts)
                group_ms.setdefault(group, {}).setdefault(reader.name, 0.0)
                group_ms[group][reader.name] += ms
                for n in first.notes:
                    notes.append("%s: %s" % (reader.name, n))
                crashers.update(first.crashers)
                if first.crashers:
                    notes.append("%s crashes on: %s" % (reader.name, ", ".join(
                        os.path.basename(p) for p in first.crashers)))
                entry["readers"][reader.name] = {
                    "counts": counts, "ms": ms, "all_runs_ok": ok,
                    "crashes_on": [os.path.basename(p) for p in first.crashers],
                    "per_image": per_image}
            matrix.append((shown, units(samples), {n: e["counts"] for n, e in entry["readers"].items()}))
            if qrseal_default:
                better += peers_better(samples, per_reader, qrseal_default.name)
            print("%s  (%d images%s)" % (shown, sum(len(s.paths) for s in samples), "" if units(samples) == len(samples)
                                        else ", %d codes" % units(samples)))
            print_table(HEADERS, rows, args.markdown)
            for n in notes:
                print("  note: " + n)
            if notes:
                print()
            report["reading"].append(entry)
    folders_table(args, live, matrix)
    summary(args, live, groups, group_ms, report)
    list_better(args, better, qrseal_default, report)
    if all_samples:
        whole_corpus(args, live, all_samples, crashers, report)


def peers_better(samples, per_reader, qrseal_name):
    ours = per_reader.get(qrseal_name)
    if ours is None:
        return []
    found = []
    for s in samples:
        peers = [name for name, res in per_reader.items()
                 if not name.startswith("qrseal") and res[s.name]["correct"] > ours[s.name]["correct"]]
        if peers:
            found.append((s.name, peers, read_correctly(ours[s.name], s)))
    return found


def folders_table(args, live, matrix):
    if not matrix:
        return
    print("FOLDERS  correct / wrong / missed (errors included), false positives, crashes")
    headers = ["folder"] + [r.name for r in live]
    rows = [["%s (%d)" % (f, n)] + [cell(c[r.name]) if r.name in c else "-" for r in live]
            for f, n, c in matrix]
    print_table(headers, rows, args.markdown, left=len(headers))


def summary(args, live, groups, group_ms, report):
    if not groups:
        return
    print("SUMMARY  correct / wrong / missed (errors included), false positives, crashes")
    headers = ["folders"] + [r.name for r in live]
    rows = [[g] + [cell(groups[g][r.name]) if r.name in groups[g] else "-" for r in live]
            for g in groups]
    print_table(headers, rows, args.markdown, left=len(headers))
    print("TIME  ms, one process per folder, summed over the folders of each group")
    rows = [[g] + [fmt_ms(group_ms[g].get(r.name)) for r in live] for g in groups]
    print_table(headers, rows, args.markdown)
    report["summary"] = {g: {"counts": groups[g], "ms": group_ms[g]} for g in groups}


def list_better(args, better, qrseal_default, report):
    """The images a peer reads right and qrseal does not, one row per folder and set of peers."""
    if qrseal_default is None:
        return
    print("IMAGES A PEER READS RIGHT AND %s DOES NOT  (%d)" % (qrseal_default.name.upper(), len(better)))
    rows, where = [], {}
    for name, peers, _ in better:
        folder, image = name.rsplit("/", 1)
        key = (folder, ", ".join(peers))
        if key not in where:
            where[key] = len(rows)
            rows.append([folder, key[1], []])
        rows[where[key]][2].append(image)
    if rows:
        print_table(["folder", "read right by", "images"],
                    [[f, p, "%d: %s" % (len(i), ", ".join(i))] for f, p, i in rows], args.markdown, left=3)
    else:
        print("  none\n")
    report["peer_better"] = [{"image": n, "peers": p} for n, p, _ in better]


def whole_corpus(args, live, samples, crashers, report):
    """Every image of the shared corpus in one process per reader, the readers taking turns
    in each repetition so that they share the machine's state alike. Images that crash a
    reader are left out, so that every reader's time covers the same images."""
    left_out = [s.name for s in samples if any(p in crashers for p in s.paths)]
    samples = [s for s in samples if not any(p in crashers for p in s.paths)]
    times = {r.name: [] for r in live}
    inner = {r.name: [] for r in live}
    problems = {r.name: None for r in live}
    for _ in range(args.reps):
        for reader in live:
            log("[whole corpus] %s ..." % reader.name)
            sc = reader.scan(samples, census=False)
            times[reader.name].append(sc.ms())
            if sc.inner_ms is not None:
                inner[reader.name].append(sc.inner_ms)
            if not sc.ok():
                problems[reader.name] = "crashed" if sc.crashed() else "failed"
    rows = []
    for reader in live:
        t = times[reader.name]
        mark = "!" if problems[reader.name] else ""
        rows.append([reader.name, fmt_ms(statistics.median(t)) + mark, fmt_ms(min(t)),
                     fmt_ms(statistics.median(inner[reader.name])) if inner[reader.name] else "-"])
    print("WHOLE CORPUS IN ONE PROCESS  (%d images, median of %d)" % (
        sum(len(s.paths) for s in samples), args.reps))
    print_table(["reader", "median ms", "min ms", "in-process ms"], rows, args.markdown)
    if left_out:
        print("  left out, as they crash a reader: %s\n" % ", ".join(left_out))
    crashed = [r.name for r in live if problems[r.name]]
    if crashed:
        print("  '!': %s died or failed before the last image; the time covers only what it read.\n"
              % ", ".join(crashed))
    report["whole_corpus"] = {"left_out": left_out, "readers": {
        name: {"ms": t, "in_process_ms": inner[name], "problem": problems[name]}
        for name, t in times.items()}}

