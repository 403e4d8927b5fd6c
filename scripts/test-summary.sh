#!/usr/bin/env bash
# The end of `bin/corpora test`: where each backend-dependent suite ran (Testcontainers, a URL, or nowhere), and every
# skipped test class with its count and reason (a backend suite's reason names the command that enables it).
# Usage: scripts/test-summary.sh [repository root]. Reads only the reports the build left under */target/.
set -u
root="${1:-.}"

echo "== corpora test: what ran where"
mapfile -t backends < <(find "$root" -path '*/target/test-backends.txt' 2>/dev/null | sort)
if [ "${#backends[@]}" -gt 0 ]; then
  sort -u "${backends[@]}" | sed 's/^/  /'
else
  echo "  (no suite that needs a real backend ran)"
fi

echo "== corpora test: skipped test classes"
mapfile -t reports < <(find "$root" \( -path '*/target/surefire-reports/TEST-*.xml' -o -path '*/target/failsafe-reports/TEST-*.xml' \) 2>/dev/null | sort)
skipped=""
if [ "${#reports[@]}" -gt 0 ]; then
  skipped="$(awk '
    /<testcase / {
      if (match($0, /classname="[^"]*"/)) { cls = substr($0, RSTART + 11, RLENGTH - 12) }
    }
    /<skipped/ {
      reason = "(no reason given)"
      if (match($0, /Assumption failed: .*/)) { reason = substr($0, RSTART + 19) }
      else if (match($0, /message="[^"]*"/)) { reason = substr($0, RSTART + 9, RLENGTH - 10) }
      count[cls "\t" reason]++
    }
    END {
      for (key in count) {
        split(key, part, "\t"); n = split(part[1], name, ".")
        printf "  %s (%d skipped): %s\n", name[n], count[key], part[2]
      }
    }' "${reports[@]}" | sed -e 's/&quot;/"/g' -e "s/&apos;/'/g" -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' | sort)"
fi
if [ -n "$skipped" ]; then
  echo "$skipped"
else
  echo "  none"
fi
