#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the console logs of "make bench" into bench.json, report.md and plots.

Usage: report.py --out DIR --base-version "PACKAGE VERSION" --config CONFIG KERNEL:RUN=LOG...

A result line of test_slab_bulk_bench gives, for one case, the objects timed, the
timed sections and the cycles they took (one cycle per guest instruction
under -icount shift=0). The cost of an empty section, from the calib suite
of the same boot, is subtracted before dividing by the objects.
"""
import argparse
import json
import os
import platform
import re
import statistics
import subprocess

import costmodel
import layouts

# test_slab_bulk_bench prints the lines; before the series split the module
# (the bench base kernel) test_slab_bulk did, and the kselftest prints pktgen's.
LINE = re.compile(r'test_slab_bulk(?:_bench)?: bench suite=(\S+) case=(\S+) variant=(\S+) n=(\d+) objs=(\d+) '
                  r'sections=(\d+) ticked=\d+ cycles=(\d+) free_slowpath=(-?\d+) '
                  r'free_fastpath=(-?\d+) alloc_slowpath=(-?\d+) alloc_fastpath=(-?\d+)'
                  r'(?: cost_seq=(\d+))?([^\n]*)')
# SLUB_STATS' sheaf counters, after cost_seq on kernels that print them:
# the memory a free path takes (empty sheaves) and gives back.
SHEAF_COUNTERS = ('sheaf_alloc', 'sheaf_free', 'barn_put', 'barn_put_fail', 'sheaf_flush')
COUNTER = re.compile(r' (\w+)=(-?\d+)')
# The traffic benchmark's breakdown: per stream and cache, the objects
# allocated and those bulk frees gave back in groups (-1: not counted).
SHARE = re.compile(r'test_slab_bulk: bulk_share suite=traffic case=(\S+) variant=(\S+) '
                   r'cache=(\S+) allocs=(-?\d+) bulk_objects=(-?\d+)')
RCU = re.compile(r'rcuscale case=(\S+) (\d+) ns, loops: (\d+), batches: (\d+), '
                 r'memory footprint: (-?\d+)MB')
RCU_SLAB = re.compile(r'rcuscale_slab case=(\S+) objects=(\d+) free_slowpath=(-?\d+) '
                      r'free_fastpath=(-?\d+)')


# The guest's markers around each suite and rcuscale case (scripts/guest-init).
PART = re.compile(r'^==== slab_bulk: (bench|rcuscale) (\S+) (begin|end rc=(\d+))$', re.M)
# A suite the machine cannot run (bench_skip()) loads and prints no rows.
SKIP = re.compile(r'bench suite=(\S+): skip: ([^\n]*)')


def failed_parts(text, expected=()):
    """The suites and rcuscale cases of a console that ended with a non-zero
    status, or began and never ended (the guest died or timed out), and
    those of @expected ("bench SUITE", "rcuscale CASE") that never began,
    and the suites that skipped: each a "bench SUITE rc=N", "bench SUITE:
    no end", "bench SUITE: never began" or "bench SUITE skipped: REASON"."""
    failed, open_parts, seen = [], [], set()
    # The module loads (rc=0), but the rows of a skipped suite are missing.
    failed += [f'bench {m.group(1)} skipped: {m.group(2).strip()}' for m in SKIP.finditer(text)]
    for m in PART.finditer(text):
        seen.add(f'{m.group(1)} {m.group(2)}')
        name = f'{m.group(1)} {m.group(2)}'
        if m.group(3) == 'begin':
            open_parts.append(name)
            continue
        if name in open_parts:
            open_parts.remove(name)
        if m.group(4) != '0':
            failed.append(f'{name} rc={m.group(4)}')
    return (failed + [f'{name}: no end' for name in open_parts]
            + [f'{name}: never began' for name in expected if name not in seen])


def per_obj(count, objs):
    return None if count < 0 or objs == 0 else count / objs


def add_costs(path, lines):
    """Adds the costmodel plugin's counts (PATH with .costmodel for .log)
    to the rows of @lines, (cost_seq, sections, row) of each result line
    in log order (row None for calib's empty section, whose counts are
    the overhead subtracted from every section). The kselftest's own
    lines (pktgen, traffic) have no cost_seq: the module did not time
    them. Rows stay as they are without a plugin log; a plugin log that
    does not pair fails."""
    plugin = path[:-len('.log')] + '.costmodel' if path.endswith('.log') else None
    if not plugin or not os.path.exists(plugin):
        return
    lines = [line for line in lines if line[0] is not None]
    try:
        reports = costmodel.pair([(seq, sec) for seq, sec, _ in lines],
                                 costmodel.read_plugin(plugin))
    except ValueError as e:
        raise SystemExit(f'{plugin}: {e}')
    base = dict.fromkeys(costmodel.COUNTS, 0.0)
    for (_, sections, row), rep in zip(lines, reports):
        if row is None:
            base = {k: rep[k] / sections for k in costmodel.COUNTS}
            continue
        objs = row.get('objs')
        row['cost'] = {k: rep[k] for k in ('sections',) + costmodel.COUNTS}
        row['cost_overhead'] = base
        if not objs:
            continue
        per = {k: (rep[k] - sections * base[k]) / objs for k in costmodel.COUNTS}
        row.update({f'{k}_per_obj': v for k, v in per.items() if k != 'insns'})
        row['cost_insn_per_obj'] = per['insns']
        row['cycles_per_obj'] = costmodel.modelled_cycles(per)


def parse_log(path, kernel):
    text = open(path, encoding='utf-8', errors='replace').read()
    rows, overhead, lines = [], None, []
    for m in LINE.finditer(text):
        suite, case, variant = m.group(1), m.group(2), m.group(3)
        n, objs, sections, cycles = (int(m.group(i)) for i in range(4, 8))
        fslow, ffast, aslow, afast = (int(m.group(i)) for i in range(8, 12))
        seq = None if m.group(12) is None else int(m.group(12))
        # The cost model's known answers (make check judges them) are not
        # timed with section_start(): no figure of theirs is one to report.
        if suite == 'costmodel':
            lines.append((seq, sections, {}))
            continue
        if suite == 'calib':
            if case == 'empty':
                if not sections:
                    raise SystemExit(f'{path}: calib\'s empty section kept no section: '
                                     'the cost to subtract is unknown')
                overhead = cycles / sections
                lines.append((seq, sections, None))
            else:
                rows.append({'kernel': kernel, 'suite': suite, 'case': case,
                             'variant': variant, 'n': n, 'objs': objs,
                             'insn_per_obj': ((cycles - sections * (overhead or 0)) / objs
                                              if objs else None),
                             'slowpath_per_obj': None})
                lines.append((seq, sections, rows[-1]))
            continue
        # Without calib's empty section every figure would carry its cost.
        if overhead is None:
            raise SystemExit(f'{path}: a {suite} result before calib\'s empty section: '
                             'its cost cannot be subtracted (run the calib suite first)')
        slow = aslow if suite == 'slab_alloc' else fslow
        extra = {k: int(v) for k, v in COUNTER.findall(m.group(13))}
        rows.append({
            'kernel': kernel, 'suite': suite, 'case': case, 'variant': variant,
            'n': n, 'objs': objs,
            # Every section of a case can have been ticked: nothing timed.
            'insn_per_obj': (cycles - sections * overhead) / objs if objs else None,
            'slowpath_per_obj': per_obj(slow, objs),
            'free_slowpath_per_obj': per_obj(fslow, objs),
            'free_fastpath_per_obj': per_obj(ffast, objs),
            'alloc_slowpath_per_obj': per_obj(aslow, objs),
            'alloc_fastpath_per_obj': per_obj(afast, objs),
            **{f'{c}_per_obj': per_obj(extra[c], objs) for c in SHEAF_COUNTERS if c in extra},
        })
        lines.append((seq, sections, rows[-1]))
    add_costs(path, lines)
    for m in SHARE.finditer(text):
        allocs, bulk = int(m.group(4)), int(m.group(5))
        rows.append({'kernel': kernel, 'suite': 'traffic_share', 'case': m.group(1),
                     'variant': m.group(2), 'n': m.group(3), 'insn_per_obj': None,
                     'allocs': allocs, 'bulk_objects': bulk,
                     'bulk_share': bulk / allocs if bulk >= 0 and allocs > 0 else None})
    slab = {m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4)))
            for m in RCU_SLAB.finditer(text)}
    for m in RCU.finditer(text):
        objs, slow, fast = slab.get(m.group(1), (0, -1, -1))
        rows.append({'kernel': kernel, 'suite': 'kfree_rcu', 'case': m.group(1),
                     'variant': 'rcuscale', 'n': None, 'insn_per_obj': None,
                     'slowpath_per_obj': per_obj(slow, objs),
                     'fastpath_per_obj': per_obj(fast, objs), 'time_ns': int(m.group(2)),
                     'loops': int(m.group(3)), 'batches': int(m.group(4)),
                     'footprint_mb': int(m.group(5))})
    return rows, overhead or 0.0


def key(r):
    return (r['kernel'], r['suite'], r['case'], r['variant'], r['n'])


def fmt(x, digits=1):
    return '-' if x is None else f'{x:.{digits}f}'


class Report:
    def __init__(self, records):
        self.by_key = {key(r): r for r in records}
        self.lines = []

    def get(self, kernel, suite, case, variant, n, field='insn_per_obj'):
        r = self.by_key.get((kernel, suite, case, variant, n))
        return None if r is None else r.get(field)

    def table(self, title, header, rows):
        self.lines += ['', f'### {title}', '', '| ' + ' | '.join(header) + ' |',
                       '|' + '---|' * len(header)]
        self.lines += ['| ' + ' | '.join(str(c) for c in row) + ' |' for row in rows]

    def loop_bulk_table(self, title, suite, cases_ns):
        rows = []
        for case, n in cases_ns:
            v = {(k, var): self.get(k, suite, case, var, n)
                 for k in ('base', 'series') for var in ('loop', 'bulk')}
            s = {k: self.get(k, suite, case, 'bulk', n, 'slowpath_per_obj')
                 for k in ('base', 'series')}
            sl = self.get('base', suite, case, 'loop', n, 'slowpath_per_obj')
            ratio = (v[('series', 'bulk')] / v[('base', 'bulk')]
                     if v[('series', 'bulk')] and v[('base', 'bulk')] else None)
            rows.append([case, n, fmt(v[('base', 'loop')]), fmt(v[('base', 'bulk')]),
                         fmt(v[('series', 'loop')]), fmt(v[('series', 'bulk')]),
                         fmt(ratio, 3), fmt(sl, 3), fmt(s['base'], 3), fmt(s['series'], 3)])
        self.table(title, ['case', 'n', 'base loop', 'base bulk', 'series loop',
                           'series bulk', 'series/base bulk', 'slow/obj loop',
                           'slow/obj base bulk', 'slow/obj series bulk'], rows)


PAGE_CASES = ('alloc', 'free', 'free_rand', 'total')


def page_table(rep, records):
    """Page allocator rows: loop and both kernels' bulk, and bulk / loop."""
    rows = []
    for n in sorted({r['n'] for r in records if r['suite'] == 'page' and r['case'] != 'vfree'}):
        loop = {c: rep.get('series', 'page', c, 'loop', n) for c in PAGE_CASES}
        bulk = {(k, c): rep.get(k, 'page', c, 'bulk', n)
                for k in ('base', 'series') for c in PAGE_CASES}
        ratio = {c: bulk[('series', c)] / loop[c] if bulk[('series', c)] and loop[c] else None
                 for c in PAGE_CASES}
        rows.append([n] + [fmt(loop[c]) for c in PAGE_CASES]
                    + [fmt(bulk[(k, c)]) for k in ('base', 'series') for c in PAGE_CASES]
                    + [fmt(ratio[c], 2) for c in PAGE_CASES])
    rep.table('page: instructions per page, loop (alloc_page() / __free_page(), series kernel) '
              'vs bulk (the calls of each kernel\'s pages_free(): on 6.12 alloc_pages_bulk_array() / '
              'release_pages() in base, alloc_pages_bulk() / free_pages_bulk() in series; on '
              'mainline alloc_pages_bulk() / free_pages_bulk() in both); free_rand frees the pages '
              'shuffled',
              ['batch'] + [f'loop {c}' for c in PAGE_CASES]
              + [f'{k} bulk {c}' for k in ('base', 'series') for c in PAGE_CASES]
              + [f'{c} bulk/loop' for c in PAGE_CASES], rows)
    vrows = []
    for n in sorted({r['n'] for r in records if r['suite'] == 'page' and r['case'] == 'vfree'}):
        b, s = (rep.get(k, 'page', 'vfree', 'call', n) for k in ('base', 'series'))
        vrows.append([n, fmt(b), fmt(s), fmt(s / b if b and s else None, 3)])
    if vrows:
        rep.table('vfree(): instructions per page of vfree() of an n-page vmalloc() area',
                  ['pages', 'base', 'series', 'series/base'], vrows)


def rcu_table(rep, runs):
    """rcuscale rows: each run's time, the mean and median, the spread."""
    by = {}
    for rnum in sorted(runs):
        for r in runs[rnum]:
            if r['suite'] == 'kfree_rcu':
                by.setdefault((r['case'], r['kernel']), []).append(r)
    mean = {k: sum(r['time_ns'] for r in v) / len(v) for k, v in by.items()}
    median = {k: statistics.median(r['time_ns'] for r in v) for k, v in by.items()}
    rows, spread = [], 0
    for case, kernel in sorted(by):
        rs = by[(case, kernel)]
        spread = max(spread, max(r['time_ns'] for r in rs) - min(r['time_ns'] for r in rs))
        base = mean.get((case, 'base'))
        mbase = median.get((case, 'base'))
        times = [r['time_ns'] for r in rs]
        rows.append([case, kernel, ' / '.join(f'{t / 1e6:.1f}' for t in times),
                     f'{mean[(case, kernel)] / 1e6:.1f}',
                     fmt(mean[(case, kernel)] / base if base else None, 3),
                     f'{median[(case, kernel)] / 1e6:.1f}',
                     fmt(median[(case, kernel)] / mbase if mbase else None, 3),
                     f'{(max(times) - min(times)) / 1e6:.1f}',
                     ' / '.join(str(r['batches']) for r in rs),
                     ' / '.join(str(r['footprint_mb']) for r in rs),
                     fmt(rs[0].get('slowpath_per_obj'), 3), fmt(rs[0].get('fastpath_per_obj'), 3)])
    rep.table('kfree_rcu: rcuscale kfree_rcu_test (virtual time under -icount; "vary" is '
              'kfree_vary_obj_size=1, six kmalloc caches in turn; call_rcu is '
              'kfree_by_call_rcu=1, call_rcu() and kfree() per object; per-run values '
              'separated by "/"; slow/fast are the kmalloc caches\' SLUB_STATS free paths per '
              'object in run 1, drain included)',
              ['case', 'kernel', 'time ms', 'mean ms', 'mean / base mean', 'median ms',
               'median / base median', 'spread ms', 'batches',
               'footprint MB', 'slow/obj', 'fast/obj'], rows)
    # Under -icount the runs repeat; when they do not (a drain ran at
    # another time), two runs cannot say which is typical.
    if rows and spread and len(runs) < 3:
        rep.lines += ['', f'rcuscale: only {len(runs)} seeds per kernel and they differ, '
                      'so a median needs BENCH_LAYOUTS=3 or more.']


def traffic_cost(r, rows):
    """(instructions, modelled cycles) per object of traffic row @r as the
    costmodel plugin counted them on every vCPU, or None: a per-byte row
    takes the counts of its stream's packet row, whose section it shares
    (@rows: the rows of the same run)."""
    src = r
    if 'cost' not in r and r['case'].endswith('_byte'):
        src = next((o for o in rows if o['suite'] == 'traffic' and o['kernel'] == r['kernel']
                    and o['variant'] == r['variant'] and o['case'] == r['case'][:-5]), {})
    if 'cost' not in src or not r.get('objs'):
        return None
    per = {k: (src['cost'][k] - src['cost']['sections'] * src['cost_overhead'][k]) / r['objs']
           for k in costmodel.COUNTS}
    return per['insns'], costmodel.modelled_cycles(per)


def traffic_table(rep, runs):
    """The traffic suite: a row per NIC and stream, each run and the medians
    of base and series. The streams do not repeat to the instruction under
    -icount (the NICs' emulation runs beside the vCPUs), so the medians of
    several runs are compared, as rcuscale's times are. With the costmodel
    plugin's counts, the instructions are those it counted on every vCPU
    between the stream's marks, and modelled cycles are given too; without,
    the CPU time the kselftest measured (instructions on one CPU)."""
    by, costed = {}, False
    for rnum in sorted(runs):
        for r in runs[rnum]:
            if r['suite'] != 'traffic':
                continue
            cost = traffic_cost(r, runs[rnum])
            costed |= cost is not None
            by.setdefault((r['variant'], r['case'], r['kernel']), []).append(
                cost or (r['insn_per_obj'], None))
    rows = []
    for variant, case in sorted({(v, c) for v, c, _ in by}):
        digits = 2 if case.endswith('_byte') else 1
        row = [variant, case]
        for col in ((0, 1) if costed else (0,)):
            v = {k: [x[col] for x in by.get((variant, case, k), []) if x[col] is not None]
                 for k in ('base', 'series')}
            mb = statistics.median(v['base']) if v['base'] else None
            ms = statistics.median(v['series']) if v['series'] else None
            row += [' / '.join(fmt(x, digits) for x in v['base']),
                    ' / '.join(fmt(x, digits) for x in v['series']), fmt(mb, digits),
                    fmt(ms, digits), fmt(ms / mb if mb and ms else None, 3)]
        rows.append(row)
    if rows:
        what = ('guest instructions the costmodel plugin counted on every vCPU between the '
                'stream\'s marks, and modelled cycles,' if costed else
                'guest instructions the CPU worked (idle time left out)')
        heads = ['base runs', 'series runs', 'base median', 'series median',
                 'series/base (medians)']
        rep.table('traffic: TCP and UDP streams between two NICs of one guest (the kselftest\'s '
                  f'slab_bulk_traffic): {what} per '
                  'packet the sender sent (TCP segment, UDP datagram), per byte in the _byte rows; '
                  'sender and receiver together. tcp: 64 KB writes; tcp_rec: 1448-byte writes with '
                  'MSG_EOR, an skb each. Per run (separated by "/") and the medians; the streams '
                  'vary between runs, so they are left out of the repeatability check',
                  ['NIC', 'stream'] + [f'{h}{" (cycles)" if i else ""}'
                                       for i in ((0, 1) if costed else (0,)) for h in heads],
                  rows)
    if rows and len(runs) < 3:
        rep.lines += ['', f'traffic: only {len(runs)} seeds per kernel; a median needs BENCH_LAYOUTS=3 '
                      'or more.']


def share_table(rep, runs):
    """The traffic suite's breakdown: for each stream and cache, the share of
    the objects allocated that bulk frees gave back in groups, per run, and
    the counts of the first run."""
    by = {}
    for rnum in sorted(runs):
        for r in runs[rnum]:
            if r['suite'] == 'traffic_share':
                by.setdefault((r['variant'], r['case'], r['n'], r['kernel']), []).append(r)
    rows = []
    for variant, case, cache in sorted({k[:3] for k in by}):
        cells = []
        for kernel in ('base', 'series'):
            rs = by.get((variant, case, cache, kernel), [])
            first = rs[0] if rs else {}
            counts = [first.get(k, -1) for k in ('bulk_objects', 'allocs')]
            cells += [' / '.join(fmt(r['bulk_share'], 3) for r in rs) or '-',
                      ' of '.join(str(c) if c >= 0 else '-' for c in counts)]
        rows.append([variant, case, cache] + cells)
    if rows:
        rep.table('traffic breakdown: share of the objects each stream allocated that bulk '
                  'frees gave back to the slab allocator in groups (SLUB_STATS '
                  'free_bulk_objects / (alloc_fastpath + alloc_slowpath), both counted over the '
                  'stream, whatever else ran then; per run; "-" where the kernel cannot count it '
                  '(no such counter, or other caches merged into this one) or the stream '
                  'allocated none); "kmalloc" sums the kmalloc caches (data '
                  'heads and everything else that ran). Objects the NAPI skb cache takes '
                  'back never reach the slab allocator and count as not given back in bulk',
                  ['NIC', 'stream', 'cache', 'base share', 'base bulk of allocated (run 1)',
                   'series share', 'series bulk of allocated (run 1)'], rows)


COST_FIELDS = (('cost_insn_per_obj', 'insn'), ('atomics_per_obj', 'atomics'),
               ('l1d_miss_per_obj', 'L1D miss'), ('l2_miss_per_obj', 'L2 miss'),
               ('xfer_per_obj', 'xfer'), ('cycles_per_obj', 'cycles'))


def kernels_of(records):
    """base and series, and alt where BENCH_ALT built a third kernel."""
    return ('base', 'series') + (('alt',) if any(r['kernel'] == 'alt' for r in records)
                                 else ())


def cost_table(rep, records):
    """Every row the costmodel plugin counted: per object, in each kernel,
    the instructions, atomics, L1D and L2 misses, cross-CPU transfers and
    the modelled cycles they add up to, and series / base of both (and
    series / alt, with a third kernel)."""
    keys = sorted({key(r)[1:] for r in records if 'cost' in r},
                  key=lambda k: (k[0], k[1], k[2], k[3] or 0))
    kernels = kernels_of(records)
    rows = []
    for suite, case, variant, n in keys:
        cells, v = [], {}
        for k in kernels:
            for field, _ in COST_FIELDS:
                v[(k, field)] = rep.get(k, suite, case, variant, n, field)
                cells.append(fmt(v[(k, field)], 2 if field != 'cost_insn_per_obj' else 1))
        ratio = [fmt(v[('series', f)] / v[('base', f)]
                     if v[('series', f)] and v[('base', f)] else None, 3)
                 for f in ('cost_insn_per_obj', 'cycles_per_obj')]
        # A bulk row against the loop of the same case in the same kernel:
        # what the bulk call saves over the simplest alternative.
        for f in ('cost_insn_per_obj', 'cycles_per_obj'):
            loop = rep.get('series', suite, case, 'loop', n, f) if variant == 'bulk' else None
            ratio.append(fmt(v[('series', f)] / loop if loop and v[('series', f)] else None, 3))
        if 'alt' in kernels:
            ratio += [fmt(v[('series', f)] / v[('alt', f)]
                          if v[('series', f)] and v[('alt', f)] else None, 3)
                      for f in ('cost_insn_per_obj', 'cycles_per_obj')]
        rows.append([suite, case, variant, n] + cells + ratio)
    if rows:
        rep.table('cost model: per object, guest instructions, atomic read-modify-writes, '
                  'misses of the simulated L1D and L2, lines moved from the other CPU, and '
                  f'modelled cycles = {costmodel.WEIGHTS_SOURCE}; counted by the costmodel '
                  'plugin inside the timed sections, less an empty section\'s counts',
                  ['suite', 'case', 'variant', 'n']
                  + [f'{k} {name}' for k in kernels for _, name in COST_FIELDS]
                  + ['series/base insn', 'series/base cycles', 'series bulk/loop insn',
                     'series bulk/loop cycles']
                  + (['series/alt insn', 'series/alt cycles'] if 'alt' in kernels else []),
                  rows)


def sheaf_table(rep, records):
    """Per object, the sheaves each row's frees allocated and freed, put in
    the barn or could not, and flushed to the slabs: the memory a bulk free
    takes against a loop's (rows of kernels that print the counters, with
    SLUB_STATS on)."""
    keys = sorted({key(r)[1:] for r in records
                   if any(r.get(f'{c}_per_obj') is not None for c in SHEAF_COUNTERS)},
                  key=lambda k: (k[0], k[1], k[2], k[3] or 0))
    kernels = kernels_of(records)
    rows = [[suite, case, variant, n]
            + [fmt(rep.get(k, suite, case, variant, n, f'{c}_per_obj'), 4)
               for k in kernels for c in SHEAF_COUNTERS]
            for suite, case, variant, n in keys]
    if rows:
        rep.table('sheaves: SLUB_STATS sheaf counters of the case\'s caches, per object',
                  ['suite', 'case', 'variant', 'n']
                  + [f'{k} {c}' for k in kernels for c in SHEAF_COUNTERS], rows)


def present(records, suite, case=None):
    return sorted({(r['case'], r['n']) for r in records
                   if r['suite'] == suite and (case is None or r['case'] == case)},
                  key=lambda cn: (cn[0], cn[1] or 0))


# A boot repeats to the instruction under -icount (every two-run record
# since 2026-11-26: 0.000 %): a second boot of one kernel and seed
# (BENCH_REPEAT=1) that differs by more than this, in instructions or
# modelled cycles, means something else ran inside a timed section, and
# the report fails. It is half the bound of the single-object gates.
RUN_TOLERANCE_PCT = 0.5


def repeat_agreement(first, repeats):
    """Largest relative difference, in instructions or modelled cycles,
    between a repeated boot's rows and the first boot of the same kernel
    and seed (@repeats: [(kernel, seed, rows)]), where, how many figures
    were compared, and the rows of the first boot a repeat lacks. The
    traffic suite's streams do not repeat (traffic_table())."""
    worst, where, compared, missing = 0.0, None, 0, []
    by = {(r['layout'],) + key(r): r for r in first}
    for kernel, seed, rows in repeats:
        present = {(seed,) + key(r) for r in rows}
        missing += [f'{kernel} seed {seed}: {"/".join(str(x) for x in k[2:])}'
                    for k, r in by.items() if k[0] == seed and k[1] == kernel
                    and r.get('insn_per_obj') and r['suite'] != 'traffic' and k not in present]
        for r in rows:
            a = by.get((seed,) + key(r))
            if not a or r['suite'] == 'traffic':
                continue
            for field in ('insn_per_obj', 'cycles_per_obj'):
                if not a.get(field) or r.get(field) is None:
                    continue
                d = abs(r[field] - a[field]) / a[field]
                compared += 1
                if d > worst:
                    worst, where = d, key(r) + (field,)
    return worst * 100, where, compared, missing


# Suites whose rows the module times in marked sections, so that the
# costmodel plugin counts them; the kselftest's (pktgen, traffic) and
# rcuscale's rows come without.
UNCOSTED = ('traffic', 'traffic_share', 'pktgen', 'kfree_rcu', 'calib')


def uncosted(rows):
    """The rows with a figure that lack the costmodel plugin's counts."""
    return [r for r in rows if r['suite'] not in UNCOSTED and r.get('objs')
            and r.get('cycles_per_obj') is None]


LAYOUT_LINE = re.compile(r'bench layout=(\d+): holding')


def layout_problems(text, seed, module_suites):
    """What says a console did not start from seed @seed's layout: the
    module printed another seed, or (when it ran suites of its own) none."""
    seen = {int(m.group(1)) for m in LAYOUT_LINE.finditer(text)}
    if seen - {seed}:
        return [f'the module started from layout {sorted(seen - {seed})}, not {seed}']
    if module_suites and seed and not seen:
        return [f'no "bench layout={seed}" line: the suites did not start from the seed\'s layout']
    return []


NUMERIC = (int, float)


def median_records(records):
    """One record a row and kernel: the median over the seeds of every
    number it holds (those of its plugin counts too), for the tables that
    give each kernel's figures; the ratios are layouts_table()'s."""
    by = {}
    for r in records:
        by.setdefault(key(r), []).append(r)
    out = []
    for rs in by.values():
        m = {}
        for r in rs:
            m.update({k: v for k, v in r.items() if k not in m or m[k] is None})
        for field in list(m):
            if field in ('n', 'layout') or isinstance(m[field], bool):
                continue
            xs = [r[field] for r in rs if isinstance(r.get(field), NUMERIC)
                  and not isinstance(r.get(field), bool)]
            ds = [r[field] for r in rs if isinstance(r.get(field), dict)]
            if xs:
                m[field] = statistics.median(xs)
            elif ds:
                m[field] = {k: statistics.median(d[k] for d in ds if k in d) for k in ds[0]}
        out.append(m)
    return out


def gates_table(rep, path, lines, unchecked):
    """Each gate check: pass or FAIL, the row, its interval and bound."""
    rep.table(f'gates ({os.path.basename(path)}): the upper end of each row\'s 95 % interval '
              'against its bound (single: a one-object path the series must not slow; win: a '
              'gain a cover letter claims; miss: a loss one admits, which must not grow)',
              ['result', 'gate'], [[r, t] for r, t in lines])
    if unchecked:
        rep.lines += ['', 'Gates not checked, their suite did not run: ' + ', '.join(unchecked)]


def layouts_table(rep, samples):
    """Every row: series/base (and series/alt) and the series' bulk/loop,
    in instructions and modelled cycles, as median [95 % interval] over
    the seeds with the decision rule's word."""
    kernels = samples.kernels()
    ratios = ['series/base'] + (['series/alt'] if 'alt' in kernels else []) + ['bulk/loop']
    rows = []
    for row in samples.rows('series'):
        cells = []
        for ratio in ratios:
            for m, _ in layouts.MEASURES:
                iv = layouts.interval(samples.ratios(ratio, row, m))
                cells.append('-' if iv['median'] is None
                             else f'{layouts.fmt_iv(iv)} {layouts.word(iv)}')
        if any(c != '-' for c in cells):
            rows.append(list(row) + cells)
    if rows:
        rep.table(f'layouts: per row, median [95 % interval] over {len(samples.seeds)} seeds of '
                  'the paired ratios (an exact rank interval for the median), and the decision '
                  'rule\'s word; bulk/loop is the series kernel\'s bulk variant against its loop '
                  '(kfree_skb_bulk against consume_loop, waitlist against napi_consume)',
                  ['suite', 'case', 'variant', 'n']
                  + [f'{r} {m}' for r in ratios for m, _ in layouts.MEASURES], rows)


# The one real-hardware reference for the slab rows: the 2015 posting of
# the detached-freelist free ("[MM PATCH V4 6/6] slub: optimize bulk
# slowpath free by detached freelist", linux-mm, 29 Sep 2015; the table
# is also in commit d0ecd894e3d5), slab_bulk_test01 on an i7-4790K: n
# 256-byte objects allocated and freed on one CPU in allocation order,
# cycles an object for an allocation and a free, {n: (loop, bulk)}.
POSTING_2015 = {1: (62, 49), 2: (55, 30), 3: (53, 23), 4: (52, 20), 8: (50, 18),
                16: (49, 17), 30: (49, 18), 32: (50, 18), 34: (96, 23), 48: (83, 21),
                64: (74, 20), 128: (90, 27), 158: (99, 30), 250: (104, 37)}


def posting_table(rep, samples):
    """The model's bulk/loop of an allocation and a free in allocation
    order (slab_alloc seq plus slab_free seq), each kernel, median [95 %
    interval] over the seeds, beside the 2015 posting's measured one."""
    rows = []
    for n, (loop, bulk) in sorted(POSTING_2015.items()):
        cells = []
        for kernel in ('base', 'series'):
            for m, _ in layouts.MEASURES:
                v = {variant: [samples.values(kernel, (suite, 'seq', variant, n), m)
                               for suite in ('slab_alloc', 'slab_free')]
                     for variant in ('bulk', 'loop')}
                seeds = set.intersection(*(set(d) for d in v['bulk'] + v['loop']))
                iv = layouts.interval([sum(d[s] for d in v['bulk']) /
                                       sum(d[s] for d in v['loop']) for s in sorted(seeds)])
                cells.append('-' if iv['median'] is None else layouts.fmt_iv(iv))
        if any(c != '-' for c in cells):
            rows.append([n] + cells + [f'{bulk / loop:.3f}'])
    if rows:
        rep.table('against the 2015 posting: bulk/loop of kmem_cache_alloc_bulk() and '
                  'kmem_cache_free_bulk() in allocation order on one CPU (slab_alloc seq + '
                  'slab_free seq), median [95 % interval] over the seeds, and the ratio the '
                  'detached-freelist posting measured on an i7-4790K (cycles, '
                  'slab_bulk_test01)',
                  ['n', 'base insn', 'base cycles', 'series insn', 'series cycles',
                   'posting, measured'], rows)


def spread_table(rep, samples):
    """How far each row moves across the seeds in each kernel: (max - min)
    / median of its figure, in instructions and modelled cycles."""
    kernels = samples.kernels()
    rows = []
    for row in samples.rows():
        cells = [fmt(None if v is None else 100 * v, 1) for k in kernels
                 for v in (samples.spread(k, row, m) for m, _ in layouts.MEASURES)]
        if any(c != '-' for c in cells):
            rows.append(list(row) + cells)
    if rows:
        rep.table('spread: how far each row\'s figure moves across the seeds, '
                  '(max - min) / median in %',
                  ['suite', 'case', 'variant', 'n']
                  + [f'{k} {m} %' for k in kernels for m, _ in layouts.MEASURES], rows)


def pyplot():
    """matplotlib.pyplot drawing to files, or None where it is missing."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def save_figure(plt, fig, out, name):
    """Writes @fig to @out/@name and closes it; returns @name."""
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=100)
    plt.close(fig)
    return name


def spread_plots(samples, out):
    """A plot a suite: each row's series/base of modelled cycles (of
    instructions where the plugin did not count) per seed, with its median
    and interval, so that a reader sees which rows are decided."""
    plt = pyplot()
    if plt is None:
        return []
    files = []
    for suite in sorted({row[0] for row in samples.rows('series')}):
        pts = []
        for row in (r for r in samples.rows('series') if r[0] == suite):
            for m in ('cycles', 'insn'):
                xs = samples.ratios('series/base', row, m)
                if xs:
                    pts.append(('/'.join(str(x) for x in row[1:]), m, xs))
                    break
        if not pts:
            continue
        fig, ax = plt.subplots(figsize=(8, 1.2 + 0.22 * len(pts)))
        for y, (name, m, xs) in enumerate(pts):
            iv = layouts.interval(xs)
            ax.plot(xs, [y] * len(xs), 'o', color='0.6', markersize=3)
            if iv['lo'] is not None:
                colour = ('g' if iv['hi'] < 1 else 'r' if iv['lo'] > 1 else 'b')
                ax.plot([iv['lo'], iv['hi']], [y, y], '-', color=colour, linewidth=2)
            ax.plot([iv['median']], [y], '|', color='k', markersize=10)
        ax.axvline(1.0, color='k', linewidth=0.8)
        ax.set_yticks(range(len(pts)))
        ax.set_yticklabels([f'{n} ({m})' for n, m, _ in pts], fontsize=6)
        ax.invert_yaxis()
        ax.set_xlabel('series / base, per seed (grey), median (|), 95 % interval '
                      '(green: faster, red: slower, blue: no difference shown)')
        ax.set_title(f'{suite}: series/base over {len(samples.seeds)} layout seeds')
        ax.grid(True, axis='x', alpha=0.3)
        files.append(save_figure(plt, fig, out, f'layouts_{suite}.png'))
    return files


def plot(records, out):
    plt = pyplot()
    if plt is None:
        return []
    files = []
    for case, title in (('seq', 'in allocation order'), ('ilv8', 'neighbours from 8 slabs')):
        fig, ax = plt.subplots(figsize=(7, 4))
        for k, var, style in (('base', 'loop', 'k--'), ('base', 'bulk', 'b-o'),
                              ('series', 'loop', 'g--'), ('series', 'bulk', 'r-s')):
            pts = sorted((r['n'], r['insn_per_obj']) for r in records
                         if r['suite'] == 'slab_free' and r['case'] == case
                         and r['kernel'] == k and r['variant'] == var)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=f'{k} {var}',
                        markersize=3)
        ax.set_xscale('log', base=2)
        ax.set_xlabel('bulk size (objects)')
        ax.set_ylabel('guest instructions per object')
        ax.set_title(f'kmem_cache_free: loop vs bulk, {title}')
        ax.legend()
        ax.grid(True, alpha=0.3)
        files.append(save_figure(plt, fig, out, f'slab_free_{case}.png'))
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--base-version', required=True)
    ap.add_argument('--config', required=True)
    ap.add_argument('--config-name', default='bench',
                    help='the configuration both kernels built, fragments joined by "+"')
    ap.add_argument('--guest', default='2 vCPUs, 2 GiB, 1 memory node')
    ap.add_argument('--parts', default='',
                    help='comma-separated "bench SUITE" and "rcuscale CASE" every console '
                    'must show ending with rc=0')
    ap.add_argument('--gates', help='the gates file (expect/BASE-bench) the figures must pass')
    ap.add_argument('--suites', default='',
                    help='comma-separated suites that ran: gates of other suites are not checked')
    ap.add_argument('logs', nargs='+', help='KERNEL:SEED=LOG, a console of one boot; a '
                    'second console of one KERNEL:SEED is a repeat, which must agree')
    a = ap.parse_args()

    runs, overheads, failures, repeats = {}, {}, [], []
    suites = [x for x in a.suites.split(',') if x]
    module_suites = [x for x in suites if x not in ('pktgen', 'traffic')]
    geometries = []  # the cache model each boot's plugin says it simulated (checked)
    for spec in a.logs:
        kr, path = spec.split('=', 1)
        kernel, seed = kr.split(':')
        seed = int(seed)
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        failures += [f'{kr} ({path}): {p}' for p in
                     failed_parts(text, [x for x in a.parts.split(',') if x])
                     + layout_problems(text, seed, module_suites)]
        if path.endswith('.log') and not os.path.exists(path[:-4] + '.costmodel'):
            failures.append(f'{kr} ({path}): no costmodel plugin counts beside it')
        elif path.endswith('.log'):
            g = costmodel.read_geometry(path[:-4] + '.costmodel')
            if g is None or {k: g[k] for k in costmodel.KNOWN_GEOMETRY} != costmodel.KNOWN_GEOMETRY:
                failures.append(f'{kr} ({path}): the plugin simulated '
                                f'{costmodel.describe(g) if g else "no stated cache"}, not the '
                                f'cache the weights and known answers assume '
                                f'({costmodel.describe(costmodel.KNOWN_GEOMETRY)})')
            else:
                geometries.append(g)
        rows, ovh = parse_log(path, kernel)
        for r in rows:
            r['layout'] = seed
        lacking = uncosted(rows)
        if lacking:
            failures.append(f'{kr} ({path}): {len(lacking)} rows without the plugin\'s counts, '
                            f'first {"/".join(str(x) for x in key(lacking[0])[1:])}')
        if any(r['kernel'] == kernel for r in runs.get(seed, [])):
            repeats.append((kernel, seed, rows))
            continue
        runs.setdefault(seed, []).extend(rows)
        overheads[kr] = ovh
    first = [r for n in sorted(runs) for r in runs[n]]
    if not first:
        raise SystemExit('no benchmark results in the logs')
    diff, where, compared, missing = repeat_agreement(first, repeats)
    samples = layouts.Samples(first)
    gone = layouts.missing_rows(samples)
    records = median_records(first)

    rep = Report(records)
    commits = {k: open(os.path.join(a.out, f'{k}.commit')).read().strip()
               for k in ('base', 'series', 'alt')
               if os.path.exists(os.path.join(a.out, f'{k}.commit'))}
    qemu = subprocess.run(['qemu-system-x86_64', '--version'], capture_output=True,
                          text=True).stdout.splitlines()[0]
    rep.lines += [
        '# slab-bulk benchmark report', '',
        f'- base: Debian {a.base_version}',
        f'- base kernel: {commits.get("base", "?")} (the series up to the "# bench-base" line '
        'of series)',
        f'- series kernel: {commits.get("series", "?")}',
    ] + ([f'- alt kernel: {commits["alt"]} (BENCH_ALT: the alternative the series is '
          'compared with)'] if 'alt' in commits else []) + [
        f'- host: {platform.machine()}, {os.cpu_count()} CPUs; {qemu}, machine '
        f'{os.environ.get("QEMU_MACHINE", "?")}, TCG, `-icount shift=0,sleep=off`, {a.guest}',
        '- kernel config: configs/base.config + ' +
        ' + '.join(f'configs/{f}.config' for f in a.config_name.split('+')) +
        ' (SLUB_STATS on, no debugging)',
        '- method: test_slab_bulk_bench (test_slab_bulk in the base) times each case with get_cycles(); under -icount shift=0 '
        'one TSC tick is one guest instruction. The cost of an empty timed section '
        f'({", ".join(f"{k} {v:.0f}" for k, v in sorted(overheads.items()))} instructions) is '
        'subtracted. Slow-path counts are SLUB_STATS counters read before and after each '
        'timed section. A section that a timer tick interrupted, in which the task was switched out, '
        'or (bottom halves off) in which a softirq ran that the case did not raise, is left out '
        '(the module counts them as "ticked"). '
        'The costmodel plugin (plugin/README.md) counts, in the same sections, atomics, misses of a '
        'simulated ' + (costmodel.describe(geometries[0]) + ', per vCPU,' if geometries
                        else 'cache (no plugin ran)') + ' and lines '
        'last written by the other vCPU; the cost model table gives them, and bench.json every raw count.',
        f'- layouts: {len(runs)} seeds a kernel ({", ".join(str(n) for n in sorted(runs))}); '
        'each boot\'s module first allocates kmalloc objects and pages the seed draws and '
        'frees a drawn half, its random orders come from the seed, and its suites run in an '
        'order the seed draws. The tables below give each kernel\'s median over the seeds; '
        'the layouts table gives each ratio as median [95 % interval], paired by seed '
        '(scripts/layouts.py says which interval and why), with the decision rule\'s word: '
        '"faster" or "slower" only where the interval excludes 1',
        '- repeats: ' + (f'{len(repeats)} boots of seed 1 again; largest difference '
                         f'{diff:.3f} %' + (f' ({where})' if where else '') +
                         f' in {compared} figures (tolerance {RUN_TOLERANCE_PCT} %)'
                         if repeats else 'none (BENCH_REPEAT=1 boots seed 1 twice)'),
    ]
    unmeasured = not_measured(runs)
    if unmeasured:
        rep.lines.append('- not measured (every timed section was left out, so the row has '
                         'no figure): ' + ', '.join(unmeasured))
    cal = [r for r in records if r['suite'] == 'calib' and r['insn_per_obj'] is not None]
    if cal:
        rep.lines.append('- calibration: a block of 1000 nops measures ' + ', '.join(
            f'{r["kernel"]} {r["insn_per_obj"] * 1000:.1f}' for r in cal) + ' instructions')
    rep.lines += ['', 'Cost per object in guest instructions; "slow/obj" is the number of '
                  'frees (allocations in the alloc table) that took the SLUB slow path, '
                  'per object.']

    rep.loop_bulk_table('slab_free: kmem_cache_free() loop vs kmem_cache_free_bulk(), '
                        'in allocation order (256-byte objects)', 'slab_free',
                        present(records, 'slab_free', 'seq'))
    rep.loop_bulk_table('slab_free: other orders (ilvK: neighbours from K slabs; rand: shuffled; '
                        'scat: drawn from a pool 16x the bulk; holes3, half: allocation order '
                        'with every third, or a random half, left out)',
                        'slab_free', [cn for cn in present(records, 'slab_free')
                                      if cn[0] != 'seq'])
    rep.loop_bulk_table('slab_alloc: kmem_cache_alloc() loop vs kmem_cache_alloc_bulk()',
                        'slab_alloc', present(records, 'slab_alloc'))
    rep.loop_bulk_table('kfree_bulk: kfree() loop vs kfree_bulk(), six kmalloc sizes in turn',
                        'kfree_bulk', present(records, 'kfree_bulk'))
    rep.loop_bulk_table('kmalloc: 128 x kmalloc() then kfree() loop vs kfree_bulk(), '
                        'by object size', 'kmalloc',
                        sorted(present(records, 'kmalloc'), key=lambda cn: int(cn[0])))
    page_table(rep, records)
    skb_variants = ('consume_loop', 'napi_consume', 'kfree_skb_list', 'kfree_skb_bulk',
                    'waitlist')
    srow = []
    for n in sorted({r['n'] for r in records if r['suite'] == 'skb_free'}):
        v = {(k, var): rep.get(k, 'skb_free', 'tx', var, n)
             for k in ('base', 'series') for var in skb_variants}
        loop, napi = v[('series', 'consume_loop')], v[('series', 'napi_consume')]
        bulk, wl = v[('series', 'kfree_skb_bulk')], v[('series', 'waitlist')]
        srow.append([n] + [fmt(v[(k, var)]) for k in ('base', 'series') for var in skb_variants
                           if k == 'series' or var in skb_variants[:3]] +
                    [fmt(bulk / loop if bulk and loop else None, 3),
                     fmt(wl / napi if wl and napi else None, 3)])
    if srow:
        rep.table('skb_free: instructions per skb at TX completion (bottom halves off, as in '
                  'NAPI; 64-byte skbs with a kmalloc()ed head)',
                  ['n'] + [f'base {var}' for var in skb_variants[:3]] +
                  [f'series {var}' for var in skb_variants] +
                  ['kfree_skb_bulk / consume_loop', 'waitlist / napi_consume'], srow)
    pgrow = []
    for case in ('fresh', 'shared'):
        b, se = (rep.get(k, 'pktgen', case, 'e1000e', 1) for k in ('base', 'series'))
        if b is None and se is None:
            continue
        pgrow.append([case, fmt(b), fmt(se), fmt(se / b if b and se else None, 3),
                     fmt(1e6 / b if b else None, 1), fmt(1e6 / se if se else None, 1)])
    if pgrow:
        rep.table('pktgen through e1000e: guest instructions per packet of the whole TX path '
                  '(pktgen, stack, driver, TX completion); kpps are TCG virtual-time figures '
                  '(1 instruction = 1 ns under -icount shift=0), not hardware rates',
                  ['skbs', 'base insn/pkt', 'series insn/pkt', 'series/base',
                   'base kpps (TCG virtual)', 'series kpps (TCG virtual)'], pgrow)
    cost_table(rep, records)
    sheaf_table(rep, records)
    traffic_table(rep, runs)
    share_table(rep, runs)
    rcu_table(rep, runs)
    images = plot(records, a.out)

    gate_problems, gate_lines, unchecked = [], [], []
    if a.gates:
        try:
            gates = layouts.read_gates(a.gates)
        except (OSError, ValueError) as e:
            raise SystemExit(f'error: {e}')
        gate_problems, gate_lines, unchecked = layouts.check_gates(samples, gates, suites)
        gates_table(rep, a.gates, gate_lines, unchecked)
    layouts_table(rep, samples)
    posting_table(rep, samples)
    spread_table(rep, samples)
    images += spread_plots(samples, a.out)
    rep.lines += [''] + [f'![{i}]({i})' for i in images]

    with open(os.path.join(a.out, 'bench.json'), 'w') as f:
        json.dump({'base_version': a.base_version, 'layouts': sorted(runs),
                   'max_repeat_diff_pct': diff, 'run_tolerance_pct': RUN_TOLERANCE_PCT,
                   'records': first + [dict(r, repeat=True) for _, _, rows in repeats
                                       for r in rows]},
                  f, separators=(',', ':'))
    with open(os.path.join(a.out, 'report.md'), 'w') as f:
        f.write('\n'.join(rep.lines) + '\n')
    print('\n'.join(rep.lines))
    print(f'\nwrote {a.out}/bench.json, {a.out}/report.md' +
          ''.join(f', {a.out}/{i}' for i in images))
    problems = []
    # A suite that failed leaves rows out: the report above is incomplete.
    if failures:
        problems.append('benchmark parts failed or were not counted: ' + '; '.join(failures))
    if gone:
        problems.append(f'{len(gone)} rows lack a figure in some seed: ' + '; '.join(gone[:5])
                        + ('; ...' if len(gone) > 5 else ''))
    timed = {r['suite'] for r in first if layouts.value(r, 'insn') is not None}
    idle = [x for x in suites if x not in timed and x != 'calib']
    if idle:
        problems.append('suites that timed nothing: ' + ', '.join(idle))
    if missing:
        problems.append(f'{len(missing)} rows of a boot are missing from its repeat: '
                        + '; '.join(missing[:5]))
    if diff > RUN_TOLERANCE_PCT:
        problems.append(f'a repeated boot differs by {diff:.3f} % at {where}, more than '
                        f'{RUN_TOLERANCE_PCT} %: these numbers are not repeatable')
    problems += gate_problems
    print(verdict_line(len(runs), len(samples.rows()), len(gate_lines), problems,
                       len(not_measured(runs)), len(unchecked)))
    if problems:
        raise SystemExit('error: ' + '; '.join(problems))


def not_measured(runs):
    """The rows, as "kernel seed N: suite/case/variant/n", whose every timed
    section was left out: they have no figure. Under -icount a tick lands
    at the same instruction whenever a seed is booted again, so the report
    names them, and the row fails as one without a figure in that seed
    (layouts.missing_rows()): BENCH_ARGS=bench_objs=N gives it more
    sections."""
    return [f'{r["kernel"]} seed {r["layout"]}: {r["suite"]}/{r["case"]}/{r["variant"]}/{r["n"]}'
            for n in sorted(runs) for r in runs[n]
            if r['suite'] not in ('traffic', 'pktgen', 'rcuscale') and r.get('objs') == 0]


def verdict_line(nseeds, nrows, ngates, problems, unmeasured=0, unchecked=0):
    """The last line: PASS or FAIL, the seeds, the rows and the gates
    judged and not checked, how many rows have no figure somewhere, and
    every problem."""
    what = f'{nseeds} layout seed{"s" if nseeds != 1 else ""} a kernel, {nrows} rows, {ngates} gate checks'
    if unchecked:
        what += f', {unchecked} gates not checked (their suite did not run)'
    if unmeasured:
        what += f'; {unmeasured} rows not measured (report.md names them)'
    return f'bench: {"FAIL" if problems else "PASS"}: {what}' + ''.join(
        f'; {p}' for p in problems)


if __name__ == '__main__':
    main()
