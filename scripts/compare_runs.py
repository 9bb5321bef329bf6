#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The verdict of make matrix's "upstream" entry: upstream's own tests of
the code the series changes (KUnit: slub_test, kfence, kasan; at boot:
test_meminit, test_vmalloc), run on the base kernel and on the series
kernel, must give the series every result they give the base.

A result is "suite.case" of KUnit with its status, "test_meminit" with
its count of failures, "test_vmalloc.TEST" with whether any worker
failed it. The series must have each of the base's results, equal; a
result only the series has (its own suites) must pass, or skip where the
entry's section of expect/BASE lists it. The base must have passed what
the entry requires, none of it failing but upstream's own failures, which
the same section lists: a result the base fails would be compared with
nothing to show.

The reports a test provokes on purpose (kasan and kfence check that a bad
access is reported) are allowed only where the base prints them: each
report line (scripts/ktap.py's SPLATS) inside a KUnit case is counted by
the case and the line itself (time stamps, offsets, addresses, line
numbers, CPUs and tasks taken out: "BUG: KASAN: double-free in
kmem_cache_free_bulk"), and the series must print the same counts in the
same cases. A report outside every KUnit case fails,
as in make check; the series' own expect windows are taken out first.

Usage: compare_runs.py [--expect FILE --entry NAME] TREE REQUIRED BASE_LOG SERIES_LOG
REQUIRED names, comma-separated, what the base must have run and passed
(KUnit suites, test_meminit, test_vmalloc); the [matrix.NAME] section of
FILE (expect/BASE) lists, with the reason, what the base fails of it
(upstream's own failures; each must fail on the base) and the series'
own cases that skip in this configuration (each must skip).
Prints one line per problem and a last line "upstream: ..."; exits 1 on
any problem.
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402

KTAP_BODY = re.compile(r'^\[\s*\d+\.\d+\] (.*)$')
# KTAP as the kernel prints it: a suite's header and its cases' results
# indented by four, the suite's result by none (a parameterised case's
# own results by eight: not a case of its own here).
SUITE_BEGIN = re.compile(r'^    # Subtest: (\S+)')
CASE_END = re.compile(r'^    (?:not )?ok \d+ (\S+)')
SUITE_END = re.compile(r'^(?:not )?ok \d+ (\S+)')
# A report line as a key: the time stamp, offsets, addresses, line numbers,
# CPUs and tasks taken out, which differ between two kernels and boots.
NORMALISE = [
    (re.compile(r'^\[\s*\d+\.\d+\] '), ''),
    (re.compile(r'\+0x[0-9a-f]+/0x[0-9a-f]+'), ''),
    (re.compile(r'\b0x[0-9a-f]+\b|\b[0-9a-f]{16}\b'), 'ADDR'),
    (re.compile(r'(\.[ch]):\d+'), r'\1:N'),
    (re.compile(r'CPU: \d+ PID: \d+ |, CPU#\d+: \S+'), ''),
]
MEMINIT = re.compile(r'test_meminit: (?:all (\d+) tests passed!|failures: (\d+) out of (\d+))')
VMALLOC = re.compile(r'Summary: (\w+) passed: (\d+) failed: (\d+)')


def kunit_results(parser, kunit):
    """suite.case -> status name, for every KUnit case the log shows."""
    test = ktap.parse_run_tests(parser, kunit)
    return {name: status.name for status in parser.TestStatus
            for name in ktap.tests_with((status,), test)}, test


def boot_results(lines):
    """test_meminit's and test_vmalloc's results, printed at boot."""
    results, vmalloc = {}, collections.defaultdict(int)
    for line in lines:
        if m := MEMINIT.search(line):
            results['test_meminit'] = 'failures 0' if m.group(1) else f'failures {m.group(2)}'
        if m := VMALLOC.search(line):
            vmalloc[m.group(1)] += int(m.group(3))
    for name, failed in vmalloc.items():
        results[f'test_vmalloc.{name}'] = 'SUCCESS' if not failed else f'{failed} failed'
    return results


def report_key(line):
    """@line, a report line, as it is compared between two kernels."""
    line = line.strip()
    for pattern, repl in NORMALISE:
        line = pattern.sub(repl, line)
    return line


def reports_by_case(lines):
    """Counter of (suite.case, report line) for each report line inside a
    KUnit case (report_key()), and the report lines outside every case."""
    counts, outside = collections.Counter(), []
    suite, pending = None, []
    for line in lines:
        m = KTAP_BODY.match(line.rstrip('\n'))
        body = m.group(1) if m else line.rstrip('\n')
        if m and (s := SUITE_BEGIN.match(body)):
            suite, pending = s.group(1), []
            continue
        if suite and (c := CASE_END.match(body)):
            counts.update((f'{suite}.{c.group(1)}', kind) for kind in pending)
            pending = []
            continue
        if suite and (e := SUITE_END.match(body)) and e.group(1) == suite:
            outside += [f'{suite}: {k}' for k in pending]
            suite, pending = None, []
            continue
        if ktap.SPLATS.search(line):
            if suite:
                pending.append(report_key(line))
            else:
                outside.append(line.strip())
    outside += [f'{suite}: {k}' for k in pending]
    return counts, outside


def read_run(parser, path, tree=None):
    """The results, report counts and problems of one console log; @tree
    is the kernel tree its expected reports are looked up in."""
    missing = ktap.no_console(path)
    if missing:
        return {}, collections.Counter(), [missing]
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().splitlines(True)
    lines, problems = ktap.expected_reports(lines, tree)
    parts, done = ktap.split_log(lines)
    if not done:
        problems.append('the guest did not finish')
    problems += [f'QEMU exit code {m.group(1)}' for line in lines
                 if (m := ktap.QEMU_EXIT.match(line)) and m.group(1) != '0']
    results, test = kunit_results(parser, parts['kunit'])
    if test.counts.errors:
        problems.append(f'KUnit: {test.counts.errors} parse errors')
    results.update(boot_results(lines))
    counts, outside = reports_by_case(lines)
    problems += [f'report outside a KUnit case: {line}' for line in outside]
    return results, counts, problems


PASSED = ('SUCCESS', 'SKIPPED', 'failures 0')


def required_problems(results, required, base_fails=()):
    """What the base lacks of @required: each suite must have passed a
    case, test_meminit and each test_vmalloc test must have passed, and
    nothing of them may have failed but @base_fails, upstream's own
    failures on this base (each listed one must fail): a result the base
    fails shows nothing when the series fails it too."""
    problems = []
    for name in required:
        mine = {k: v for k, v in results.items() if k.split('.')[0] == name}
        if not mine:
            problems.append(f'base: {name} did not run')
        elif 'SUCCESS' not in mine.values() and 'failures 0' not in mine.values():
            problems.append(f'base: {name} passed nothing')
        problems += [f'base: {k}: {v}' for k, v in sorted(mine.items())
                     if v not in PASSED and k not in base_fails]
    problems += [f'base: {k} is listed as failing on the base, but: {results.get(k, "not run")}'
                 for k in sorted(base_fails) if results.get(k, 'SUCCESS') in PASSED]
    return problems


def compare(parser, base_log, series_log, required, listed=(), tree=None):
    """The problems of the comparison, and the number of results compared."""
    problems = []
    base, base_reports, base_problems = read_run(parser, base_log, tree)
    series, series_reports, series_problems = read_run(parser, series_log, tree)
    problems += [f'base: {p}' for p in base_problems]
    problems += [f'series: {p}' for p in series_problems]
    problems += required_problems(base, required, {k for k in listed if k in base})
    for name, status in sorted(base.items()):
        if name not in series:
            problems.append(f'{name}: {status} on the base, not run on the series')
        elif series[name] != status:
            problems.append(f'{name}: {status} on the base, {series[name]} on the series')
    problems += [f'{name}: {status} on the series (not on the base)'
                 for name, status in sorted(series.items()) if name not in base and
                 status != 'SUCCESS' and not (status == 'SKIPPED' and name in listed)]
    problems += [f'{name} is listed as skipped on the series, but: {series[name]}'
                 for name in sorted(listed) if name not in base and name in series
                 and series[name] != 'SKIPPED']
    for key in sorted(set(base_reports) | set(series_reports)):
        if base_reports[key] != series_reports[key]:
            case, report = key
            problems.append(f'{case}: {base_reports[key]} "{report}" on the base, '
                            f'{series_reports[key]} on the series')
    return problems, len(base)


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split('Usage: ')[1].split('\n')[0])
    ap.add_argument('--expect')
    ap.add_argument('--entry')
    ap.add_argument('tree')
    ap.add_argument('required')
    ap.add_argument('base_log')
    ap.add_argument('series_log')
    args = ap.parse_args()
    if bool(args.expect) != bool(args.entry):
        ap.error('--expect and --entry go together')
    listed = set()
    if args.expect:
        # The names: the bare base's failures have no reason to compare.
        listed = {e.split(':')[0].strip() for e in
                  ktap.Expectations(args.expect).skips(f'matrix.{args.entry}')}
    sys.path.insert(0, args.tree + '/tools/testing/kunit')
    import kunit_parser
    problems, compared = compare(kunit_parser, args.base_log, args.series_log,
                                 [r for r in args.required.split(',') if r], listed, args.tree)
    for p in problems:
        print(p)
    if problems:
        print(f'upstream: FAIL: {len(problems)} problems, {compared} results of the base compared')
        return 1
    print(f'upstream: PASS: the series gives all {compared} results of the base, '
          'and the same reports')
    return 0


if __name__ == '__main__':
    sys.exit(main())
