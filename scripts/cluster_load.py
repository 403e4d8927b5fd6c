#!/usr/bin/env python3
"""Steady retrieve + ingest load through the cluster's HAProxy, with one fault injected mid-run, and the checks the
failover guarantees call for. Standard library only (CI runs it with the system python3).

  cluster_load.py failover --url URL --reader-token T --writer-token T --fault-cmd "scripts/cluster.sh kill-server 1"
  cluster_load.py throughput --url URL --reader-token T --seconds 20 --threads 4
  cluster_load.py readyourwrites --url URL --reader-token T --writer-token T --count 20
  cluster_load.py relocate --url NODE2 --admin-url NODE1 --admin-token T --reader-token T --writer-token T --store-json '{…}'
  cluster_load.py cleanstop --url URL --node-url NODE1 --reader-token T --writer-token T --count 200 \
      --stop-cmd "scripts/cluster.sh stop-server 1" --log-dir .corpora/cluster/wlp-usr/servers/corpora-node1/logs

relocate: starts POST /admin/v1/tenants/{tenant}/store:relocate on --admin-url and, until the job ends, retrieves
and writes through --url (another server): retrieves must answer the passages they answered before, writes must be
refused (409 migration-in-progress). Then the job must have SUCCEEDED, both servers answer the same passages, and a
new write succeeds.

readyourwrites: each round ingests two documents with a unique term each (201 carries a Corpora-Consistency token) and
at once retrieves each term: one without the token (may be served by a replica that has not replayed it yet: counted),
one with it (must find its document). Fails unless every ingest returned a token and every tokened retrieve found its
document.

cleanstop: posts a batch of --count documents straight to --node-url and, once a tenth is stored, runs --stop-cmd (a
clean stop of that server, e.g. "scripts/cluster.sh stop-server 1": Liberty's quiesce, then the application's stop).
Then, read at once through --url (another server): the job has ended PARTIALLY_FAILED, one outcome per document, each
stored or failed job-interrupted (some of each); the stopped server's messages.log (--log-dir) holds no SEVERE record
since the stop and names the job as ended early, and no FFDC report is newer than the stop; --leases-cmd, run at once,
prints 0 (the lease was released, not left to expire); the interrupted documents, sent again through --url, are
stored, so every document is served.

failover: readers POST /retrieve (and --mcp-readers call the MCP search tool, POST /mcp) and writers POST single
documents (201 = acknowledged) and batches (202 = a job) for --before seconds, then --fault-cmd runs (e.g. SIGKILL of a server), the load goes on for --after seconds. Then:
  * every acknowledged document is served (GET documents/{id}: ACTIVE at a version >= the acknowledged one);
  * every job ends (SUCCEEDED, PARTIALLY_FAILED or FAILED; each failed outcome carries an error) within --job-timeout;
  * retrieval errors are only those in flight at the fault (started before it, ended after it, within --grace s).
Prints the counts; exits 1 if a check fails.
"""
import argparse
import glob
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request


class Client:
    def __init__(self, url, token, timeout=60):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def call(self, method, path, body=None, headers=None):
        status, parsed, response_headers = self.call_with_headers(method, path, body, headers)
        return status, parsed, None if response_headers is None else response_headers.get("X-Corpora-Server")

    def call_with_headers(self, method, path, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", "Bearer " + self.token)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
                return response.status, (json.loads(raw) if raw else None), response.headers
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw), e.headers
            except ValueError:
                return e.code, raw.decode(errors="replace"), None
        except Exception as e:  # connection reset, refused, timeout: no HTTP answer at all
            return 0, repr(e), None


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}

QUERIES = ["hybrid retrieval ranking", "how are documents chunked", "tenant isolation", "vector store", "rate limits"]


class Load:
    def __init__(self, args):
        self.args = args
        self.reader = Client(args.url, args.reader_token)
        self.writer = Client(args.url, args.writer_token)
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.retrievals = []  # (start, end, status, server, error or None, kind)
        self.acked = {}       # document id -> version acknowledged
        self.write_errors = []
        self.jobs = []        # job ids acknowledged with 202
        self.run_id = "%d" % (time.time() * 1000)

    def read_loop(self, n):
        i = 0
        while not self.stop.is_set():
            start = time.time()
            status, body, server = self.reader.call("POST", "/api/v1/tenants/%s/retrieve" % self.args.tenant,
                                                    {"query": QUERIES[(n + i) % len(QUERIES)]})
            with self.lock:
                self.retrievals.append((start, time.time(), status, server, None if status == 200 else str(body)[:200], "rest"))
            i += 1

    def mcp_read_loop(self, n):
        """The MCP search tool: one JSON-RPC tools/call per POST; a failure is a non-200, a JSON-RPC error or a tool error."""
        i = 0
        while not self.stop.is_set():
            start = time.time()
            message = {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                       "params": {"name": "search", "arguments": {"query": QUERIES[(n + i) % len(QUERIES)]}}}
            status, body, server = self.reader.call("POST", "/mcp", message, MCP_HEADERS)
            failed = status != 200 or not isinstance(body, dict) or "error" in body or body.get("result", {}).get("isError")
            if status == 200 and failed:
                status = -1  # answered, but not with the tool's result
            with self.lock:
                self.retrievals.append((start, time.time(), status, server, str(body)[:200] if failed else None, "mcp"))
            i += 1

    def write_loop(self, n):
        i = 0
        while not self.stop.is_set():
            if i % 5 == 4:
                docs = [{"id": "lb-%s-w%d-j%d-%d" % (self.run_id, n, i, k), "text": "Batch document %d of writer %d. " % (k, n) * 20}
                        for k in range(3)]
                status, body, _ = self.writer.call("POST", "/api/v1/tenants/%s/documents" % self.args.tenant, docs)
                if status == 202:
                    with self.lock:
                        self.jobs.append(body["id"])
            else:
                doc_id = "lb-%s-w%d-%d" % (self.run_id, n, i)
                status, body, _ = self.writer.call("POST", "/api/v1/tenants/%s/documents" % self.args.tenant,
                                                   {"id": doc_id, "text": ("Document %d written by load writer %d. " % (i, n)) * 30})
                if status in (200, 201):
                    with self.lock:
                        self.acked[doc_id] = body["version"]
                else:
                    with self.lock:
                        self.write_errors.append((time.time(), status, str(body)[:200]))
            i += 1
            time.sleep(self.args.write_pause)

    def run(self, fault_cmd):
        threads = [threading.Thread(target=self.read_loop, args=(n,), daemon=True) for n in range(self.args.readers)]
        threads += [threading.Thread(target=self.mcp_read_loop, args=(n,), daemon=True) for n in range(self.args.mcp_readers)]
        threads += [threading.Thread(target=self.write_loop, args=(n,), daemon=True) for n in range(self.args.writers)]
        for t in threads:
            t.start()
        time.sleep(self.args.before)
        fault_at = time.time()
        if fault_cmd:
            print("failover: fault at +%.1fs: %s" % (self.args.before, fault_cmd), flush=True)
            subprocess.run(fault_cmd, shell=True, check=True)
        time.sleep(self.args.after)
        self.stop.set()
        for t in threads:
            t.join(120)
        return fault_at


def failover(args):
    load = Load(args)
    fault_at = load.run(args.fault_cmd)
    ok = True
    ok_reads = [r for r in load.retrievals if r[2] == 200]
    failed = [r for r in load.retrievals if r[2] != 200]
    in_flight = [r for r in failed if r[0] <= fault_at + args.grace and r[1] >= fault_at]
    stray = [r for r in failed if r not in in_flight]
    served_by = {}
    for r in ok_reads:
        if r[1] > fault_at + args.grace:
            served_by[r[3]] = served_by.get(r[3], 0) + 1
    by_kind = {kind: "%d ok, %d failed" % (len([r for r in ok_reads if r[5] == kind]), len([r for r in failed if r[5] == kind]))
               for kind in sorted({r[5] for r in load.retrievals})}
    print("failover: retrievals %d ok, %d failed (%d in flight at the fault, %d outside it; %s); after the fault served by %s"
          % (len(ok_reads), len(failed), len(in_flight), len(stray), by_kind, served_by))
    for r in in_flight[:5]:
        print("  in-flight %s retrieval error: status %s, sent at %+.2fs, answered at %+.2fs: %s" % (r[5], r[2], r[0] - fault_at, r[1] - fault_at, r[4]))
    for r in stray[:5]:
        print("  stray %s retrieval error: status %s at %+.1fs: %s" % (r[5], r[2], r[0] - fault_at, r[4]))
    if stray:
        ok = False
    if args.max_failed_reads >= 0 and len(failed) > args.max_failed_reads:
        print("failover: %d retrievals failed, more than --max-failed-reads %d" % (len(failed), args.max_failed_reads))
        ok = False
    # Writes refused outright (no acknowledgement) are allowed around the fault; an acknowledged one must be served.
    print("failover: %d documents acknowledged, %d writes not acknowledged (%d of them outside the fault window), %d jobs accepted"
          % (len(load.acked), len(load.write_errors), len([e for e in load.write_errors if abs(e[0] - fault_at) > args.grace]), len(load.jobs)))
    lost = []
    for doc_id, version in sorted(load.acked.items()):
        status, body, _ = load.reader.call("GET", "/api/v1/tenants/%s/documents/%s" % (args.tenant, doc_id))
        if status != 200 or body.get("activeVersion", body.get("version", 0)) < version:
            lost.append((doc_id, version, status, str(body)[:200]))
    print("failover: acknowledged writes lost: %d" % len(lost))
    for item in lost[:5]:
        print("  lost: %s" % (item,))
    if lost:
        ok = False
    deadline = time.time() + args.job_timeout
    pending = list(load.jobs)
    ended = {}
    while pending and time.time() < deadline:
        still = []
        for job_id in pending:
            status, body, _ = load.reader.call("GET", "/api/v1/tenants/%s/jobs/%s" % (args.tenant, job_id))
            if status == 200 and body["status"] in ("SUCCEEDED", "PARTIALLY_FAILED", "FAILED"):
                ended[job_id] = body
            else:
                still.append(job_id)
        pending = still
        if pending:
            time.sleep(2)
    counts = {}
    unexplained = 0
    for body in ended.values():
        counts[body["status"]] = counts.get(body["status"], 0) + 1
        for outcome in body.get("outcomes", []):
            if outcome.get("result") == "failed" and not outcome.get("error"):
                unexplained += 1
    reasons = sorted({o.get("error", "")[:90] for b in ended.values() for o in b.get("outcomes", []) if o.get("result") == "failed"})
    print("failover: jobs ended %s, still unfinished after %ds: %d, failed outcomes without a reason: %d"
          % (counts, args.job_timeout, len(pending), unexplained))
    for reason in reasons[:3]:
        print("  failure reason: %s" % reason)
    if pending or unexplained:
        ok = False
    print("failover: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


def throughput(args):
    client = Client(args.url, args.reader_token)
    stop = threading.Event()
    lock = threading.Lock()
    latencies = []
    errors = [0]

    def loop(n):
        i = 0
        while not stop.is_set():
            start = time.time()
            status, _, _ = client.call("POST", "/api/v1/tenants/%s/retrieve" % args.tenant, {"query": QUERIES[(n + i) % len(QUERIES)]})
            with lock:
                if status == 200:
                    latencies.append(time.time() - start)
                else:
                    errors[0] += 1
            i += 1

    for n in range(args.threads):  # warm-up
        client.call("POST", "/api/v1/tenants/%s/retrieve" % args.tenant, {"query": QUERIES[n % len(QUERIES)]})
    threads = [threading.Thread(target=loop, args=(n,), daemon=True) for n in range(args.threads)]
    begin = time.time()
    for t in threads:
        t.start()
    time.sleep(args.seconds)
    stop.set()
    for t in threads:
        t.join(60)
    elapsed = time.time() - begin
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")
    print("throughput: %d retrievals in %.1fs = %.1f/s with %d threads; p50 %.0f ms, p95 %.0f ms; errors %d"
          % (len(latencies), elapsed, len(latencies) / elapsed, args.threads, p(0.5), p(0.95), errors[0]))
    return 0


def read_your_writes(args):
    writer = Client(args.url, args.writer_token)
    reader = Client(args.url, args.reader_token)
    run_id = "%d" % (time.time() * 1000)
    tokens = found_with = found_without = 0

    def ingest_then_find(i, kind, send_token):
        term = "ryw%s%s%d" % (run_id, kind, i)
        doc_id = "ryw-%s-%s-%d" % (run_id, kind, i)
        status, body, headers = writer.call_with_headers("POST", "/api/v1/tenants/%s/documents" % args.tenant,
                                                         {"id": doc_id, "text": "Read-your-writes probe %s. " % term * 5})
        if status != 201:
            print("readyourwrites: ingest of %s answered %s: %s" % (doc_id, status, str(body)[:200]))
            return None, False
        token = headers.get("Corpora-Consistency")
        status, body, _ = reader.call("POST", "/api/v1/tenants/%s/retrieve" % args.tenant, {"query": term, "mode": "keyword", "topK": 3},
                                      {"Corpora-Consistency": token} if send_token and token else None)
        found = status == 200 and any(p["citation"]["documentId"] == doc_id for p in body["passages"])
        return token, found

    for i in range(args.count):
        token, found = ingest_then_find(i, "a", False)
        found_without += found
        token, found = ingest_then_find(i, "b", True)
        tokens += token is not None
        found_with += found
    print("readyourwrites: %d rounds; tokens returned %d/%d; found at once with the token %d/%d, without it %d/%d"
          % (args.count, tokens, args.count, found_with, args.count, found_without, args.count))
    ok = tokens == args.count and found_with == args.count
    print("readyourwrites: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


def relocate(args):
    reader = Client(args.url, args.reader_token)
    writer = Client(args.url, args.writer_token)
    admin = Client(args.admin_url, args.admin_token)
    other_reader = Client(args.admin_url, args.reader_token)
    queries = QUERIES[:3]

    def passages(client):
        answers = []
        for query in queries:
            status, body, _ = client.call("POST", "/api/v1/tenants/%s/retrieve" % args.tenant, {"query": query, "mode": "keyword"})
            answers.append([p["id"] for p in body["passages"]] if status == 200 else "HTTP %s" % status)
        return answers

    before = passages(reader)
    status, body, _ = admin.call("POST", "/admin/v1/tenants/%s/store:relocate" % args.tenant, {"store": json.loads(args.store_json)})
    if status != 202:
        print("relocate: start answered %s: %s" % (status, str(body)[:300]))
        return 1
    job_id = body["id"]
    started = time.time()
    reads = read_mismatches = refused = accepted = 0
    job = body
    while time.time() - started < args.job_timeout:
        status, job, _ = admin.call("GET", "/admin/v1/tenants/%s/jobs/%s" % (args.tenant, job_id))
        if status == 200 and job["status"] in ("SUCCEEDED", "FAILED", "PARTIALLY_FAILED"):
            break
        reads += 1
        read_mismatches += passages(reader) != before
        code, _, _ = writer.call("POST", "/api/v1/tenants/%s/documents" % args.tenant,
                                 {"id": "reloc-%d" % (time.time() * 1000), "text": "Written during the relocation."})
        status, job, _ = admin.call("GET", "/admin/v1/tenants/%s/jobs/%s" % (args.tenant, job_id))
        if status == 200 and job["status"] in ("SUCCEEDED", "FAILED", "PARTIALLY_FAILED") and code != 409:
            break  # the job ended while this write was on its way: it may rightly have been accepted
        refused += code == 409
        accepted += code in (200, 201)
    elapsed = time.time() - started
    after_here, after_there = passages(reader), passages(other_reader)
    code, body, _ = writer.call("POST", "/api/v1/tenants/%s/documents" % args.tenant,
                                {"id": "reloc-after-%d" % (time.time() * 1000), "text": "Written after the relocation."})
    print("relocate: job %s %s in %.1fs (%s/%s documents copied); during it %d reads (%d not as before), writes %d refused, %d accepted;"
          " after it both servers answer as before: %s; a new write answers %s"
          % (job_id, job.get("status"), elapsed, job.get("succeeded", 0) + job.get("skipped", 0), job.get("total"), reads, read_mismatches,
             refused, accepted, after_here == before and after_there == before, code))
    ok = (job.get("status") == "SUCCEEDED" and read_mismatches == 0 and accepted == 0 and after_here == before
          and after_there == before and code == 201)
    print("relocate: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


def clean_stop(args):
    node = Client(args.node_url, args.writer_token)
    writer = Client(args.url, args.writer_token)
    reader = Client(args.url, args.reader_token)
    run_id = "%d" % (time.time() * 1000)
    words = "lantern harbour ferry keeper wick oil tide beacon fog signal shift log rope anchor gull pier".split()
    rng = random.Random(8)
    docs = [{"id": "stop-%s-%03d" % (run_id, k),
             "text": "\n\n".join("Stop note %d, part %d. %s." % (k, part, " ".join(rng.choice(words) for _ in range(150)))
                                for part in range(4))}
            for k in range(args.count)]
    status, job, _ = node.call("POST", "/api/v1/tenants/%s/documents" % args.tenant, docs)
    if status != 202:
        print("cleanstop: the batch answered %s: %s" % (status, str(job)[:300]))
        return 1
    job_id = job["id"]
    deadline = time.time() + args.job_timeout
    while time.time() < deadline:
        status, job, _ = node.call("GET", "/api/v1/tenants/%s/jobs/%s" % (args.tenant, job_id))
        if status == 200 and (job["succeeded"] >= args.count // 10 or job["status"] not in ("QUEUED", "RUNNING")):
            break
        time.sleep(0.2)
    if job.get("status") != "RUNNING":
        print("cleanstop: job %s was %s before the stop (%s of %d stored): nothing to stop; make the batch longer"
              % (job_id, job.get("status"), job.get("succeeded"), args.count))
        return 1
    log = os.path.join(args.log_dir, "messages.log")
    offset = os.path.getsize(log)
    stop_at = time.time()
    print("cleanstop: job %s RUNNING with %d of %d stored; stopping the server: %s" % (job_id, job["succeeded"], args.count, args.stop_cmd), flush=True)
    subprocess.run(args.stop_cmd, shell=True, check=True)
    stopped_in = time.time() - stop_at
    # Released, not left to expire: read before a lease left behind could have expired (its ttl is seconds).
    leases_left = subprocess.run(args.leases_cmd, shell=True, check=True, capture_output=True, text=True).stdout.strip() \
        if args.leases_cmd else "0"
    # The job must have ended before the server let go of its lease: read at once from the other server.
    status, job, _ = reader.call("GET", "/api/v1/tenants/%s/jobs/%s" % (args.tenant, job_id))
    outcomes = job.get("outcomes", []) if status == 200 else []
    stored = [o for o in outcomes if o["result"] == "stored"]
    interrupted = [o for o in outcomes if o["result"] == "failed" and (o.get("type") or "").endswith("/job-interrupted")]
    other = [o for o in outcomes if o not in stored and o not in interrupted]
    print("cleanstop: live leases the stopped server left: %s" % leases_left)
    print("cleanstop: the server stopped in %.1fs; the job is %s: %d stored + %d interrupted (job-interrupted) + %d other = %d outcomes of %d"
          % (stopped_in, job.get("status"), len(stored), len(interrupted), len(other), len(outcomes), args.count))
    for o in other[:3]:
        print("  other outcome: %s" % (o,))
    with open(log, errors="replace") as f:
        f.seek(offset if os.path.getsize(log) >= offset else 0)  # rolled over since: the new file is all since the stop
        lines = f.read().splitlines()
    severe = [l for l in lines if '"loglevel":"SEVERE"' in l or re.search(r"\] \S+ +E ", l)]
    ended_early = [l for l in lines if job_id in l and "ended early: this server is stopping" in l]
    ffdc = [f for f in glob.glob(os.path.join(args.log_dir, "ffdc", "*")) if os.path.getmtime(f) >= stop_at]
    print("cleanstop: the stopped server logged %d lines since the stop: %d SEVERE, %d naming the job as ended early; %d FFDC reports"
          % (len(lines), len(severe), len(ended_early), len(ffdc)))
    for l in severe[:3]:
        print("  SEVERE: %s" % l[:300])
    for f in ffdc[:3]:
        print("  FFDC: %s" % f)
    # What was interrupted is sent again, as the outcome says, through the balancer.
    resent = [d for d in docs if d["id"] in {o["documentId"] for o in interrupted}]
    status, again, _ = writer.call("POST", "/api/v1/tenants/%s/documents" % args.tenant, resent) if resent else (0, {}, None)
    while status == 202 and time.time() < deadline:
        status, again, _ = reader.call("GET", "/api/v1/tenants/%s/jobs/%s" % (args.tenant, again["id"]))
        if status == 200 and again["status"] in ("QUEUED", "RUNNING"):
            status = 202
            time.sleep(0.5)
    served = sum(1 for d in docs if reader.call("GET", "/api/v1/tenants/%s/documents/%s" % (args.tenant, d["id"]))[0] == 200)
    print("cleanstop: sent the %d interrupted documents again: %s; %d of %d documents served"
          % (len(resent), again.get("status") if isinstance(again, dict) else again, served, args.count))
    ok = (job.get("status") == "PARTIALLY_FAILED" and len(stored) > 0 and len(interrupted) > 0 and not other
          and len(outcomes) == args.count and not severe and ended_early and not ffdc and served == args.count and leases_left == "0")
    print("cleanstop: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["failover", "throughput", "readyourwrites", "relocate", "cleanstop"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--tenant", default="demo")
    parser.add_argument("--reader-token", required=True)
    parser.add_argument("--writer-token")
    parser.add_argument("--readers", type=int, default=3)
    parser.add_argument("--mcp-readers", type=int, default=1, help="failover: threads calling the MCP search tool beside the REST readers")
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--write-pause", type=float, default=0.2)
    parser.add_argument("--before", type=float, default=10)
    parser.add_argument("--after", type=float, default=25)
    parser.add_argument("--grace", type=float, default=5, help="seconds after the fault a request may still fail (HAProxy marks a server down after fall 2 x inter 2s)")
    parser.add_argument("--max-failed-reads", type=int, default=-1,
                        help="failover: fail if more retrievals failed (0 behind a balancer that re-sends reads; -1: no limit)")
    parser.add_argument("--job-timeout", type=int, default=90)
    parser.add_argument("--fault-cmd")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--admin-url")
    parser.add_argument("--admin-token")
    parser.add_argument("--store-json", help="relocate: the target store choice, {\"provider\": …, \"config\": {…}}")
    parser.add_argument("--node-url", help="cleanstop: the server the batch job runs on (the one --stop-cmd stops)")
    parser.add_argument("--stop-cmd", help="cleanstop: stops that server cleanly, returning once it has stopped")
    parser.add_argument("--log-dir", help="cleanstop: that server's Liberty logs directory (messages.log, ffdc/)")
    parser.add_argument("--leases-cmd", help="cleanstop: prints how many live leases that server holds (0 once it handed over)")
    args = parser.parse_args()
    modes = {"failover": failover, "throughput": throughput, "readyourwrites": read_your_writes, "relocate": relocate,
             "cleanstop": clean_stop}
    sys.exit(modes[args.mode](args))


if __name__ == "__main__":
    main()
