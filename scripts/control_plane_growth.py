#!/usr/bin/env python3
"""How much the embedded control plane's file grows while a tenant is retrieved from, and what those calls take.

Sends the same retrieval --count times to POST /api/v1/tenants/{tenant}/retrieve on one kept-alive connection and prints
the client's p50 / p90 / mean wall time and the H2 file's size before and after (docs/performance-log.md, "Rate-limit
buckets on the embedded control plane"). Standard library only.

    scripts/control_plane_growth.py --url http://localhost:19580 --tenant rl --token "$(bin/corpora token --tenant rl --roles reader)" \
        --file /tmp/data-r/control-plane.mv.db --count 2000
"""
import argparse
import http.client
import json
import os
import time
import urllib.parse


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--token", required=True, help="a reader token of the tenant")
    parser.add_argument("--file", required=True, help="the server's control-plane.mv.db")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--query", default="how does hybrid retrieval rank passages?")
    args = parser.parse_args()

    target = urllib.parse.urlsplit(args.url)
    connection = http.client.HTTPConnection(target.hostname, target.port or 80)
    body = json.dumps({"query": args.query})
    headers = {"Authorization": "Bearer " + args.token, "Content-Type": "application/json"}
    before = os.path.getsize(args.file)
    millis = []
    for _ in range(args.count):
        started = time.perf_counter()
        connection.request("POST", f"/api/v1/tenants/{args.tenant}/retrieve", body, headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"HTTP {response.status} after {len(millis)} retrievals")
        millis.append((time.perf_counter() - started) * 1000)
    after = os.path.getsize(args.file)
    millis.sort()
    print(f"{args.tenant}: {len(millis)} retrievals, p50 {millis[len(millis) // 2]:.2f} ms, p90 {millis[int(len(millis) * 0.9)]:.2f} ms, "
          f"mean {sum(millis) / len(millis):.2f} ms; control-plane file {before / 1e6:.1f} -> {after / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
