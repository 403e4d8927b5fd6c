#!/usr/bin/env bash
# What the per-tenant plugin-call guard costs (JMH: the same trivial embedder called directly and through a guard, one
# and four callers), on every JDK present, with the guarded/direct ratio measured in the same run.
# Usage: platform-core/bench-guard.sh     (needs the module's test classes: mvn -q test-compile -pl platform-core)
set -euo pipefail
cd "$(dirname "$0")"
CP_FILE=target/bench.classpath
mvn -o -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$CP_FILE" >/dev/null
CP="target/test-classes:target/classes:$(cat "$CP_FILE")"
OUT=target/bench-guard
rm -rf "$OUT" && mkdir -p "$OUT"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
for jdk in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
  [[ -x "$jdk/bin/java" ]] || continue
  label="jdk$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = //p')"
  "$jdk/bin/java" -cp "$CP" org.openjdk.jmh.Main PluginCallGuardBenchmark -rf json -rff "$OUT/$label.json" >"$OUT/$label.log" 2>&1
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$OUT" <<'PY'
import json, pathlib, sys
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    scores = {r["benchmark"].rsplit(".", 1)[1]: r["primaryMetric"] for r in json.loads(f.read_text())}
    print(f"{f.stem}: µs per call (± 99.9% CI)")
    for name in ("direct", "guarded", "directFourCallers", "guardedFourCallers"):
        m = scores[name]
        print(f"  {name:20s} {m['score']:9.3f} ± {m['scoreError']:.3f}")
    for callers, d, g in (("1 caller", "direct", "guarded"), ("4 callers", "directFourCallers", "guardedFourCallers")):
        # The direct call is a no-op (nanoseconds), so the difference is the guard's whole cost per call.
        print(f"  guard overhead, {callers}: +{scores[g]['score'] - scores[d]['score']:.2f} µs per call")
PY
