#!/usr/bin/env python3
"""Sums a JFR recording's jdk.Compilation events (recorded with jdk.Compilation#threshold=0ms):
compilations and their duration per tier, the C2 (tier 4) ones per method, per package and per minute.
usage: jfr print --json --events jdk.Compilation REC.jfr > comp.json; compilations.py comp.json"""
import collections, json, re, sys

def seconds(iso):  # JFR prints durations as ISO 8601, e.g. PT0.0123S or PT1M2.5S
    m = re.match(r'PT(?:(\d+)M)?([\d.]+)S', iso)
    return int(m.group(1) or 0) * 60 + float(m.group(2)) if m else 0.0

events = json.load(open(sys.argv[1]))['recording']['events']
per_tier, count = collections.Counter(), collections.Counter()
c2_method, c2_method_count, c2_package, c2_minute = (collections.Counter() for _ in range(4))
for e in events:
    v = e['values']
    tier, took = v['compileLevel'], seconds(v['duration'])
    per_tier[tier] += took
    count[tier] += 1
    if tier == 4:
        name = v['method']['type']['name'] + '.' + v['method']['name']
        c2_method[name] += took
        c2_method_count[name] += 1
        c2_package['.'.join(v['method']['type']['name'].split('/')[:3])] += took
        c2_minute[v['startTime'][11:16]] += took
for tier in sorted(per_tier):
    print(f'tier {tier}: {count[tier]} compilations, {per_tier[tier]:.1f} s')
print('C2, the 25 longest methods (s, compilations):')
for name, took in c2_method.most_common(25):
    print(f'  {took:6.2f}  {c2_method_count[name]:2d}  {name}')
print('C2 by package (s):')
for name, took in c2_package.most_common(20):
    print(f'  {took:6.2f}  {name}')
print('C2 by minute (s):')
for minute in sorted(c2_minute):
    print(f'  {minute}  {c2_minute[minute]:.1f}')
