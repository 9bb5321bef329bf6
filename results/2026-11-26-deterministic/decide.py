#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per patch group, the rows that decide it, from a make bench bench.json:
series/base of the bulk call and of the loop (the single-object path) in
instructions and modelled cycles, and series bulk/loop (the simplest
alternative: the caller's own loop). Run 1 only (run 2 repeats it).

Usage: decide.py BENCH.JSON GROUPS.TXT
GROUPS.TXT: "# heading" lines, then "suite case n[,n...]" lines, or
"suite case n[,n...] variant [base-variant]" for a suite without bulk and
loop variants: the series' variant against the base's (by default the
same), in the bulk columns."""
import json
import sys


def main(bench, groups):
    recs = {}
    for r in json.load(open(bench))['records']:
        if r['run'] == 1:
            recs[(r['kernel'], r['suite'], r['case'], r['variant'], r['n'])] = r

    def get(k, s, c, v, n, f):
        r = recs.get((k, s, c, v, n))
        return r.get(f) if r else None

    def fmt(i, y):
        return f'{i:.1f} / {y:.1f}' if i is not None and y is not None else '-'

    def ratio(a, b):
        return f'{a / b:.3f}' if a and b else '-'

    print('| rows | n | base bulk insn / cycles | series bulk insn / cycles | '
          'series/base bulk insn | series/base bulk cycles | series/base loop cycles | '
          'series bulk/loop cycles |')
    print('|---|---|---|---|---|---|---|---|')
    for line in open(groups):
        line = line.strip()
        if not line:
            continue
        if line.startswith('#'):
            print(f'| **{line[1:].strip()}** | | | | | | | |')
            continue
        f = line.split()
        s, c, ns = f[:3]
        bulk = f[3] if len(f) > 3 else 'bulk'
        bvar = f[4] if len(f) > 4 else bulk
        what = f'{s} {c}' + (f' {bulk}' if bulk != 'bulk' else '') + \
            (f' vs base {bvar}' if bvar != bulk else '')
        for n in (int(x) for x in ns.split(',')):
            bi, bc = get('base', s, c, bvar, n, 'insn_per_obj'), get('base', s, c, bvar, n, 'cycles_per_obj')
            si, sc = get('series', s, c, bulk, n, 'insn_per_obj'), get('series', s, c, bulk, n, 'cycles_per_obj')
            bl, sl = get('base', s, c, 'loop', n, 'cycles_per_obj'), get('series', s, c, 'loop', n, 'cycles_per_obj')
            if si is None:
                print(f'| {what} | {n} | (no row) | | | | | |')
                continue
            print(f'| {what} | {n} | {fmt(bi, bc)} | {fmt(si, sc)} | {ratio(si, bi)} | '
                  f'{ratio(sc, bc)} | {ratio(sl, bl)} | {ratio(sc, sl)} |')

if __name__ == '__main__':
    main(*sys.argv[1:3])
