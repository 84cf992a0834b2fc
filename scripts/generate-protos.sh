#!/usr/bin/env bash
# Regenerates the Swift code for Protocol/workout/v1/*.proto into
# Sources/WorkoutProtocol/Generated/, and records the checksum of the .proto
# files in Sources/WorkoutProtocol/Generated/PROTO_CHECKSUM so a test can tell
# whether the committed code matches the .proto files without this script.
#
# Needs: protoc (Debian's protobuf-compiler, 3.21) on PATH or in $PROTOC, and
# protoc-gen-swift from swift-protobuf 1.39.0. Give the plugin with
#   PROTOC_GEN_SWIFT=/path/to/protoc-gen-swift scripts/generate-protos.sh
# or let the script build it: it clones swift-protobuf at tag 1.39.0 into a
# temporary directory and runs `swift build -c release --product protoc-gen-swift`
# (takes a few minutes).
set -euo pipefail

SWIFT_PROTOBUF_VERSION="1.39.0"
SWIFT_PROTOBUF_URL="https://github.com/apple/swift-protobuf.git"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
proto_root="$root/Protocol"
out="$root/Sources/WorkoutProtocol/Generated"
protoc="${PROTOC:-protoc}"

command -v "$protoc" >/dev/null || { echo "error: protoc not found (apt-get install protobuf-compiler)" >&2; exit 1; }

tmp=""
cleanup() { if [[ -n "$tmp" ]]; then rm -rf "$tmp"; fi; }
trap cleanup EXIT

plugin="${PROTOC_GEN_SWIFT:-}"
if [[ -z "$plugin" ]]; then
  tmp="$(mktemp -d)"
  echo "building protoc-gen-swift $SWIFT_PROTOBUF_VERSION in $tmp (set PROTOC_GEN_SWIFT to skip)" >&2
  git -c advice.detachedHead=false clone --quiet --depth 1 --branch "$SWIFT_PROTOBUF_VERSION" "$SWIFT_PROTOBUF_URL" "$tmp/swift-protobuf"
  (cd "$tmp/swift-protobuf" && swift build -c release --product protoc-gen-swift >&2)
  plugin="$tmp/swift-protobuf/.build/release/protoc-gen-swift"
fi
[[ -x "$plugin" ]] || { echo "error: protoc-gen-swift not executable: $plugin" >&2; exit 1; }

plugin_version="$("$plugin" --version 2>/dev/null || true)"
case "$plugin_version" in
  *"$SWIFT_PROTOBUF_VERSION"*) ;;
  *) echo "warning: expected protoc-gen-swift $SWIFT_PROTOBUF_VERSION, got '$plugin_version'" >&2 ;;
esac

# The .proto files, in sorted path order (LC_ALL=C so the order never depends
# on the locale). Paths are relative to Protocol/, as the imports are.
mapfile -t protos < <(cd "$proto_root" && LC_ALL=C ls workout/v1/*.proto | LC_ALL=C sort)
[[ ${#protos[@]} -gt 0 ]] || { echo "error: no .proto files in $proto_root/workout/v1" >&2; exit 1; }

mkdir -p "$out"
rm -f "$out"/*.pb.swift "$out"/PROTO_CHECKSUM

(cd "$proto_root" && "$protoc" \
  --plugin=protoc-gen-swift="$plugin" \
  --proto_path=. \
  --swift_out="$out" \
  --swift_opt=Visibility=Package \
  --swift_opt=UseAccessLevelOnImports=true \
  --swift_opt=FileNaming=PathToUnderscores \
  "${protos[@]}")

# SHA-256 of the concatenation of the .proto files in sorted path order.
(cd "$proto_root" && cat "${protos[@]}" | sha256sum | cut -d' ' -f1) > "$out/PROTO_CHECKSUM"

echo "generated $(ls "$out"/*.pb.swift | wc -l) files in ${out#"$root"/}, checksum $(cat "$out/PROTO_CHECKSUM")" >&2

# The store's own records (WorkoutCore), generated the same way into their module.
store_root="$root/Sources/WorkoutCore/Schema"
store_out="$root/Sources/WorkoutCore/Generated"
mapfile -t store_protos < <(cd "$store_root" && LC_ALL=C ls *.proto | LC_ALL=C sort)
mkdir -p "$store_out"
rm -f "$store_out"/*.pb.swift "$store_out"/PROTO_CHECKSUM
(cd "$store_root" && "$protoc" \
  --plugin=protoc-gen-swift="$plugin" \
  --proto_path=. \
  --swift_out="$store_out" \
  --swift_opt=Visibility=Package \
  --swift_opt=UseAccessLevelOnImports=true \
  "${store_protos[@]}")
(cd "$store_root" && cat "${store_protos[@]}" | sha256sum | cut -d' ' -f1) > "$store_out/PROTO_CHECKSUM"
echo "generated $(ls "$store_out"/*.pb.swift | wc -l) files in ${store_out#"$root"/}, checksum $(cat "$store_out/PROTO_CHECKSUM")" >&2
