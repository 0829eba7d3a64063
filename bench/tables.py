"""Plain and Markdown tables, and progress messages, for the bench scripts."""

import sys


def fmt_ms(v):
    if v is None:
        return "-"
    return "%.1f" % v if v < 100 else "%.0f" % v


def print_table(headers, rows, markdown=False, left=1, out=sys.stdout):
    """left: how many leading columns are left-aligned text."""
    cells = [[str(c) for c in r] for r in rows]
    if markdown:
        out.write("| " + " | ".join(headers) + " |\n")
        out.write("|" + "|".join("---" for _ in headers) + "|\n")
        for r in cells:
            r = r + [""] * (len(headers) - len(r))
            out.write("| " + " | ".join(r) + " |\n")
        out.write("\n")
        return
    widths = [len(h) for h in headers]
    for r in cells:
        # a short row ("qrseal  not built") ends in free text that may overflow
        for i, c in enumerate(r if len(r) == len(headers) else r[:-1]):
            widths[i] = max(widths[i], len(c))

    def line(r):
        if len(r) < len(headers):  # left-aligned, e.g. "qrseal  not built"
            return "  ".join([c.ljust(widths[i]) for i, c in enumerate(r[:-1])] + r[-1:])
        return "  ".join(c.ljust(widths[i]) if i < left else c.rjust(widths[i])
                         for i, c in enumerate(r))

    out.write(line(headers) + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for r in cells:
        out.write(line(r) + "\n")
    out.write("\n")


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()

