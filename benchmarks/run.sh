#!/usr/bin/env bash
# JMH microbenchmarks of the core's per-call costs, on every JDK present (17 and 25 here), each compared with its
# baseline measured in the same run. Whole-system figures are bin/corpora bench's, not these.
#
# Usage: benchmarks/run.sh [REGEX] [JMH OPTIONS...]      e.g. benchmarks/run.sh Fusion   |   benchmarks/run.sh '' -f 2
#   REGEX selects benchmarks (default: all): PluginCallGuard, Fusion, RetrievalOverhead.
# Needs the module built: mvn -q -DskipTests install -pl benchmarks -am
# Writes benchmarks/target/jmh/<jdk>.{json,log}; prints µs per operation (± the 99.9 % confidence interval).
set -euo pipefail
cd "$(dirname "$0")"
REGEX="${1:-}"; shift || true
CP_FILE=target/jmh.classpath
mvn -o -q dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$CP_FILE" >/dev/null
CP="target/classes:$(cat "$CP_FILE")"
OUT=target/jmh
rm -rf "$OUT" && mkdir -p "$OUT"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
for jdk in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
  [[ -x "$jdk/bin/java" ]] || continue
  label="jdk$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = //p')"
  echo "running on $label ..." >&2
  "$jdk/bin/java" -cp "$CP" org.openjdk.jmh.Main ${REGEX:+"$REGEX"} "$@" -rf json -rff "$OUT/$label.json" >"$OUT/$label.log" 2>&1 \
    || { echo "JMH failed on $label; see $OUT/$label.log" >&2; tail -20 "$OUT/$label.log" >&2; exit 1; }
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$OUT" <<'PY'
import json, pathlib, sys
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    rows = json.loads(f.read_text())
    print(f"{f.stem}: µs per operation (± 99.9 % CI)")
    scores = {}
    for r in rows:
        name = r["benchmark"].rsplit(".", 2)
        params = ",".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items()))
        key = f"{name[-2]}.{name[-1]}" + (f" [{params}]" if params else "")
        m = r["primaryMetric"]
        scores[key] = m["score"]
        print(f"  {key:58s} {m['score']:10.3f} ± {m['scoreError']:.3f} {m['scoreUnit']}")
    # The baselines each benchmark class measures in the same run.
    pairs = [("PluginCallGuardBenchmark.guarded", "PluginCallGuardBenchmark.direct", "guard overhead, 1 caller"),
             ("PluginCallGuardBenchmark.guardedFourCallers", "PluginCallGuardBenchmark.directFourCallers", "guard overhead, 4 callers"),
             ("RetrievalOverheadBenchmark.vector", "RetrievalOverheadBenchmark.storeSearchesOnly", "vector retrieval beyond its store calls"),
             ("RetrievalOverheadBenchmark.hybridDefaultFusion", "RetrievalOverheadBenchmark.storeSearchesOnly", "hybrid retrieval beyond its store calls")]
    for a, b, label in pairs:
        if a in scores and b in scores:
            print(f"  {label}: +{scores[a] - scores[b]:.2f} µs per call")
PY
