#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host side of the cost model: the costmodel plugin's reports, paired
with the benchmark's result lines; the known answers the plugin must give
for the benchmark's costmodel suite; and modelled cycles.

Usage: costmodel.py CONSOLE_LOG PLUGIN_LOG   checks the known answers of a
boot that ran the costmodel suite under the plugin, prints one line a
check and "costmodel: N passed, N failed"; exits 1 if one failed.
"""
import re
import sys

# What the plugin prints: one "begin" a load of the benchmark module, then
# one report a result line, numbered from 0 (seq) as the module numbers
# its lines (cost_seq).
REPORT = re.compile(r'^costmodel: seq=(\d+) sections=(\d+) unbalanced=(\d+) insns=(\d+) '
                    r'mem=(\d+) io=(\d+) atomics=(\d+) l1d_miss=(\d+) l2_miss=(\d+) '
                    r'xfer=(\d+)$')
BEGIN = 'costmodel: begin'
# The plugin's first line: the cache model it simulates.
GEOMETRY = re.compile(r'^costmodel: l1d (\d+) B (\d+)-way, l2 (\d+) B (\d+)-way, '
                      r'(\d+)-byte lines, (\w+), (\d+) vCPUs$')
# The geometry the known answers below follow from (the walks' sizes).
KNOWN_GEOMETRY = {'l1d': 32768, 'l1d_ways': 8, 'l2': 1048576, 'l2_ways': 16, 'line': 64,
                  'policy': 'LRU'}
COUNTS = ('insns', 'mem', 'io', 'atomics', 'l1d_miss', 'l2_miss', 'xfer')
# A benchmark result line as the module printed it (the kselftest prints
# them again, without the module's name), as far as pairing needs it.
RESULT = re.compile(r'test_slab_bulk(?:_bench)?: bench suite=(\S+) case=(\S+) variant=(\S+) n=(\d+) objs=(\d+) '
                    r'sections=(\d+) .* cost_seq=(\d+)')

# Modelled cycles: one a guest instruction, plus these for each event,
# latencies of a Skylake server core (whose L1D and L2 the plugin's
# default geometry is: 32 KiB 8-way, 1 MiB 16-way). An L1D miss that hits
# L2 costs an L2 hit, 14 cycles (Intel's optimization manual for Skylake
# server; AnandTech measured 11-13); an L2 miss costs the rest of an L3
# hit, 77 - 14 = 63 (AnandTech's Skylake-SP review: L3 77 cycles); a
# locked read-modify-write about 20 (Agner Fog's instruction tables:
# LOCK ADD, XCHG with memory, CMPXCHG16B, 18-25 on Skylake); a line that
# the other core wrote about 100 (Intel's Memory Latency Checker: 40-42 ns
# for a modified line between two cores of one Broadwell-EP socket, 80-125
# cycles at 2-3 GHz). bench.json keeps the raw counts, so other weights
# can be applied to the same run.
WEIGHTS = {'atomics': 20, 'l1d_miss': 14, 'l2_miss': 63, 'xfer': 100}
WEIGHTS_SOURCE = ('instructions + 20 x atomics + 14 x L1D misses + 63 x L2 misses '
                  '+ 100 x cross-CPU transfers (Skylake server latencies: L2 hit 14, '
                  'L3 hit 77, locked RMW about 20, modified line from another core '
                  'about 100 cycles)')


def modelled_cycles(counts):
    """Modelled cycles of @counts (a dict with COUNTS)."""
    return counts['insns'] + sum(w * counts[k] for k, w in WEIGHTS.items())


def read_geometry(path):
    """The cache model the plugin's log @path says it simulated: a dict
    (l1d, l1d_ways, l2, l2_ways, line in bytes; policy; vcpus), or None
    without that line."""
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = GEOMETRY.match(line.rstrip('\n'))
            if m:
                g = dict(zip(('l1d', 'l1d_ways', 'l2', 'l2_ways', 'line'),
                             (int(x) for x in m.groups()[:5])))
                g.update(policy=m.group(6), vcpus=int(m.group(7)))
                return g
    return None


def describe(g):
    """"32 KiB 8-way L1D and 1 MiB 16-way L2 (64-byte lines, LRU)" of
    geometry @g."""
    def size(b):
        return f'{b >> 20} MiB' if b >= 1 << 20 and not b % (1 << 20) else f'{b >> 10} KiB'
    return (f'{size(g["l1d"])} {g["l1d_ways"]}-way L1D and {size(g["l2"])} '
            f'{g["l2_ways"]}-way L2 ({g["line"]}-byte lines, {g["policy"]})')


def read_plugin(path):
    """The plugin's reports in @path: a list a module load, each the
    reports of that load as dicts (with 'seq', 'sections', 'unbalanced'
    and COUNTS), in order."""
    loads = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line == BEGIN:
                loads.append([])
                continue
            m = REPORT.match(line)
            if not m:
                continue
            if not loads:
                raise ValueError(f'{path}: a report before any begin: {line}')
            keys = ('seq', 'sections', 'unbalanced') + COUNTS
            loads[-1].append(dict(zip(keys, (int(x) for x in m.groups()))))
    return loads


def pair(results, loads):
    """Pairs @results, (cost_seq, sections) of the result lines in log
    order, with the plugin's reports (read_plugin()): a result line whose
    cost_seq is 0 starts the next load. A load that reported nothing (a
    suite none of whose cases was chosen) is left out. Returns the report
    of each line; raises ValueError where the two sides disagree."""
    loads = [reports for reports in loads if reports]
    paired, load = [], -1
    for seq, sections in results:
        if seq == 0:
            load += 1
        if load < 0 or load >= len(loads):
            raise ValueError(f'result line {seq} of load {load + 1}: the plugin '
                             f'reported {len(loads)} loads')
        reports = loads[load]
        if seq >= len(reports) or reports[seq]['seq'] != seq:
            raise ValueError(f'result line {seq} of load {load + 1}: no plugin report')
        rep = reports[seq]
        if rep['unbalanced']:
            raise ValueError(f'result line {seq} of load {load + 1}: {rep["unbalanced"]} '
                             'marks out of order (a section stopped on another CPU?)')
        if rep['sections'] != sections:
            raise ValueError(f'result line {seq} of load {load + 1}: {sections} sections '
                             f'timed, the plugin kept {rep["sections"]}')
        paired.append(rep)
    if load + 1 != len(loads):
        raise ValueError(f'{load + 1} loads printed results, the plugin saw {len(loads)}')
    lines = []  # result lines a load
    for seq, _ in results:
        if seq == 0:
            lines.append(0)
        lines[-1] += 1
    for i, reports in enumerate(loads):
        if len(reports) != lines[i]:
            raise ValueError(f'load {i + 1}: {lines[i]} result lines, '
                             f'{len(reports)} plugin reports')
    return paired


# The costmodel suite's known answers: case -> (sections, per-section
# counts that must be exact). Each section runs with interrupts off and
# holds only the code of its case, so nothing else is counted in it:
# - lock, lock_page, lock_w, xchg, cmpxchg8b, cmpxchg16b: 1000 copies of a
#   locked increment (lock_page's 601st crossing a page: QEMU 7.2 lists it
#   in a block that does not run it), a 16-bit one (prefixes 66 f0), xchg
#   with memory, cmpxchg8b/16b: 1000 atomics on a word in L1D, no miss;
#   the controls xchg_reg (no memory operand) and plain (no LOCK): none.
#   TCG reports a read-modify-write as a load and a store: 2000 accesses.
# - walk_l1_fit/over: the second read of 8 or 9 pages, one word a line:
#   8 lines in each set of the 32 KiB 8-way L1D fit, 9 miss every line
#   (LRU) and fit the L2. lru: lines 0-7 of one set, then 0, 8, 0: one
#   miss with LRU, two with FIFO. ways_fit/over: the second read of 8 or
#   9 lines a page apart, one L1D set: 8 fit its 8 ways, 9 miss every line
#   (LRU), where a cache of more ways, or a fully associative one, would
#   keep all 9 (walk_l1_over's 9 pages miss in those too).
# - walk_l2_fit/over: 1 MiB and 1 MiB + 64 KiB, physically contiguous: 16
#   lines in each set of the 1 MiB 16-way L2 fit, 17 miss every line.
# - all_nops (user space, plugin/costmark.c, "costmark kat"): one section
#   between the whole-machine marks ALL_START and ALL_STOP holding 1000
#   NOPs, with the other vCPU idle: 1000 instructions, no access.
# Totals over the section(s) of the two-thread cases:
# - pingpong: 2000 passes of one line, all but the last moving it: 1999;
#   private: none; handoff_load/store: 1000 lines written on one CPU and
#   read, or written, on the other: 1000. A line moved is counted as a
#   transfer only, not as an L1D or L2 miss as well (the model's rule:
#   its cost is the transfer's weight).
ATOMIC = {'insns': 1000, 'atomics': 1000, 'l1d_miss': 0, 'xfer': 0, 'io': 0}
KNOWN = {
    'lock': (16, dict(ATOMIC, mem=2000)),
    'lock_page': (16, dict(ATOMIC, mem=2000)),
    'lock_w': (16, dict(ATOMIC, mem=2000)),
    'xchg': (16, dict(ATOMIC, mem=2000)),
    'cmpxchg8b': (16, ATOMIC),
    'cmpxchg16b': (16, ATOMIC),
    'xchg_reg': (16, {'insns': 1000, 'atomics': 0, 'mem': 0}),
    'plain': (16, {'insns': 1000, 'atomics': 0, 'mem': 2000, 'l1d_miss': 0}),
    'walk_l1_fit': (2, {'mem': 512, 'l1d_miss': 0, 'atomics': 0, 'xfer': 0, 'io': 0}),
    'walk_l1_over': (2, {'mem': 576, 'l1d_miss': 576, 'l2_miss': 0, 'io': 0}),
    'lru': (16, {'mem': 3, 'l1d_miss': 1, 'l2_miss': 0}),
    'ways_fit': (2, {'mem': 8, 'l1d_miss': 0, 'l2_miss': 0, 'io': 0}),
    'ways_over': (2, {'mem': 9, 'l1d_miss': 9, 'l2_miss': 0, 'io': 0}),
    'walk_l2_fit': (2, {'mem': 16384, 'l1d_miss': 16384, 'l2_miss': 0, 'io': 0}),
    'walk_l2_over': (2, {'mem': 17408, 'l1d_miss': 17408, 'l2_miss': 17408, 'io': 0}),
    'all_nops': (1, {'insns': 1000, 'mem': 0, 'atomics': 0, 'io': 0}),
}
KNOWN_TOTAL = {
    'pingpong': (2, {'xfer': 1999, 'atomics': 0, 'io': 0, 'l1d_miss': 0, 'l2_miss': 0}),
    'private': (2, {'xfer': 0, 'atomics': 0}),
    'handoff_load': (1, {'xfer': 1000, 'atomics': 0, 'mem': 1000, 'l1d_miss': 0,
                         'l2_miss': 0}),
    'handoff_store': (1, {'xfer': 1000, 'atomics': 0, 'mem': 1000, 'l1d_miss': 0,
                          'l2_miss': 0}),
}


def known_answers(console, plugin):
    """Checks every case of the costmodel suite in @console against the
    plugin's reports in @plugin. Returns (name, ok, detail) a check."""
    with open(console, encoding='utf-8', errors='replace') as f:
        text = f.read()
    found = [(m.group(1), m.group(2), int(m.group(6)), int(m.group(7)))
             for m in RESULT.finditer(text)]
    try:
        reports = pair([(seq, sections) for _, _, sections, seq in found],
                       read_plugin(plugin))
    except (ValueError, OSError) as e:
        return [('pairing', False, str(e))]
    by_case = {case: (sections, rep) for (suite, case, sections, _), rep
               in zip(found, reports) if suite == 'costmodel'}
    geometry = read_geometry(plugin)
    got = {k: geometry[k] for k in KNOWN_GEOMETRY} if geometry else None
    checks = [('geometry', got == KNOWN_GEOMETRY,
               f'{describe(geometry)}' if got == KNOWN_GEOMETRY else
               f'the plugin simulated {describe(geometry) if geometry else "no stated cache"}; '
               f'the answers follow from {describe(KNOWN_GEOMETRY)}')]
    for case, (want_sections, expect) in list(KNOWN.items()) + list(KNOWN_TOTAL.items()):
        if case not in by_case:
            checks.append((case, False, 'no result line'))
            continue
        sections, rep = by_case[case]
        per = 1 if case in KNOWN_TOTAL else sections
        bad = [f'{what}={rep[what]}, expected {value * per}'
               for what, value in expect.items() if rep[what] != value * per]
        if sections != want_sections:
            bad.insert(0, f'{sections} sections, expected {want_sections}')
        detail = ' '.join(f'{k}={rep[k]}' for k in COUNTS) + f' sections={sections}'
        checks.append((case, not bad, '; '.join(bad) or detail))
    return checks


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    checks = known_answers(sys.argv[1], sys.argv[2])
    for name, ok, detail in checks:
        print(f'{"ok" if ok else "not ok"} costmodel {name}: {detail}')
    failed = sum(not ok for _, ok, _ in checks)
    print(f'costmodel: {len(checks) - failed} passed, {failed} failed')
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
