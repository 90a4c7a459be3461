#!/usr/bin/env python3
"""Plots of `fhn bench`: time per call against n, one log-log panel per kernel and one line per
device and variant (shaded: min to max of the repetitions; dotted: the copy-bandwidth bound of
the kernel's byte model on each device), and a last panel of the speed-up of each variant over
its baseline.

    tools/plot_bench.py bench.csv [-o OUT.png]

Reads the CSV written by `fhn bench --csv bench.csv`; writes OUT.png (default: the CSV's name
with .png, beside it). Rows whose check failed are drawn as red crosses.
"""
import argparse
import csv
import os
import sys

CHECK_TOLERANCE = 1e-8  # fhn::bench::kCheckTolerance


def number(text):
    return float(text) if text not in ("", None) else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", help="CSV from fhn bench --csv")
    parser.add_argument("-o", "--output", help="PNG to write (default: the CSV's name with .png)")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_bench.py needs matplotlib (Debian: python3-matplotlib; run with /usr/bin/python3)")

    with open(args.csv, newline="") as f:
        rows = [r for r in csv.DictReader(f) if number(r["median_ms"])]
    if not rows:
        sys.exit(f"{args.csv}: no measured rows")
    for r in rows:
        r["n"] = int(r["n"])
        for key in ("median_ms", "min_ms", "max_ms", "bytes", "gb_per_s", "speed_up", "check"):
            r[key] = number(r[key])
        r["failed"] = not (r["check"] is not None and r["check"] <= CHECK_TOLERANCE)

    kernels = list(dict.fromkeys(r["kernel"] for r in rows))
    # The roofline of each device: its copy row with the largest n.
    copy_gbs = {}
    for r in sorted((r for r in rows if r["kernel"] == "copy"), key=lambda r: r["n"]):
        copy_gbs[r["device"]] = r["gb_per_s"]
    has_speed_up = any(r["speed_up"] for r in rows)

    panels = len(kernels) + (1 if has_speed_up else 0)
    columns = min(panels, 2)
    lines = (panels + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(6.4 * columns, 4.6 * lines), squeeze=False)
    axes = axes.ravel()
    for ax in axes[panels:]:
        ax.set_visible(False)

    for ax, kernel in zip(axes, kernels):
        of_kernel = [r for r in rows if r["kernel"] == kernel]
        for device in dict.fromkeys(r["device"] for r in of_kernel):
            on_device = [r for r in of_kernel if r["device"] == device]
            for variant in dict.fromkeys(r["variant"] for r in on_device):
                points = sorted((r for r in on_device if r["variant"] == variant), key=lambda r: r["n"])
                good = [r for r in points if not r["failed"]]
                label = f"{variant} ({device})"
                if good:
                    n = [r["n"] for r in good]
                    line, = ax.loglog(n, [r["median_ms"] for r in good], "o-", ms=3, label=label)
                    ax.fill_between(n, [r["min_ms"] for r in good], [r["max_ms"] for r in good],
                                    color=line.get_color(), alpha=0.15, lw=0)
                bad = [r for r in points if r["failed"]]
                if bad:
                    ax.loglog([r["n"] for r in bad], [r["median_ms"] for r in bad], "rx", ms=8,
                              label=f"{label}: check FAILED")
            if kernel != "copy" and device in copy_gbs:
                floor = sorted(on_device, key=lambda r: r["n"])
                ax.loglog([r["n"] for r in floor], [r["bytes"] / (copy_gbs[device] * 1e6) for r in floor],
                          ":", color="0.4", lw=1, label=f"copy bound ({device})")
        ax.set_title(kernel)
        ax.set_xlabel("n")
        ax.set_ylabel("time per call (ms)")
        ax.set_xscale("log", base=2)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)

    if has_speed_up:
        ax = axes[len(kernels)]
        compared = [r for r in rows if r["speed_up"] and not r["failed"]]
        for key in dict.fromkeys((r["kernel"], r["variant"], r["device"], r["baseline"]) for r in compared):
            points = sorted((r for r in compared if (r["kernel"], r["variant"], r["device"], r["baseline"]) == key),
                            key=lambda r: r["n"])
            kernel, variant, device, baseline = key
            ax.semilogx([r["n"] for r in points], [r["speed_up"] for r in points], "o-", ms=3,
                        label=f"{kernel}: {variant} over {baseline} ({device})")
        ax.axhline(1.0, color="k", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_title("speed-up over the baseline (baseline time / time)")
        ax.set_xlabel("n")
        ax.set_ylabel("speed-up")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)

    output = args.output or os.path.splitext(args.csv)[0] + ".png"
    fig.tight_layout()
    fig.savefig(output, dpi=120)
    print(output)


if __name__ == "__main__":
    main()
