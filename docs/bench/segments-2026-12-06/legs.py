"""Per-leg medians of a tenant's retrievals, from the server's own diagnostics.

usage: CORPORA_URL=http://localhost:19700 CORPORA_TOKEN=$(bin/corpora token --tenant bench-largest) \
       python3 legs.py MODE QUERIES REPEATS [TOPK] [TENANT]
Queries are SciFact's test questions (../shared/datasets/scifact/queries.jsonl); each is asked once unmeasured first.
"""
import json, os, statistics, sys, urllib.request

url = os.environ.get("CORPORA_URL", "http://localhost:9080")
token = os.environ["CORPORA_TOKEN"]
mode, count, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
top_k = int(sys.argv[4]) if len(sys.argv) > 4 else 10
tenant = sys.argv[5] if len(sys.argv) > 5 else "bench-largest"
here = os.path.dirname(os.path.abspath(__file__))
queries_file = os.path.join(here, "..", "..", "..", "..", "shared", "datasets", "scifact", "queries.jsonl")
queries = [json.loads(line)["text"] for line in open(queries_file)][:count]


def diagnostics(query):
    body = json.dumps({"query": query, "mode": mode, "topK": top_k}).encode()
    request = urllib.request.Request(f"{url}/api/v1/tenants/{tenant}/retrieve", data=body,
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())["diagnostics"]


for query in queries:
    diagnostics(query)
legs, totals = {}, []
for _ in range(repeats):
    for query in queries:
        d = diagnostics(query)
        totals.append(d["totalMillis"])
        for leg in d["legs"]:
            legs.setdefault(leg["name"], []).append(leg["millis"])
print(f"{mode} topK {top_k}: totalMillis p50 {statistics.median(totals):.2f} ms over {len(totals)} calls")
for name, millis in legs.items():
    print(f"  {name:<10} p50 {statistics.median(millis):.3f} ms")
