"""What the probe scripts share: development tokens, one JSON call, and a tally of answers by route and status.

Standard library only. The scripts import it from their own directory (python3 scripts/<name>.py puts scripts/ on
the path), so run them from the repository root: `bin/corpora token` mints the tokens.
"""
import collections
import json
import subprocess
import threading
import urllib.error
import urllib.request


def dev_token(*args):
    """A development token from bin/corpora token (the server must run in development mode), e.g. dev_token("--admin")."""
    out = subprocess.run(["bin/corpora", "token", *args], capture_output=True, text=True, check=True).stdout
    return out.strip().splitlines()[-1]


def call(url, method, token, body=None, timeout=120, headers=None):
    """(status, body text); status 0 when no answer came (the body is then the error)."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(url, method=method, data=data,
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json",
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")
    except Exception as e:  # a reset, a timeout: the server gave no answer
        return 0, repr(e)


def problem_type(body):
    """The last segment of a problem+json answer's type (e.g. "tenant-not-active"), or "" for another body."""
    try:
        return str(json.loads(body).get("type", "")).rsplit("/", 1)[-1]
    except (ValueError, AttributeError):
        return ""


class Tally:
    """Answers counted by (route, status[, problem type of a 4xx]), thread-safe; 500 or above, or no answer, kept as failures."""

    def __init__(self):
        self.counts = collections.Counter()
        self.failures = []
        self.samples = {}  # the first body answered under each key
        self._lock = threading.Lock()

    def note(self, route, status, body):
        key = (route, status, problem_type(body)) if 400 <= status < 500 else (route, status)
        with self._lock:
            self.counts[key] += 1
            self.samples.setdefault(key, body[:400])
            if status >= 500 or status == 0:
                self.failures.append((route, status, body[:400]))

    def print_summary(self, samples=False):
        """Counts by key; with samples, each 4xx key's first answer too."""
        for key in sorted(self.counts):
            print(key, self.counts[key])
            if samples and len(key) == 3:
                print("    e.g.", self.samples[key])
        print(sum(self.counts.values()), "requests;", len(self.failures), "answers of 500 or above (or no answer)")
        for failure in self.failures[:15]:
            print(failure)
