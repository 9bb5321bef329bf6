#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Figures over layout seeds, and the gates make bench judges them by.

Under -icount a boot repeats to the instruction, so each boot is one
sample of where objects and pages happen to lie: make bench boots each
kernel once per layout seed, and the seed decides the state the suites
start from. For every row this module gives, over the seeds:

- series/base: the paired ratio of the two kernels' figures of one seed;
- bulk/loop: a bulk variant against the loop it replaces, in one kernel
  and one boot;

each as a median with an exact rank interval for the median: the pair of
order statistics (x_(k), x_(n+1-k)) with the largest k whose coverage,
1 - 2 P(Bin(n, 1/2) <= k - 1), is at least 95 %. That interval holds for
any distribution of the seeds' ratios, where a bootstrap of six values
would cover less than it claims. Six seeds give (min, max) at 96.9 %;
five cannot reach 95 % (93.8 %), and such a row has no interval.

The decision rule, the one every message and cover letter uses: a row is
"faster" (or "slower") only where its interval lies wholly below (above)
1; otherwise "no difference shown", with the interval.
"""
import fnmatch
import math
import os
import statistics

LEVEL = 0.95
# (name in gates and tables, field of a record)
MEASURES = (('insn', 'insn_per_obj'), ('cycles', 'cycles_per_obj'))
# A bulk variant, and the loop of single calls it replaces in the same boot.
LOOP_OF = {'bulk': 'loop', 'kfree_skb_bulk': 'consume_loop', 'waitlist': 'napi_consume',
           'kfree_skb_bulk16': 'free_loop'}
RATIOS = ('series/base', 'bulk/loop', 'series/alt')
KINDS = ('single', 'win', 'miss')


def row_name(row):
    """"suite/case/variant/n" of a row key (suite, case, variant, n)."""
    return '/'.join(str(x) for x in row)


def value(r, measure):
    """The figure of record @r in @measure, or None. rcuscale rows have
    a time (virtual, so instructions too) instead of a per-object count."""
    field = dict(MEASURES)[measure]
    v = r.get(field)
    if v is None and measure == 'insn' and r.get('suite') == 'kfree_rcu':
        v = r.get('time_ns')
    return v if v is not None and v > 0 else None


def coverage(n, k):
    """The probability that (x_(k), x_(n+1-k)) of @n samples holds their
    distribution's median."""
    if n < 1 or k < 1 or 2 * k > n + 1:
        return 0.0
    return 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n


def interval(values):
    """{'median', 'lo', 'hi', 'coverage', 'n'} of @values: the median and
    the exact rank interval of the widest coverage at or above LEVEL
    closest to it; lo and hi are None where no such interval exists."""
    xs = sorted(values)
    n = len(xs)
    out = {'median': statistics.median(xs) if xs else None, 'lo': None, 'hi': None,
           'coverage': coverage(n, 1), 'n': n}
    best = None
    for k in range(1, n // 2 + 1):
        if coverage(n, k) >= LEVEL:
            best = k
    if best is not None:
        out.update(lo=xs[best - 1], hi=xs[n - best], coverage=coverage(n, best))
    return out


def word(iv):
    """The decision rule's word for an interval of a cost ratio."""
    if iv['lo'] is None:
        return f'no interval ({iv["n"]} seeds)'
    if iv['hi'] < 1:
        return 'faster'
    if iv['lo'] > 1:
        return 'slower'
    return 'no difference shown'


def fmt_iv(iv, digits=3):
    """"median [lo, hi]", or the median alone and why there is no interval."""
    if iv['median'] is None:
        return '-'
    if iv['lo'] is None:
        return f'{iv["median"]:.{digits}f} [no interval: {iv["n"]} seeds]'
    return f'{iv["median"]:.{digits}f} [{iv["lo"]:.{digits}f}, {iv["hi"]:.{digits}f}]'


class Samples:
    """The records of every seed: {(kernel, suite, case, variant, n):
    {seed: record}}."""

    def __init__(self, records):
        self.by = {}
        for r in records:
            k = (r['kernel'], r['suite'], r['case'], r['variant'], r['n'])
            self.by.setdefault(k, {})[r['layout']] = r
        self.seeds = sorted({r['layout'] for r in records})

    def rows(self, kernel=None):
        """The row keys (suite, case, variant, n) one kernel (any) has."""
        return sorted({k[1:] for k in self.by if kernel is None or k[0] == kernel},
                      key=lambda k: (k[0], k[1], k[2], k[3] if isinstance(k[3], int) else 0))

    def kernels(self):
        return sorted({k[0] for k in self.by})

    def values(self, kernel, row, measure):
        """{seed: figure} of @row in @kernel, the seeds with a figure."""
        out = {}
        for seed, r in self.by.get((kernel,) + tuple(row), {}).items():
            v = value(r, measure)
            if v is not None:
                out[seed] = v
        return out

    def ratios(self, ratio, row, measure):
        """The per-seed values of @ratio for @row, paired by seed; [] where
        the ratio does not apply to the row."""
        if ratio == 'bulk/loop':
            loop = LOOP_OF.get(row[2])
            if loop is None:
                return []
            num = self.values('series', row, measure)
            den = self.values('series', (row[0], row[1], loop, row[3]), measure)
        else:
            other = ratio.split('/')[1]
            num = self.values('series', row, measure)
            den = self.values(other, row, measure)
        return [num[s] / den[s] for s in sorted(num) if s in den]

    def spread(self, kernel, row, measure):
        """(max - min) / median of @row's figures across the seeds, or None."""
        vs = list(self.values(kernel, row, measure).values())
        if len(vs) < 2:
            return None
        return (max(vs) - min(vs)) / statistics.median(vs)


def missing_rows(samples):
    """A row one seed of a kernel has and another seed of it lacks (or
    has without a figure), and a row of the base the series lacks: each
    as "kernel: suite/case/variant/n: seeds ..."."""
    out = []
    for kernel in samples.kernels():
        for row in samples.rows(kernel):
            have = set(samples.values(kernel, row, 'insn'))
            # Rows that carry no per-object figure by nature (the traffic
            # breakdown's shares) are not timed rows.
            if not have and not any('objs' in r for r in samples.by[(kernel,) + row].values()):
                continue
            lacking = [s for s in samples.seeds if s not in have]
            if lacking:
                out.append(f'{kernel}: {row_name(row)}: no figure in seed '
                           + ', '.join(str(s) for s in lacking))
    for kernel in ('series', 'alt'):
        if kernel not in samples.kernels():
            continue
        have = set(samples.rows(kernel))
        out += [f'{kernel}: {row_name(row)}: a row of the base the {kernel} lacks'
                for row in samples.rows('base') if row not in have]
    return out


def read_gates(path):
    """The gates of @path: (kind, row pattern, ratio, measures, bound, line).
    A line is "KIND SUITE/CASE/VARIANT/N RATIO MEASURE BOUND", fnmatch
    patterns allowed in the row, "#" starting a comment; a line that
    cannot be read stops make bench."""
    gates = []
    with open(path, encoding='utf-8') as f:
        for no, line in enumerate(f, 1):
            text = line.split('#', 1)[0].strip()
            if not text:
                continue
            parts = text.split()
            where = f'{os.path.basename(path)}:{no}'
            if len(parts) != 5:
                raise ValueError(f'{where}: want KIND ROW RATIO MEASURE BOUND: {text}')
            kind, row, ratio, measure, bound = parts
            if kind not in KINDS:
                raise ValueError(f'{where}: kind {kind}: one of {", ".join(KINDS)}')
            if row.count('/') != 3:
                raise ValueError(f'{where}: row {row}: SUITE/CASE/VARIANT/N')
            if ratio not in RATIOS:
                raise ValueError(f'{where}: ratio {ratio}: one of {", ".join(RATIOS)}')
            measures = [m for m, _ in MEASURES] if measure == 'both' else [measure]
            if any(m not in dict(MEASURES) for m in measures):
                raise ValueError(f'{where}: measure {measure}: insn, cycles or both')
            try:
                bound = float(bound)
            except ValueError:
                raise ValueError(f'{where}: bound {bound}: a number') from None
            if kind == 'win' and bound > 1:
                raise ValueError(f'{where}: a win\'s bound is at most 1')
            gates.append((kind, row, ratio, measures, bound, where))
    return gates


def check_gates(samples, gates, suites):
    """Judges each gate whose suite ran (@suites; kfree_rcu for rcuscale's
    rows) on every row it matches that no later gate of its kind and ratio
    matches: the upper end of the row's interval must be at most the
    bound (below it for a win). A series/alt gate of
    a run without the alt kernel is not checked. Returns (problems, lines
    for the report, gates not checked)."""
    problems, lines, unchecked = [], [], []

    def overridden(i, row, m):
        """Whether a later gate of the same kind and ratio names @row in
        measure @m: that one judges it (a file's exceptions follow its
        general lines)."""
        kind, _, ratio = gates[i][:3]
        return any(g[0] == kind and g[2] == ratio and m in g[3]
                   and fnmatch.fnmatchcase(row_name(row), g[1]) for g in gates[i + 1:])

    for i, (kind, pattern, ratio, measures, bound, where) in enumerate(gates):
        suite = pattern.split('/')[0]
        if (not any(fnmatch.fnmatchcase(s, suite) for s in suites)
                or (ratio == 'series/alt' and 'alt' not in samples.kernels())):
            unchecked.append(f'{where} ({pattern})')
            continue
        kernel = 'alt' if ratio == 'series/alt' else 'series'
        rows = [r for r in samples.rows(kernel) if fnmatch.fnmatchcase(row_name(r), pattern)]
        if ratio == 'bulk/loop':
            rows = [r for r in rows if r[2] in LOOP_OF]
        if not rows:
            problems.append(f'gate {where}: {pattern} matches no row')
            continue
        for row in rows:
            for m in measures:
                if overridden(i, row, m):
                    continue
                iv = interval(samples.ratios(ratio, row, m))
                ok = iv['hi'] is not None and (iv['hi'] < bound if kind == 'win'
                                               else iv['hi'] <= bound)
                text = (f'{kind} {row_name(row)} {ratio} {m}: {fmt_iv(iv)}, '
                        f'bound {"<" if kind == "win" else "<="} {bound:g}')
                lines.append(('pass' if ok else 'FAIL', text))
                if not ok:
                    problems.append(f'gate {where}: {text}')
    return problems, lines, unchecked
