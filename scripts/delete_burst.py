#!/usr/bin/env python3
"""Document deletes of one tenant from many clients at once: how fast they go, and what an ingest beside them waits.

Creates a fresh tenant (--store, the Lucene store by default), stores --documents short documents, then deletes them all
from --clients threads while one more client stores new documents into the same tenant. Prints deletes per second,
each delete's p50/p99 latency and the beside-ingest's p50/p99, and fails (exit 1) on any answer but 204/201.
Deletes of one tenant hold its control-plane row lock while the store removes the chunks (so a migration starting
on another server cannot copy a half-deleted document): this measures what that costs. Needs a development-mode
server (bin/corpora serve); standard library only.

    scripts/delete_burst.py --url http://localhost:9080 --documents 400 --clients 8
    scripts/delete_burst.py --url http://localhost:9080 --store '{"provider":"pgvector","config":{"jdbcUrl":"jdbc:postgresql://127.0.0.1:5432/corpora?user=postgres"}}'
"""
import argparse
import concurrent.futures
import json
import statistics
import sys
import threading
import time

from corpora_http import call, dev_token


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--tenant", default="delete-burst")
    parser.add_argument("--store", default='{"provider":"lucene"}', help="the tenant's store as JSON")
    parser.add_argument("--documents", type=int, default=400)
    parser.add_argument("--clients", type=int, default=8)
    a = parser.parse_args()
    base = a.url.rstrip("/")
    admin = dev_token("--admin")
    call(f"{base}/admin/v1/tenants/{a.tenant}", "DELETE", admin)
    call(f"{base}/admin/v1/tenants/{a.tenant}:purge", "POST", admin)
    status, body = call(f"{base}/admin/v1/tenants", "POST", admin,
                        {"id": a.tenant, "store": json.loads(a.store), "embedder": {"provider": "onnx"}})
    if status != 201:
        sys.exit(f"creating tenant {a.tenant}: {status} {body[:300]}")
    writer = dev_token("--tenant", a.tenant, "--roles", "reader,writer")
    documents = f"{base}/api/v1/tenants/{a.tenant}/documents"

    def store(doc_id):
        began = time.perf_counter()
        s, b = call(documents, "POST", writer, {"id": doc_id, "text": f"Document {doc_id}: the harbour pilots board at dawn."})
        if s != 201:
            raise RuntimeError(f"storing {doc_id}: {s} {b[:300]}")
        return time.perf_counter() - began

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        list(pool.map(store, [f"d{i}" for i in range(a.documents)]))

    def delete(doc_id):
        began = time.perf_counter()
        s, b = call(f"{documents}/{doc_id}", "DELETE", writer)
        if s != 204:
            raise RuntimeError(f"deleting {doc_id}: {s} {b[:300]}")
        return time.perf_counter() - began

    done = threading.Event()
    beside = []

    def ingest_beside():
        number = 0
        while not done.is_set():
            beside.append(store(f"beside-{number}"))
            number += 1

    ingester = threading.Thread(target=ingest_beside)
    ingester.start()
    began = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(a.clients) as pool:
        latencies = list(pool.map(delete, [f"d{i}" for i in range(a.documents)]))
    elapsed = time.perf_counter() - began
    done.set()
    ingester.join()
    ms = [1000 * x for x in latencies]
    beside_ms = [1000 * x for x in beside]
    print(f"store {json.loads(a.store)['provider']}: {a.documents} deletes from {a.clients} clients in {elapsed:.2f} s,"
          f" {a.documents / elapsed:.1f} deletes/s; delete p50 {statistics.median(ms):.1f} ms, p99 {percentile(ms, 99):.1f} ms;"
          f" ingest beside: {len(beside_ms)} documents, p50 {statistics.median(beside_ms):.1f} ms, p99 {percentile(beside_ms, 99):.1f} ms")
    call(f"{base}/admin/v1/tenants/{a.tenant}", "DELETE", admin)
    call(f"{base}/admin/v1/tenants/{a.tenant}:purge", "POST", admin)


if __name__ == "__main__":
    main()
