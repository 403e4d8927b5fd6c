#!/usr/bin/env bash
# Rebuilds platform-core/src/test/resources/plugins-spi-1.0/spi10-reranker.jar: the plugin in
# platform-core/src/test/spi-1.0-fixture compiled against platform-api as it was at SPI 1.0 (the commit before
# "SPI 1.1", taken from this repository's history), with Corpora-SPI-Version: 1.0 in its manifest.
# PluginCompatibilityTest loads it with the current loader and SPI. Run after changing the fixture's source.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SPI10_COMMIT="$(git -C "$ROOT" log --format=%H -1 --grep='^SPI 1.1:' )^"
WORK="$(mktemp -d)"
trap 'git -C "$ROOT" worktree remove --force "$WORK/src" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
git -C "$ROOT" worktree add --detach -q "$WORK/src" "$SPI10_COMMIT"
grep -q 'MINOR = 0;' "$WORK/src/platform-api/src/main/java/io/corpora/spi/SpiVersion.java" || { echo "not SPI 1.0 at $SPI10_COMMIT" >&2; exit 1; }
# Compile the 1.0 API alone (no Maven build of that old tree: nothing of it is installed anywhere).
mkdir -p "$WORK/api" "$WORK/classes"
javac --release 17 -d "$WORK/api" $(find "$WORK/src/platform-api/src/main/java" -name '*.java')
FIXTURE="$ROOT/platform-core/src/test/spi-1.0-fixture"
javac --release 17 -cp "$WORK/api" -d "$WORK/classes" $(find "$FIXTURE" -name '*.java')
cp -r "$FIXTURE/META-INF" "$WORK/classes/"
printf 'Corpora-SPI-Version: 1.0\nCorpora-Plugin: spi10-reranker\nImplementation-Version: 1.0.0\n' > "$WORK/manifest.txt"
OUT="$ROOT/platform-core/src/test/resources/plugins-spi-1.0/spi10-reranker.jar"
mkdir -p "$(dirname "$OUT")"
rm -f "$OUT"
jar --create --file "$OUT" --manifest "$WORK/manifest.txt" -C "$WORK/classes" .
echo "built $OUT against platform-api at $(git -C "$ROOT" rev-parse --short "$SPI10_COMMIT") (SPI 1.0)"
