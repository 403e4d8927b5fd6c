#!/usr/bin/env python3
"""A burst of reranked retrievals on one tenant whose reranker is healthy but slow: does the load open its breaker?

Creates (or reuses) a tenant whose reranker is the example probe with a 1 s delay (within the reranker's 3 s timeout),
stores three documents, then sends CLIENTS x REQUESTS keyword retrievals with rerank, all clients at once, and one more
right after. Prints how each was answered: reranked, or degraded with the reason (bulkhead full, circuit open).
Needs a development-mode server (bin/corpora serve) with the example plugins, e.g.

    scripts/rerank_burst.py --admin-token "$(bin/corpora token --admin)" --clients 64 --requests 4
"""
import argparse
import collections
import json
import threading
import time

from corpora_http import call as http_call, dev_token


def call(url, token, body=None, method=None):
    status, text = http_call(url, method or ("GET" if body is None else "POST"), token, body)
    return status, json.loads(text or "null") if 200 <= status < 300 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", default="http://localhost:9080")
    ap.add_argument("--tenant", default="rerank-burst")
    ap.add_argument("--admin-token", required=True)
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--requests", type=int, default=4, help="retrievals each client sends, one after another")
    a = ap.parse_args()

    status, _ = call(f"{a.url}/admin/v1/tenants", a.admin_token, {
        "id": a.tenant, "store": {"provider": "lucene"}, "embedder": {"provider": "onnx"},
        "reranker": {"provider": "probe-current", "config": {"delay": "1s"}},
        "retrieval": {"mode": "hybrid", "topK": 5}, "access": {"partitions": []}})
    if status not in (200, 201, 409):
        raise SystemExit(f"creating tenant {a.tenant}: {status}")
    token = dev_token("--tenant", a.tenant, "--roles", "reader,writer")
    base = f"{a.url}/api/v1/tenants/{a.tenant}"
    for i in range(3):
        call(f"{base}/documents", token, {"id": f"lantern-{i}", "text": f"Lanterns are lit at dusk, round {i}, by the night watch."})

    def retrieve():
        status, answer = call(f"{base}/retrieve", token, {"query": "when are lanterns lit", "mode": "keyword", "rerank": True})
        if status != 200:
            return f"HTTP {status}"
        reason = answer.get("diagnostics", {}).get("degradedReason") or ""
        return "reranked" if not reason else reason.split(":")[-1].split(";")[0].strip()

    answers, lock, go = collections.Counter(), threading.Lock(), threading.Event()

    def client():
        go.wait()
        for _ in range(a.requests):
            answer = retrieve()
            with lock:
                answers[answer] += 1

    threads = [threading.Thread(target=client) for _ in range(a.clients)]
    for t in threads:
        t.start()
    start = time.time()
    go.set()
    for t in threads:
        t.join()
    print(json.dumps({"clients": a.clients, "requests": a.requests, "seconds": round(time.time() - start, 1),
                      "answers": dict(answers), "right_after": retrieve()}))


if __name__ == "__main__":
    main()
