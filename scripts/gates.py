#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes a gates file (expect/BASE-bench) again from a run.

Usage: gates.py GATES BENCH_JSON[.xz] > NEW

Keeps the file's header and its general single-object lines, and writes
from the run, by the rules the header states (docs/bench.md, "The
gates"):

- an exception, at the present upper end rounded up to 0.01, for each
  row a general single gate matches whose interval holds 1 but ends
  above the general bound;
- in a comment, and no exception, each row the series is shown to slow
  past the general bound (its interval wholly above 1): the general
  gate keeps failing on it until it is fixed;
- for each case the old win and miss lines named (suite/case/variant and
  ratio), a win line (bound 1) for every row shown faster and a miss line
  at its present upper end for every row shown slower, "*" where every n
  of the case is a win, "both" where both measures give one line.

The win and miss lines are what the cover letters must then claim and
admit: a gain that became "no difference shown" loses its line, and the
covers their claim.
"""
import collections
import fnmatch
import json
import lzma
import math
import sys

import layouts

EXCEPTIONS = '# Single paths over 1.01'
NOT_EXCEPTED = ('# Not excepted: single paths the series is shown to slow beyond 1.01 (the',
                '# interval above 1 and its upper end past 1.01) keep the general 1.01',
                '# gate, which fails on them, so that make bench fails until they are',
                '# fixed:')
CLAIMS = '# Wins the cover letter'


def up(x):
    """@x rounded up to 0.01."""
    return math.ceil(x * 100 - 1e-9) / 100


def single_lines(samples, gates):
    """(exception lines, lines of rows shown slower) for the rows the
    general single gates (those with a "*") match."""
    exc, slower, seen = [], [], set()
    for kind, pattern, ratio, measures, bound, _ in gates:
        if kind != 'single' or '*' not in pattern:
            continue
        for row in samples.rows('series'):
            if not fnmatch.fnmatchcase(layouts.row_name(row), pattern):
                continue
            for m in measures:
                if (row, m) in seen:
                    continue
                seen.add((row, m))
                iv = layouts.interval(samples.ratios(ratio, row, m))
                if iv['hi'] is None or iv['hi'] <= bound:
                    continue
                line = f'single {layouts.row_name(row)} {ratio} {m} {up(iv["hi"]):.2f}'
                if iv['lo'] > 1:
                    slower.append(f'#   {line}   ({layouts.fmt_iv(iv)})')
                else:
                    exc.append(line)
    return exc, slower


def claim_lines(samples, gates):
    """The win and miss lines of the cases the old ones named."""
    groups = []
    for kind, pattern, ratio, *_ in gates:
        if kind in ('win', 'miss'):
            key = tuple(pattern.split('/')[:3]) + (ratio,)
            if key not in groups:
                groups.append(key)
    out = []
    for suite, case, variant, ratio in groups:
        rows = [r for r in samples.rows('series') if r[:3] == (suite, case, variant)]
        found = []
        for m, _ in layouts.MEASURES:
            ivs = [(r, layouts.interval(samples.ratios(ratio, r, m))) for r in rows]
            ivs = [(r, iv) for r, iv in ivs if iv['hi'] is not None]
            if len(ivs) > 1 and len(ivs) == len(rows) and all(iv['hi'] < 1 for _, iv in ivs):
                found.append(('*', m, 'win', 1))
                continue
            for r, iv in ivs:
                if iv['hi'] < 1:
                    found.append((r[3], m, 'win', 1))
                elif iv['lo'] > 1:
                    found.append((r[3], m, 'miss', up(iv['hi'])))
        merged = collections.OrderedDict()
        for n, m, kind, bound in found:
            merged.setdefault((n, kind, bound), []).append(m)
        for (n, kind, bound), ms in merged.items():
            measure = 'both' if len(ms) == 2 else ms[0]
            text = '1' if kind == 'win' else f'{bound:.2f}'
            out.append(f'{kind} {suite}/{case}/{variant}/{n} {ratio} {measure} {text}')
    return out


def rewrite(text, samples, gates):
    """@text (a gates file) with its exceptions and claims written from
    @samples."""
    lines = text.split('\n')
    if not any(l.startswith(EXCEPTIONS) for l in lines) or \
       not any(l.startswith(CLAIMS) for l in lines):
        raise ValueError(f'a gates file has a block "{EXCEPTIONS}..." and one "{CLAIMS}..."')
    i = next(n for n, l in enumerate(lines) if l.startswith(EXCEPTIONS))
    out = lines[:i]
    while i < len(lines) and lines[i].startswith('#'):
        out.append(lines[i])
        i += 1
    exc, slower = single_lines(samples, gates)
    out += exc + [''] + list(NOT_EXCEPTED[:3])
    out += [NOT_EXCEPTED[3]] + slower if slower else [NOT_EXCEPTED[3][:-1] + ': none.']
    k = next(n for n, l in enumerate(lines) if l.startswith(CLAIMS))
    out.append('')
    while k < len(lines) and lines[k].startswith('#'):
        out.append(lines[k])
        k += 1
    out += claim_lines(samples, gates)
    return '\n'.join(out) + '\n'


def main(path, run):
    opener = lzma.open if run.endswith('.xz') else open
    with opener(run, 'rt') as f:
        samples = layouts.Samples(json.load(f)['records'])
    with open(path, encoding='utf-8') as f:
        text = f.read()
    sys.stdout.write(rewrite(text, samples, layouts.read_gates(path)))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__.split('\n\n')[1])
    main(*sys.argv[1:])
