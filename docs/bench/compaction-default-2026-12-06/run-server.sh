#!/bin/bash
# usage: run-server.sh DATA [extra jvm flag]
data=$1; extra=${2:--Dcorpora.noop=1}
cd /work/main/platform-server
rm -f target/liberty/wlp/usr/servers/corpora/dropins/corpora.war
exec mvn -B -q liberty:run -Dcorpora.http.port=19580 -Dliberty.jvm.corpora.data=-Dcorpora.data.dir=$data -Dliberty.jvm.corpora.devmode=-Dcorpora.dev.mode=true -Dliberty.jvm.x=$extra
