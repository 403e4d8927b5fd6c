#!/usr/bin/env python3
"""Where a running server's retrieval time goes, leg by leg, on one tenant it already holds.

Sends every query of a BEIR queries.jsonl to POST /api/v1/tenants/{tenant}/retrieve, one client on one kept-alive
connection, for --rounds rounds (the first unmeasured: it fills the server's query-embedding cache and warms its code),
and prints p50/p99 of the client's wall time, of the server's own diagnostics.totalMillis and of each leg's millis.
Standard library only.

    scripts/retrieve_legs.py --url http://localhost:19580 --tenant demo --token "$(bin/corpora token --tenant demo --roles reader)" \
        --queries ../shared/datasets/scifact/queries.jsonl --mode hybrid --rounds 4
"""
import argparse
import http.client
import json
import time
import urllib.parse


def percentile(values, q):
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] if ordered else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--token", required=True, help="a reader token of the tenant")
    parser.add_argument("--queries", required=True, help="a BEIR queries.jsonl")
    parser.add_argument("--limit", type=int, default=300, help="queries used (default 300)")
    parser.add_argument("--mode", default="hybrid", choices=["hybrid", "vector", "keyword"])
    parser.add_argument("--top-k", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=4, help="rounds over the queries, the first unmeasured (default 4)")
    args = parser.parse_args()
    if args.rounds < 2:
        parser.error("--rounds must be at least 2 (the first is not measured)")

    with open(args.queries, encoding="utf-8") as lines:
        queries = [json.loads(line)["text"] for line in lines if line.strip()][: args.limit]
    target = urllib.parse.urlsplit(args.url)
    connection = http.client.HTTPConnection(target.hostname, target.port or 80)
    path = "/api/v1/tenants/%s/retrieve" % urllib.parse.quote(args.tenant)
    headers = {"Authorization": "Bearer " + args.token, "Content-Type": "application/json"}

    client, server, legs = [], [], {}
    for round_number in range(args.rounds):
        for query in queries:
            body = json.dumps({"query": query, "mode": args.mode, "topK": args.top_k})
            started = time.perf_counter()
            connection.request("POST", path, body, headers)
            response = connection.getresponse()
            payload = response.read()
            elapsed = (time.perf_counter() - started) * 1000
            if response.status != 200:
                raise SystemExit("HTTP %d: %s" % (response.status, payload[:500].decode("utf-8", "replace")))
            if round_number == 0:
                continue
            diagnostics = json.loads(payload)["diagnostics"]
            client.append(elapsed)
            server.append(diagnostics["totalMillis"])
            for leg in diagnostics["legs"]:
                legs.setdefault(leg["name"], []).append(leg["millis"])

    print("%s, %d calls: client p50 %.2f p99 %.2f ms; server's own p50 %.2f p99 %.2f ms"
          % (args.mode, len(client), percentile(client, 0.5), percentile(client, 0.99), percentile(server, 0.5), percentile(server, 0.99)))
    for name, millis in legs.items():
        print("  %-8s p50 %.3f p99 %.3f ms" % (name, percentile(millis, 0.5), percentile(millis, 0.99)))


if __name__ == "__main__":
    main()
