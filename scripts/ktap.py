#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the console logs of "make check" and "make stress" guests.

Usage: ktap.py [--kselftests NAME,...] TREE NAME=LOG [NAME=LOG ...]

Each LOG is cut at the guest's markers into the KUnit output of the boot and
the kselftest output; both are parsed by the kernel's own KTAP parser
(tools/testing/kunit/kunit_parser.py). The whole log is also searched for
reports of the kernel's checkers. Prints a line per log and the totals
"N passed, N failed, N skipped"; exits 1 on any failure, crash, parse
error, missing suite, missing kselftest, unfinished guest or report.
"""
import argparse
import re
import sys

# Suites every check kernel must run; a missing one is a failure.
REQUIRED_SUITES = ['slab_bulk', 'page_bulk', 'kfree_rcu_bulk', 'slub_test', 'skb_bulk']

# kselftest results that must pass, not be skipped: the guest has the NIC,
# fault injection and the cgroup2 memory controller.
# --kselftests replaces the list (make stress runs the stress alone).
DEFAULT_KSELFTESTS = ['pktgen_tx_fresh', 'pktgen_tx_shared', 'alloc_bulk_fail_halfway',
                       'alloc_pages_bulk_fail', 'pages_bulk_account', 'kfree_rcu_emergency',
                       'stress']

# What the kernel prints when a checker fires or something breaks.
SPLATS = re.compile('|'.join([
    r'\bBUG[: ]', r'WARNING:', r'KASAN:', r'KFENCE:', r'Call Trace:',
    r'possible (recursive|circular) locking', r'inconsistent lock state',
    r'suspicious RCU usage', r'called from invalid context',
    r'unreferenced object', r'Kernel panic', r'Oops', r'general protection',
    r'Object already free', r'Redzone overwritten', r'Poison overwritten',
    r'page allocation failure', r'kmemleak: .*disabled',
]))

# Leaks that upstream tests make on purpose: slub_kunit's test_leak_destroy
# destroys a cache that still holds an object.
KNOWN_LEAKS = ['test_leak_destroy']

MARK = '==== slab_bulk: '


def split_log(lines):
    """Boot output (KUnit), kselftest output, kmemleak's report, the rest,
    and whether the guest finished."""
    parts = {'kunit': [], 'kself': [], 'kmemleak': [], 'other': []}
    part, done = 'kunit', False
    for line in lines:
        if MARK + 'kselftest begin' in line:
            part = 'kself'
            continue
        if MARK + 'kmemleak begin' in line:
            part = 'kmemleak'
            continue
        if MARK in line:
            done |= MARK + 'done' in line
            part = 'other'
            continue
        parts[part].append(line)
    return parts, done


EXPECT_BEGIN = 'slab_bulk: expect WARNING begin'
# What counts as the expected warning: WARN_ON() and might_sleep()'s report.
EXPECTED_REPORTS = ['WARNING:', 'BUG: sleeping function called from invalid context']
EXPECT_END = 'slab_bulk: expect WARNING end'


def expected_warnings(lines):
    """Lines less those a test marked as an expected WARNING, and the names
    of marked sections in which no WARNING was printed."""
    kept, missing, name, seen = [], [], None, False
    for line in lines:
        if EXPECT_BEGIN in line:
            name, seen = line.split(EXPECT_BEGIN, 1)[1].strip(': \n'), False
            continue
        if EXPECT_END in line and name is not None:
            if not seen:
                missing.append(name)
            name = None
            continue
        if name is not None and SPLATS.search(line):
            seen |= any(w in line for w in EXPECTED_REPORTS)
            continue
        kept.append(line)
    if name is not None:
        missing.append(name + ' (no end marker)')
    return kept, missing


def leaks(report):
    """kmemleak records, less those upstream tests make on purpose."""
    records, cur = [], []
    for line in report:
        if line.startswith('unreferenced object') and cur:
            records.append(cur)
            cur = []
        cur.append(line)
    if cur:
        records.append(cur)
    return [r for r in records
            if r[0].startswith('unreferenced object')
            and not any(k in l for l in r for k in KNOWN_LEAKS)]


def judge(parser, name, path, required):
    lines = open(path, encoding='utf-8', errors='replace').read().splitlines(True)
    lines, missing = expected_warnings(lines)
    parts, done = split_log(lines)
    kunit, kself = parts['kunit'], parts['kself']
    problems = []
    counts = parser.TestCounts()
    for part, text in (('kunit', kunit), ('kselftest', kself)):
        test = parser.parse_run_tests(text)
        counts.add_subtest_counts(test.counts)
        if test.status in (parser.TestStatus.FAILURE_TO_PARSE_TESTS,
                           parser.TestStatus.NO_TESTS):
            problems.append(f'{part}: no results')
        if test.counts.errors:
            problems.append(f'{part}: {test.counts.errors} parse errors')
        if part == 'kunit':
            names = {t.name for t in test.subtests}
            problems += [f'suite {s} did not run' for s in REQUIRED_SUITES
                         if s not in names]
        else:
            passed = {t.name for t in test.subtests
                      if t.status == parser.TestStatus.SUCCESS}
            problems += [f'kselftest {s} did not pass' for s in required
                         if s not in passed]
    if not done:
        problems.append('guest did not finish')
    problems += [f'expected WARNING missing: {m}' for m in missing]
    splats = [l.rstrip() for p in ('kunit', 'kself', 'other') for l in parts[p]
              if SPLATS.search(l) and 'new suspected memory leaks' not in l]
    if splats:
        problems.append(f'{len(splats)} report lines, first: {splats[0]}')
    leaked = leaks(parts['kmemleak'])
    if leaked:
        problems.append(f'kmemleak: {len(leaked)} leaks, first: {leaked[0][0].rstrip()}')
    print(f'{name}: {counts.passed} passed, {counts.failed + counts.crashed} failed, '
          f'{counts.skipped} skipped' + ''.join(f'; {p}' for p in problems))
    return counts, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--kselftests', default=','.join(DEFAULT_KSELFTESTS),
                    help='kselftests that must pass, comma-separated')
    ap.add_argument('tree')
    ap.add_argument('logs', nargs='+', metavar='NAME=LOG')
    args = ap.parse_args()
    sys.path.insert(0, args.tree + '/tools/testing/kunit')
    import kunit_parser as parser
    total = parser.TestCounts()
    bad = False
    results = []
    for arg in args.logs:
        name, path = arg.split('=', 1)
        counts, problems = judge(parser, name, path, args.kselftests.split(','))
        total.add_subtest_counts(counts)
        results.append((name, counts, problems))
        bad |= bool(problems) or counts.failed > 0 or counts.crashed > 0
    print()
    for name, counts, problems in results:
        print(f'  {name:<8} passed {counts.passed:>4}  failed {counts.failed + counts.crashed:>3}'
              f'  skipped {counts.skipped:>3}  {"OK" if not problems else "PROBLEMS"}')
    failed = total.failed + total.crashed + sum(len(p) for _, _, p in results)
    print(f'check: {total.passed} passed, {failed} failed, {total.skipped} skipped')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
