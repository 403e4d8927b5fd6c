#!/usr/bin/env python3
"""Feeds every route of a running server's OpenAPI document malformed input and lists the answers of 500 and above.

For each route and method: query parameters out of range or of the wrong type, path ids that no tenant, document or
job can have (encoded dots and slashes, 3,000 characters, an emoji), and for bodies: empty, truncated, the wrong JSON
types, 200 KB strings, 5,000 levels of nesting, lone surrogates, bytes that are not UTF-8, JSON-RPC messages, and four
wrong content types. Data-plane routes are called with a reader+writer+tenant-admin token of --tenant, admin routes
with a platform-admin token (both development tokens from bin/corpora token, so the server must run in development
mode). `tenants:sync` is left out: it changes the server's tenants. The inputs are fixed, so a listed request
reproduces. Exit status 1 when any answer was 500 or above (a 501 "generator-not-configured" of a tenant without a
generator is not counted). Standard library only; a few minutes against a local server.

    scripts/route_fuzz.py --url http://localhost:9080 --tenant demo
"""
import argparse
import collections
import json
import sys
import urllib.request

from corpora_http import call as http_call, dev_token as token

PATH_IDS = ["no-such-x", "%2e%2e", "a%2Fb", "x" * 3000, "%F0%9F%98%80"]
QUERIES = ["", "?limit=-1", "?limit=abc", "?after=%00", "?id=", "?id=%2e%2e%2f", "?id=" + "x" * 5000,
           "?limit=99999999999", "?sort=nope&order=sideways", "?page=-3", "?state=BOGUS", "?partition=%00", "?wait=31"]
BODIES = [b"", b"{", b"null", b"[]", b"123", b'"x"', b'{"query":null}', b'{"query":123}', b'{"query":"x","topK":-1}',
          b'{"query":"x","topK":100000000000}', b'{"query":"x","topK":"ten"}', b'{"query":"x","filter":{"op":"nope"}}',
          b'{"query":"x","filter":"a=b"}', b'{"query":"x","mode":"bogus"}', b'{"query":"' + b"a" * 200_000 + b'"}',
          b"[" * 5000 + b"]" * 5000, b'{"a":' * 5000 + b"1" + b"}" * 5000, b'{"query":"\\ud800"}', b'{"query":"x","maxChars":-5}',
          b'{"query":"x","minScore":"NaN"}', b'{"queries":[]}', b'{"queries":null}', b'{"queries":[{"query":null}]}',
          b'{"embedder":null}', b'{"store":{}}', b'{"state":"NOPE"}', b'{"state":null}', b'{"id":"../x"}',
          b'{"id":"x","embedder":{"provider":"nope"}}', b'{"jsonrpc":"2.0","method":"initialize","params":{},"id":1}',
          b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nope"},"id":1}', b'{"jsonrpc":"2.0","id":[1]}',
          b"\xff\xfe\x00", b'{"query":"x","fusion":{"weight":2}}', b'{"query":"x","partition":"../../etc"}']
CONTENT_TYPES = ["text/plain", "application/xml", "multipart/form-data; boundary=zz", "application/octet-stream"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://localhost:9080")
    parser.add_argument("--tenant", default="demo")
    args = parser.parse_args()
    base = args.url.rstrip("/")
    admin = token("--admin")
    member = token("--tenant", args.tenant, "--roles", "reader,writer,tenant-admin")
    spec = json.load(urllib.request.urlopen(urllib.request.Request(base + "/openapi", headers={"Accept": "application/json"})))

    failures, sent, statuses = [], 0, collections.Counter()

    def call(method, path, body, content_type, bearer):
        nonlocal sent
        sent += 1
        status, text = http_call(base + path, method, bearer, body if method in ("POST", "PUT", "DELETE") else None,
                                 headers={"Content-Type": content_type, "Accept": "application/json"})
        text = text[:600].encode()
        statuses[status] += 1
        rpc_internal = path == "/mcp" and b'"code":-32000' in text and b"(500)" in text
        if status == 0 or (status >= 500 and not (status == 501 and b"generator-not-configured" in text)) or rpc_internal:
            failures.append((status, method, path[:140], (body or b"")[:60], content_type, text[:300]))

    for template, operations in spec["paths"].items():
        if template.endswith("tenants:sync"):
            continue
        for method in (m.upper() for m in operations):
            bearer = admin if template.startswith("/admin") else member
            for path_id in PATH_IDS if "{id}" in template or "{job}" in template else [None]:
                path = template.replace("{tenant}", args.tenant)
                if path_id is not None:
                    path = path.replace("{id}", path_id).replace("{job}", path_id)
                for query in QUERIES:
                    call(method, path + query, b"{}", "application/json", bearer)
                if method in ("POST", "PUT", "DELETE"):
                    for body in BODIES:
                        call(method, path, body, "application/json", bearer)
                    for content_type in CONTENT_TYPES:
                        call(method, path, b'{"query":"x"}', content_type, bearer)

    print(f"{sent} requests; statuses {dict(sorted(statuses.items()))}; {len(failures)} answered 500 or above")
    shown = set()
    for failure in failures:
        key = failure[:3]
        if key not in shown:
            shown.add(key)
            print("  ", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
