#!/usr/bin/env python3
"""A burst of uploads into one tenant: many clients each POST a multipart batch at the same moment.

Each of --clients threads uploads --files documents of a BEIR corpus.jsonl (as Markdown, from --offset on) in one
multipart request, all at once; then every job is followed to its end and the documents' outcomes are counted. Prints
how long the uploads and the whole burst took and the outcomes by result and status (with the first errors).
Standard library only.

    scripts/ingest_burst.py --url http://localhost:9080 --tenant demo --token "$(bin/corpora token --tenant demo --roles writer)" \
        --corpus ../shared/datasets/scifact/corpus.jsonl --clients 40 --files 16 --offset 2000
"""
import argparse
import collections
import concurrent.futures
import json
import time
import urllib.error
import urllib.request

BOUNDARY = "corpora-burst"


def batch(documents):
    body = b""
    for doc_id, title, text in documents:
        body += (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="burst-{doc_id}.md"\r\n'
                 f"Content-Type: text/markdown\r\n\r\n# {title}\n\n{text}\r\n").encode("utf-8")
    return body + f"--{BOUNDARY}--\r\n".encode("utf-8")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--token", required=True, help="a writer token of the tenant")
    parser.add_argument("--corpus", required=True, help="a BEIR corpus.jsonl")
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--files", type=int, default=16, help="documents per upload")
    parser.add_argument("--offset", type=int, default=0, help="corpus lines skipped first")
    args = parser.parse_args()

    documents = []
    with open(args.corpus, encoding="utf-8") as corpus:
        for number, line in enumerate(corpus):
            if number < args.offset:
                continue
            if len(documents) == args.clients * args.files:
                break
            doc = json.loads(line)
            documents.append((doc["_id"], doc.get("title", ""), doc["text"]))
    headers = {"Authorization": "Bearer " + args.token}
    endpoint = f"{args.url.rstrip('/')}/api/v1/tenants/{args.tenant}/documents"

    def upload(client):
        request = urllib.request.Request(endpoint, data=batch(documents[client * args.files:(client + 1) * args.files]), method="POST",
                                         headers={**headers, "Content-Type": "multipart/form-data; boundary=" + BOUNDARY})
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, response.headers.get("Location")
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read(300).decode("utf-8", "replace")

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.clients) as pool:
        uploads = list(pool.map(upload, range(args.clients)))
    print(f"{args.clients} uploads of {args.files} files in {time.monotonic() - started:.1f} s:",
          dict(collections.Counter(status for status, _ in uploads)))

    outcomes, errors = collections.Counter(), []
    for status, location in uploads:
        if status != 202:
            continue
        while True:
            with urllib.request.urlopen(urllib.request.Request(location + "?wait=30", headers=headers)) as response:
                job = json.load(response)
            if job["status"] not in ("QUEUED", "RUNNING"):
                break
        for outcome in job["outcomes"]:
            outcomes[(outcome.get("result"), outcome.get("status"))] += 1
            if outcome.get("error") and len(errors) < 3:
                errors.append(outcome["error"])
    print(f"every job ended after {time.monotonic() - started:.1f} s; outcomes:", dict(outcomes))
    for error in errors:
        print("  e.g.", error)


if __name__ == "__main__":
    main()
