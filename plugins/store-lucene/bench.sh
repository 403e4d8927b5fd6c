#!/usr/bin/env bash
# HNSW build/query latency and recall@10 vs numCandidates through the real store, on every JDK present, in one run,
# with ratios against JDK 17. Usage: plugins/store-lucene/bench.sh [size] [dimension] [queries]   (default 20000 384 200)
# Needs the module compiled first: mvn -o -q test-compile -f plugins/store-lucene
set -euo pipefail
cd "$(dirname "$0")"
ARGS=("${@:-}")
[[ -z "${ARGS[0]}" ]] && ARGS=(20000 384 200)
CP_FILE=target/bench.classpath
mvn -o -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$CP_FILE" >/dev/null
# A private copy of the compiled classes, so a rebuild during the run cannot change or remove them.
SNAP=target/bench-classes
rm -rf "$SNAP" && mkdir -p "$SNAP" && cp -r target/classes "$SNAP/main" && cp -r target/test-classes "$SNAP/test"
CP="$SNAP/test:$SNAP/main:$(cat "$CP_FILE")"
MAIN=io.corpora.store.lucene.bench.HnswBenchmark
JDK17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=target/bench-results
rm -rf "$OUT" && mkdir -p "$OUT"

run() { # label java [jvm args...]
  local label=$1 java=$2; shift 2
  echo "== $label" >&2
  "$java" -Xmx2g "$@" -cp "$CP" "$MAIN" "${ARGS[@]}" 2>"$OUT/$label.err" | tee "$OUT/$label.txt" >&2
  grep -h -i -E "vector (incubator|api)|vectorization" "$OUT/$label.err" | head -2 | sed 's/^/   lucene: /' >&2 || true
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
# REPS interleaved repetitions (default 1); the table keeps each metric's best (min time, max recall) to damp other load.
for rep in $(seq 1 "${REPS:-1}"); do
  run jdk17-r$rep "$JDK17"
  if [[ -x "$JDK25" ]]; then
    run jdk25-r$rep "$JDK25"
    run jdk25-panama-r$rep "$JDK25" --add-modules jdk.incubator.vector -Dorg.apache.lucene.vectorization.upperJavaFeatureVersion=25
  fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# Table: metric per label, and each label's ratio to jdk17 (ratio < 1 = faster than JDK 17 for times).
python3 - "$OUT" <<'PY'
import sys, re, pathlib
out = pathlib.Path(sys.argv[1])
runs = {}
for f in sorted(out.glob("*.txt")):
    vals = {}
    for line in f.read_text().splitlines():
        if not line.startswith("result "): continue
        parts = line.split()[1:]
        head = parts[0] if "=" not in parts[0] else None
        for p in parts[1 if head else 0:]:
            k, v = p.split("=", 1)
            vals[(head + "." if head else "") + k] = v
    label = re.sub(r"-r\d+$", "", f.stem)
    best = runs.setdefault(label, {})
    for k, v in vals.items():
        try:
            x = float(v)
            better = max if k.endswith("recall@10") else min
            best[k] = str(better(x, float(best[k])) if k in best else x)
        except ValueError:
            best[k] = v
labels = [l for l in ("jdk17", "jdk25", "jdk25-panama") if l in runs]
keys = [k for k in runs["jdk17"] if k not in ("jdk", "size", "dim", "queries")]
print("| metric | " + " | ".join(labels) + " | " + " | ".join(f"{l}/jdk17" for l in labels[1:]) + " |")
print("|---" * (1 + 2 * len(labels) - 1) + "|")
for k in keys:
    row = [runs[l].get(k, "") for l in labels]
    ratios = []
    for l in labels[1:]:
        try: ratios.append(f"{float(runs[l][k]) / float(runs['jdk17'][k]):.2f}")
        except Exception: ratios.append("")
    print(f"| {k} | " + " | ".join(row) + " | " + " | ".join(ratios) + " |")
PY
