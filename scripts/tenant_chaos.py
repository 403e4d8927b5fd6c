#!/usr/bin/env python3
"""Concurrent traffic on a few tenants while an admin changes their state, deletes, purges and recreates them.

Writers ingest (single documents and batches) into ids that a lister deletes again; readers retrieve; a lister reads
documents, chunks, stats, jobs and verify and sometimes rebuilds; an admin flips each tenant between ACTIVE,
INACTIVE and OFFLOADED, updates it, or deletes, purges and recreates it (and, with --relocate-to, moves its corpus
between two stores). Every answer is tallied by route and status;
any answer of 500 or above (or none) is listed and makes the exit status 1. Needs a development-mode server
(bin/corpora serve: it mints tokens with bin/corpora token), e.g.

    scripts/tenant_chaos.py --url http://localhost:9080 --seconds 120
"""
import argparse, json, random, threading, time
from corpora_http import Tally, call as http_call, dev_token
ap = argparse.ArgumentParser(); ap.add_argument('--url', default='http://localhost:9080'); ap.add_argument('--seconds', type=int, default=90)
ap.add_argument('--tenants', type=int, default=2)
ap.add_argument('--samples', action='store_true', help='print the first answer of each kind of 4xx')
ap.add_argument('--store', default='{"provider": "lucene"}', help='the tenants\' store choice, JSON (e.g. a pgvector one)')
ap.add_argument('--relocate-to', help='a second store choice, JSON: the admin also moves tenants between it and --store (store:relocate)')
a = ap.parse_args()
ADMIN = dev_token("--admin")
def call(method, path, token, body=None):
    return http_call(a.url + path, method, token, body)
tally = Tally(); stop = threading.Event()
def definition(t):
    return {"id": t, "store": json.loads(a.store), "embedder": {"provider": "onnx"}, "retrieval": {"mode": "hybrid", "topK": 5}, "access": {"partitions": []}}
tenants = [f"chaos-{i}" for i in range(a.tenants)]
for t in tenants:
    print(t, call("POST", "/admin/v1/tenants", ADMIN, definition(t))[0])
tokens = {t: dev_token("--tenant", t, "--roles", "reader,writer,tenant-admin") for t in tenants}
def writer():
    i = 0
    while not stop.is_set():
        t = random.choice(tenants); i += 1
        s, b = call("POST", f"/api/v1/tenants/{t}/documents", tokens[t], {"id": f"d{random.randint(0, 30)}", "text": f"Harbour log {i}: " + "tides and berths. " * random.randint(5, 200)})
        tally.note("ingest", s, b)
def batch():
    while not stop.is_set():
        t = random.choice(tenants)
        s, b = call("POST", f"/api/v1/tenants/{t}/documents", tokens[t], [{"id": f"b{random.randint(0, 30)}", "text": "Batch note on pilots. " * 40} for _ in range(4)])
        tally.note("ingest-batch", s, b); time.sleep(0.2)
def reader():
    while not stop.is_set():
        t = random.choice(tenants)
        s, b = call("POST", f"/api/v1/tenants/{t}/retrieve", tokens[t], {"query": "tides and berths", "mode": random.choice(["hybrid", "vector", "keyword"])})
        tally.note("retrieve", s, b)
def lister():
    while not stop.is_set():
        t = random.choice(tenants)
        for route, path in [("list", "/documents"), ("stats", "/stats"), ("jobs", "/jobs"), ("doc", "/documents/d1"), ("chunks", "/documents/d2/chunks"), ("verify", "/index:verify")]:
            s, b = call("GET", f"/api/v1/tenants/{t}{path}", tokens[t]); tally.note(route, s, b)
        s, b = call("DELETE", f"/api/v1/tenants/{t}/documents/d{random.randint(0, 30)}", tokens[t]); tally.note("delete", s, b)
        if random.random() < 0.1:
            s, b = call("POST", f"/api/v1/tenants/{t}/index:rebuild", tokens[t]); tally.note("rebuild", s, b)
def admin():
    while not stop.is_set():
        t = random.choice(tenants)
        op = random.choice(["INACTIVE", "ACTIVE", "OFFLOADED", "ACTIVE", "put", "purge", "get"] + (["relocate"] * 2 if a.relocate_to else []))
        if op in ("INACTIVE", "ACTIVE", "OFFLOADED"):
            s, b = call("POST", f"/admin/v1/tenants/{t}/state", ADMIN, {"state": op}); tally.note("state-" + op, s, b)
        elif op == "put":
            s, b = call("PUT", f"/admin/v1/tenants/{t}", ADMIN, definition(t)); tally.note("put", s, b)
        elif op == "relocate":
            target = json.loads(random.choice([a.store, a.relocate_to]))
            s, b = call("POST", f"/admin/v1/tenants/{t}/store:relocate", ADMIN, {"store": target}); tally.note("relocate", s, b)
        elif op == "get":
            s, b = call("GET", f"/admin/v1/tenants/{t}", ADMIN); tally.note("get", s, b)
        else:
            s, b = call("DELETE", f"/admin/v1/tenants/{t}", ADMIN); tally.note("delete-tenant", s, b)
            time.sleep(random.uniform(0, 0.5))
            s, b = call("POST", f"/admin/v1/tenants/{t}:purge", ADMIN); tally.note("purge", s, b)
            time.sleep(random.uniform(0, 0.5))
            s, b = call("POST", "/admin/v1/tenants", ADMIN, definition(t)); tally.note("recreate", s, b)
        time.sleep(random.uniform(0.2, 1.0))
threads = [threading.Thread(target=f) for f in [writer, writer, writer, batch, reader, reader, lister, admin]]
[t.start() for t in threads]; time.sleep(a.seconds); stop.set(); [t.join() for t in threads]
tally.print_summary(a.samples)
raise SystemExit(1 if tally.failures else 0)
