#!/usr/bin/env bash
# The last lines CI prints: what failed and why, so a CI excerpt that keeps only the end of the log still names the
# failing stage, the failing tests with their messages, and Maven's or the cluster test's own error lines.
# Usage: scripts/ci-report.sh ROOT MAVEN_STATUS MAVEN_LOG CLUSTER_STATUS CLUSTER_LOG
set -u
root="$1"; mvn_status="$2"; mvn_log="$3"; cluster_status="$4"; cluster_log="$5"

mapfile -t reports < <(find "$root" \( -path '*/target/surefire-reports/TEST-*.xml' -o -path '*/target/failsafe-reports/TEST-*.xml' \) 2>/dev/null | sort)
if [ "${#reports[@]}" -gt 0 ]; then
  # One line per failed or errored test case: class, method, first line of the message.
  failed="$(awk '
    /<testcase / {
      cls = ""; name = ""
      if (match($0, /classname="[^"]*"/)) cls = substr($0, RSTART + 11, RLENGTH - 12)
      if (match($0, / name="[^"]*"/)) name = substr($0, RSTART + 7, RLENGTH - 8)
    }
    /<(failure|error)[ >]/ {
      msg = ""
      if (match($0, /message="[^"]*/)) msg = substr($0, RSTART + 9, (RLENGTH - 9 < 240) ? RLENGTH - 9 : 240)
      n = split(cls, part, "."); printf "  FAILED %s.%s: %s\n", part[n], name, msg
    }' "${reports[@]}" | sed -e 's/&quot;/"/g' -e "s/&apos;/'/g" -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' -e 's/&#10;/ /g' | head -40)"
  totals="$(cat "${reports[@]}" | grep -o '<testsuite [^>]*' | awk '
    { for (i = 1; i <= NF; i++) { split($i, kv, "="); gsub(/"/, "", kv[2]); v[kv[1]] += kv[2] } }
    END { printf "%d tests, %d failures, %d errors, %d skipped", v["tests"], v["failures"], v["errors"], v["skipped"] }')"
else
  failed=""; totals="no test reports"
fi

echo "== CI: result"
echo "  tests: $totals (${#reports[@]} report files)"
echo "  bin/corpora test: exit $mvn_status"
if [ "$mvn_status" != 0 ]; then
  [ -n "$failed" ] && echo "$failed"
  # Maven's own account: the failing goal and module, compile errors, forked-VM crashes, timeouts.
  grep -E '^\[ERROR\] (Failed to execute goal|Tests run:.*(FAIL|ERROR)|.*\.java:\[[0-9]+|Crashed tests|.*The forked VM terminated|.*Timeout)|BUILD FAILURE|\[INFO\] .* (FAILURE|SKIPPED) \[?' "$mvn_log" 2>/dev/null \
    | cut -c1-300 | head -30 | sed 's/^/  /'
fi
echo "  scripts/cluster-test.sh: ${cluster_status}"
if [ "$cluster_status" != 0 ] && [ "$cluster_status" != skipped ]; then
  grep -E 'FAIL|Traceback|Error|error:' "$cluster_log" 2>/dev/null | cut -c1-300 | tail -15 | sed 's/^/  /'
  echo "  last lines of the cluster test:"
  tail -n 15 "$cluster_log" 2>/dev/null | cut -c1-300 | sed 's/^/    /'
fi
