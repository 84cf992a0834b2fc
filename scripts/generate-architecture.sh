#!/usr/bin/env bash
# Writes README.md's module graph (between <!-- architecture:begin --> and
# <!-- architecture:end -->) from Package.swift, through `swift package dump-package`: every
# target under Sources/, each with the targets and products it declares it uses, the ones that
# use the most first. With --check it writes nothing and fails when README.md differs
# (scripts/test runs it so; the build's import check keeps the declarations true to the code).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-write}"
swift package dump-package | MODE="$mode" python3 -c '
import json, os, sys
package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"] if t["type"] != "test" and t.get("path") is None}

def uses(target):
    inside, outside = [], []
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        name = value[0]
        (inside if kind in ("byName", "target") and name in targets else outside).append(name)
    return inside, outside

depth = {}
def height(name):
    if name not in depth:
        inside, _ = uses(targets[name])
        depth[name] = 1 + max((height(n) for n in inside), default=0)
    return depth[name]

order = sorted(targets, key=lambda n: (-height(n), n.lower()))
def label(name):
    return name + {"executable": " (executable)", "system": " (system library)"}.get(targets[name]["type"], "")
width = max(len(label(n)) for n in order)
lines = ["```"]
for name in order:
    inside, outside = uses(targets[name])
    inside.sort(key=lambda n: (-height(n), n.lower()))
    right = ", ".join(inside) if inside else "–"
    if outside:
        right += "  ·  " + ", ".join(sorted(outside))
    lines.append(f"{label(name).ljust(width)} ─► {right}")
lines.append("```")
graph = "\n".join(lines)

begin, end = "<!-- architecture:begin -->", "<!-- architecture:end -->"
readme = open("README.md", encoding="utf-8").read()
assert begin in readme and end in readme, "README.md lacks the architecture markers"
head, rest = readme.split(begin, 1)
_, tail = rest.split(end, 1)
written = head + begin + "\n" + graph + "\n" + end + tail
if os.environ["MODE"] == "--check":
    if written != readme:
        sys.exit("README.md'"'"'s module graph is not Package.swift'"'"'s: run scripts/generate-architecture.sh")
else:
    open("README.md", "w", encoding="utf-8").write(written)
'
