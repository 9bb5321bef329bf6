#!/usr/bin/env python3
"""Compares the rows of two bench.json files that both have (kernel, suite,
case, variant, n, run 1): instructions and modelled cycles per object.
Usage: same.py NEW OLD [SUITE...]"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../scripts'))
from report import key  # noqa: E402  the row's name, as make bench keys it

new, old = (json.load(open(p))['records'] for p in sys.argv[1:3])
suites = set(sys.argv[3:])

olds = {key(r): r for r in old if r.get('run', 1) == 1}
worst = {'insn_per_obj': 0.0, 'cycles_per_obj': 0.0}
n = 0
for r in new:
    if r.get('run', 1) != 1 or (suites and r['suite'] not in suites):
        continue
    o = olds.get(key(r))
    if not o:
        continue
    n += 1
    for f in worst:
        a, b = r.get(f), o.get(f)
        if a is None or b is None or not b:
            continue
        d = abs(a - b) / abs(b)
        if d > worst[f]:
            worst[f] = d
            print(f'{f}: {key(r)} {b:.3f} -> {a:.3f}')
print(f'{n} rows in both; largest difference: ' +
      ', '.join(f'{f} {v * 100:.3f} %' for f, v in worst.items()))
