#!/bin/bash
# One fresh embedded server with corpora.rateLimits.store=$1 (auto | control-plane | local), two tenants (rl: a request
# quota it never reaches; free: none), then the control-plane file's growth over their retrievals. Needs the build
# (mvn -DskipTests install) and port 19580 free; stops the server at the end.
set -u
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$ROOT/platform-server"
mode=$1; data=/tmp/data-$mode; rm -rf $data; mkdir -p $data
rm -f target/liberty/wlp/usr/servers/corpora/dropins/corpora.war
mvn -B -q liberty:run -Dcorpora.http.port=19580 -Dliberty.jvm.corpora.data="-Dcorpora.data.dir=$data" -Dliberty.jvm.corpora.devmode="-Dcorpora.dev.mode=true" -Dliberty.jvm.rl="-Dcorpora.rateLimits.store=$mode" > /tmp/serve-$mode.log 2>&1 &
until curl -sf http://localhost:19580/health/ready >/dev/null 2>&1; do sleep 3; done
cd "$ROOT"
ADMIN=$(bin/corpora token --admin 2>/dev/null)
for t in rl:1000000 free:0; do id=${t%%:*}; rpm=${t##*:}
  curl -s -o /dev/null -X POST -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' -d "{\"id\":\"$id\",\"displayName\":\"$id\",\"store\":{\"provider\":\"lucene\"},\"embedder\":{\"provider\":\"onnx\"},\"quotas\":{\"maxDocuments\":10000,\"maxBytes\":1073741824,\"requestsPerMinute\":$rpm}}" http://localhost:19580/admin/v1/tenants
  w=$(bin/corpora token --tenant $id --roles writer 2>/dev/null)
  for doc in tenants-config/demo-documents/*.md; do curl -s -o /dev/null -H "Authorization: Bearer $w" -F "file=@$doc;type=text/markdown" http://localhost:19580/api/v1/tenants/$id/documents; done
done
sleep 10
RL=$(bin/corpora token --tenant rl --roles reader 2>/dev/null); FR=$(bin/corpora token --tenant free --roles reader 2>/dev/null)
echo "== corpora.rateLimits.store=$mode"
for n in 500 2000 2000; do
  scripts/control_plane_growth.py --url http://localhost:19580 --tenant free --token "$FR" --file $data/control-plane.mv.db --count $n
  scripts/control_plane_growth.py --url http://localhost:19580 --tenant rl --token "$RL" --file $data/control-plane.mv.db --count $n
done
pkill -TERM -f "liberty:run"; sleep 8; pkill -f "ws-server.jar"; pkill -f plexus-classworlds; sleep 2
