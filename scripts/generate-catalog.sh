#!/usr/bin/env bash
# Writes the method catalog (Sources/WorkoutProtocol/Catalog/MethodCatalog.swift, the one place
# a method is declared) into the places outside Swift that name methods:
#   - Protocol/PROTOCOL.md, the table between <!-- catalog:begin --> and <!-- catalog:end -->,
#     and what device tokens may call, between <!-- tokens:begin --> and <!-- tokens:end -->;
#   - the comment line above each `rpc` in Protocol/workout/v1/*.proto;
#   - Protocol/catalog.json, which Protocol/vectors/make_vectors.py reads.
# Run it after adding or changing a method; CatalogTests fail until it has been run. If the
# .proto comments changed, run scripts/generate-protos.sh too (the generated code quotes them).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
swift build --product workoutd >&2
bin="$(swift build --show-bin-path)/workoutd"
"$bin" catalog --format json > Protocol/catalog.json
table="$("$bin" catalog --format markdown)"
comments="$("$bin" catalog --format proto)"
tokens="$("$bin" catalog --format tokens)"
TABLE="$table" TOKENS="$tokens" COMMENTS="$comments" python3 - <<'PY'
import os, re, glob
spec_path = "Protocol/PROTOCOL.md"
spec = open(spec_path, encoding="utf-8").read()
for name, variable in (("catalog", "TABLE"), ("tokens", "TOKENS")):
    begin, end = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
    assert begin in spec and end in spec, "PROTOCOL.md lacks the %s markers" % name
    head, rest = spec.split(begin, 1)
    _, tail = rest.split(end, 1)
    spec = head + begin + "\n" + os.environ[variable].strip("\n") + "\n" + end + tail
open(spec_path, "w", encoding="utf-8").write(spec)
comments = dict(line.split("\t", 1) for line in os.environ["COMMENTS"].splitlines())
pattern = re.compile(r'^(\s*)// Method (\d+), .*$')
for path in sorted(glob.glob("Protocol/workout/v1/*.proto")):
    lines = open(path, encoding="utf-8").read().split("\n")
    out = []
    for line in lines:
        m = pattern.match(line)
        if m and m.group(2) in comments:
            line = m.group(1) + comments[m.group(2)]
        out.append(line)
    open(path, "w", encoding="utf-8").write("\n".join(out))
PY
echo "catalog written: Protocol/catalog.json, PROTOCOL.md sections 17 and 22, .proto comments" >&2
