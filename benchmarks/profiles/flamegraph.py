#!/usr/bin/env python3
"""A flame graph (SVG) of CPU samples: a JFR recording, or async-profiler's collapsed output.

    python3 benchmarks/profiles/flamegraph.py RECORDING.jfr OUT.svg [--title TEXT] [--threads REGEX]
    python3 benchmarks/profiles/flamegraph.py PROFILE.collapsed OUT.svg [--title TEXT]

A `.jfr` recording is read with the JDK's own `jfr print --events jdk.ExecutionSample --stack-depth
96`, keeping the samples of the threads whose name matches --threads (default: every thread). A
`.collapsed` file (async-profiler's `stop,file=X.collapsed`: every thread, native and kernel frames
included) is read as it is. One box per frame, as wide as the share of samples it was on the stack
for; hovering a box shows its samples and percentage. `OUT.collapsed` (Brendan Gregg's folded
format, one stack per line with its count) is written beside the SVG for other tools and for diffs.
"""
import argparse
import collections
import html
import re
import subprocess
import sys

FRAME = re.compile(r"^\s+(\S.*?)(?:\s+line:\s*\d+)?(?:\s+bci:\s*\d+)?\s*$")


def samples(recording, thread_filter):
    out = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "96", recording],
                         check=True, capture_output=True, text=True).stdout
    stacks = collections.Counter()
    thread, frames, in_stack = "", [], False
    for line in out.splitlines():
        stripped = line.strip()
        if stripped.startswith("sampledThread"):
            thread = stripped.split("=", 1)[1].strip().split('"')[1] if '"' in stripped else stripped
        elif stripped.startswith("stackTrace = ["):
            frames, in_stack = [], True
        elif in_stack and stripped == "]":
            in_stack = False
            if frames and (thread_filter is None or thread_filter.search(thread)):
                stacks[";".join(reversed(frames))] += 1
        elif in_stack and stripped != "...":
            m = FRAME.match(line)
            if m:
                frames.append(shorten(m.group(1)))
    return stacks


def folded(path):
    """async-profiler's collapsed stacks, Java frames shortened as JFR's are."""
    stacks = collections.Counter()
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if stack:
                stacks[";".join(shorten(frame.replace("/", ".")) if "/" in frame and "::" not in frame
                                else frame for frame in stack.split(";"))] += int(count)
    return stacks


def shorten(frame):
    """io.rockds.storage.EntryCodec.decodeChecked(ByteBuffer, AttributeProjection) -> EntryCodec.decodeChecked"""
    name = frame.split("(", 1)[0]
    parts = name.split(".")
    return ".".join(parts[-2:]) if len(parts) >= 2 else name


def tree(stacks):
    root = {"n": 0, "c": {}}
    for stack, count in stacks.items():
        root["n"] += count
        node = root
        for frame in stack.split(";"):
            node = node["c"].setdefault(frame, {"n": 0, "c": {}})
            node["n"] += count
    return root


def color(name):
    h = sum(ord(c) for c in name)
    if name.startswith(("EntryCodec", "Id2Entry", "EntryContainer", "Backend", "Dn2Id", "AttributeIndex")):
        return f"rgb(80,{150 + h % 60},{200 + h % 50})"  # storage: blue-green
    if "rockds" in name or name[:1].isupper() and "." in name and not name.startswith(("java", "jdk", "sun")):
        return f"rgb({220 + h % 35},{120 + h % 80},60)"
    return f"rgb({200 + h % 55},{80 + h % 60},{60 + h % 40})"


def svg(root, title, width=1600, row=16):
    total = root["n"]
    boxes = []

    def depth(node):
        return 1 + max((depth(c) for c in node["c"].values()), default=0)

    height = (depth(root) + 2) * row + 30

    def walk(node, name, x, level):
        w = width * node["n"] / total
        if w < 0.3:
            return
        y = height - (level + 1) * row - 10
        pct = 100.0 * node["n"] / total
        label = html.escape(name)
        text = label if w > 7 * len(name) else (html.escape(name[: int(w / 7) - 2]) + ".." if w > 30 else "")
        boxes.append(f'<g><title>{label} ({node["n"]} samples, {pct:.2f}%)</title>'
                     f'<rect x="{x:.1f}" y="{y}" width="{max(w - 0.5, 0.1):.1f}" height="{row - 1}" fill="{color(name)}"/>'
                     f'<text x="{x + 3:.1f}" y="{y + row - 4}">{text}</text></g>')
        cx = x
        for child_name, child in sorted(node["c"].items()):
            walk(child, child_name, cx, level + 1)
            cx += width * child["n"] / total

    walk(root, "all", 0, 0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="monospace" font-size="11">'
            f'<rect width="100%" height="100%" fill="#fafafa"/>'
            f'<text x="10" y="18" font-size="14">{html.escape(title)} ({total} samples)</text>'
            + "".join(boxes) + "</svg>\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("recording")
    p.add_argument("out")
    p.add_argument("--title", default="CPU samples")
    p.add_argument("--threads", default=None, help="regex on the sampled thread's name")
    a = p.parse_args()
    if a.recording.endswith(".collapsed"):
        stacks = folded(a.recording)
    else:
        stacks = samples(a.recording, re.compile(a.threads) if a.threads else None)
    if not stacks:
        sys.exit("no samples (matching --threads) in " + a.recording)
    collapsed = a.out.rsplit(".", 1)[0] + ".collapsed"
    with open(collapsed, "w") as f:
        for stack, count in stacks.most_common():
            f.write(f"{stack} {count}\n")
    with open(a.out, "w") as f:
        f.write(svg(tree(stacks), a.title))
    print(f"{sum(stacks.values())} samples -> {a.out}, {collapsed}")


if __name__ == "__main__":
    main()
