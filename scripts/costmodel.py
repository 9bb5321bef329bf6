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
                    r'mem=(\d+) atomics=(\d+) l1d_miss=(\d+) l2_miss=(\d+) xfer=(\d+)$')
BEGIN = 'costmodel: begin'
COUNTS = ('insns', 'mem', 'atomics', 'l1d_miss', 'l2_miss', 'xfer')
# A benchmark result line as the module printed it (the kselftest prints
# them again, without the module's name), as far as pairing needs it.
RESULT = re.compile(r'test_slab_bulk(?:_bench)?: bench suite=(\S+) case=(\S+) variant=(\S+) n=(\d+) objs=(\d+) '
                    r'sections=(\d+) .* cost_seq=(\d+)')

# Modelled cycles: one a guest instruction, plus these for each event.
# They are latencies of a current x86 server core, from public tables:
# an L1D miss that hits L2 costs an L2 hit (Intel's optimization manual
# gives 14 cycles for Skylake and Ice Lake server cores); an L2 miss adds
# the rest of an L3 hit (50-70 cycles in all on those meshes: 50 more); a
# locked read-modify-write, about 20 (Agner Fog's instruction tables:
# LOCK ADD, XCHG with memory, CMPXCHG16B, 18-25 on Skylake); a line that
# another core wrote, about 100 (core-to-core transfer on one socket,
# 40-50 ns at 2-2.5 GHz). bench.json keeps the raw counts, so other
# weights can be applied to the same run.
WEIGHTS = {'atomics': 20, 'l1d_miss': 14, 'l2_miss': 50, 'xfer': 100}
WEIGHTS_SOURCE = ('instructions + 20 x atomics + 14 x L1D misses + 50 x L2 misses '
                  '+ 100 x cross-CPU transfers (latencies of an x86 server core: '
                  'L2 hit 14, L3 hit about 64, locked RMW about 20, '
                  'core-to-core line about 100 cycles)')


def modelled_cycles(counts):
    """Modelled cycles of @counts (a dict with COUNTS)."""
    return counts['insns'] + sum(w * counts[k] for k, w in WEIGHTS.items())


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
    cost_seq is 0 starts the next load. Returns the report of each line;
    raises ValueError where the two sides disagree."""
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
                             'sections stopped on another CPU than they started on')
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


# The costmodel suite's known answers, per section: case -> list of
# (count, low, high). The tolerances, and why:
# - lock, xchg, plain, cmpxchg16b: 1000 copies of one instruction between
#   the marks and nothing else, so exact counts. "plain" is the control:
#   the same read-modify-write without LOCK is no atomic. TCG reports a
#   read-modify-write as a load and a store: 2000 accesses.
# - walk_*: the second walk over N lines reads one word a line and
#   nothing else: 16 KiB fit the 32 KiB 8-way L1D (0 misses), 64 KiB miss
#   it on every line with LRU but fit the 1 MiB 16-way L2 (whose sets the
#   16 physical pages may fill unevenly, but not past 16 ways), 4 MiB miss
#   both. Up to 4 misses a section are allowed for an interrupt that hit
#   the section; the L2 of the 4 MiB walk may keep up to 2 % of its lines
#   where its scattered pages leave a set at 16 lines or fewer.
# - pingpong: 1000 rounds of two threads passing a turn, 2000 passes, each
#   moving the line to the other CPU; summed over both sections. Up to 16
#   more for lines an interrupt touched. private: each thread writes a line
#   of its own: at most 4 moved (the lines come zeroed from the launcher).
KNOWN = {
    'lock': [('insns', 1000, 1000), ('atomics', 1000, 1000)],
    'xchg': [('insns', 1000, 1000), ('atomics', 1000, 1000)],
    'plain': [('insns', 1000, 1000), ('atomics', 0, 0), ('mem', 2000, 2000)],
    'cmpxchg16b': [('insns', 1000, 1000), ('atomics', 1000, 1000)],
    'walk_l1_fit': [('mem', 256, 256), ('l1d_miss', 0, 4), ('xfer', 0, 4)],
    'walk_l2_fit': [('mem', 1024, 1024), ('l1d_miss', 1024, 1028), ('l2_miss', 0, 4)],
    'walk_l2_miss': [('mem', 65536, 65536), ('l1d_miss', 65536, 65540),
                     ('l2_miss', 64225, 65540)],
}
# Totals over both threads' sections.
KNOWN_TOTAL = {
    'pingpong': [('xfer', 2000, 2016)],
    'private': [('xfer', 0, 4)],
}


def known_answers(console, plugin):
    """Checks every case of the costmodel suite in @console against the
    plugin's reports in @plugin. Returns (name, ok, detail) a check."""
    text = open(console, encoding='utf-8', errors='replace').read()
    found = [(m.group(2), int(m.group(6)), int(m.group(7)))
             for m in RESULT.finditer(text)]
    checks = []
    try:
        reports = pair([(seq, sections) for _, sections, seq in found], read_plugin(plugin))
    except (ValueError, OSError) as e:
        return [('pairing', False, str(e))]
    by_case = dict(zip((case for case, _, _ in found), zip(found, reports)))
    for case in list(KNOWN) + list(KNOWN_TOTAL):
        if case not in by_case:
            checks.append((case, False, 'no result line'))
            continue
        (_, sections, _), rep = by_case[case]
        per = 1 if case in KNOWN_TOTAL else sections
        expect = KNOWN_TOTAL.get(case) or KNOWN[case]
        if sections == 0:
            checks.append((case, False, 'no section kept'))
            continue
        bad = [f'{what}={rep[what]} not in [{lo * per}, {hi * per}]'
               for what, lo, hi in expect if not lo * per <= rep[what] <= hi * per]
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
