#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of compare_runs.py, the upstream entry's verdict: each way
the series can differ from the base must fail, and equal runs pass.

Usage: test_compare_runs.py TREE   (the kernel tree whose KUnit parser it uses)
"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_runs  # noqa: E402

parser = None
REQUIRED = ['slub_test', 'kfence', 'kasan', 'test_meminit', 'test_vmalloc']


def kunit(suites):
    """A KTAP boot log of @suites: (name, [(case, status, report lines)])."""
    out = ['[    1.000000] KTAP version 1\n', f'[    1.000000] 1..{len(suites)}\n']
    for i, (suite, cases) in enumerate(suites, 1):
        out += ['[    1.000000]     KTAP version 1\n',
                f'[    1.000000]     # Subtest: {suite}\n',
                f'[    1.000000]     1..{len(cases)}\n']
        for j, (case, status, reports) in enumerate(cases, 1):
            out += [f'[    1.000000] {r}\n' for r in reports]
            result, _, directive = status.partition(' # ')
            out.append(f'[    1.000000]     {result} {j} {case}'
                       + (f' # {directive}' if directive else '') + '\n')
        failed = any(s.startswith('not ok') for _, s, _ in cases)
        out.append(f'[    1.000000] {"not ok" if failed else "ok"} {i} {suite}\n')
    return out


KASAN_REPORT = ['BUG: KASAN: slab-out-of-bounds in kmalloc_oob_right+0x1/0x2',
                'Call Trace:']
KFENCE_REPORT = ['BUG: KFENCE: out-of-bounds read in test_out_of_bounds_read+0x1/0x2']
SUITES = [
    ('slub_test', [('test_clobber_zone', 'ok', [])]),
    ('kfence', [('test_out_of_bounds_read', 'ok', KFENCE_REPORT),
                ('test_free_bulk', 'ok', [])]),
    ('kasan', [('kmalloc_oob_right', 'ok', KASAN_REPORT),
               ('kasan_bitops_generic', 'ok # SKIP Test requires CONFIG_KASAN_GENERIC=n', [])]),
]
BOOT = ['[    0.900000] test_meminit: all 10 tests passed!\n',
        '[    0.950000] Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 '
        'repeat: 1 loops: 100 avg: 10 usec\n',
        '[    0.950000] Summary: fix_size_alloc_test passed: 1 failed: 0 xfailed: 0 '
        'repeat: 1 loops: 100 avg: 11 usec\n']
END = ['==== slab_bulk: kunit begin\n', '==== slab_bulk: done\n']


def log(suites=SUITES, boot=BOOT, end=END):
    return ''.join(boot + kunit(suites) + end)


def replace_case(suites, suite, case, status=None, reports=None):
    out = []
    for name, cases in suites:
        new = []
        for c, s, r in cases:
            if name == suite and c == case:
                s = status if status is not None else s
                r = reports if reports is not None else r
            new.append((c, s, r))
        out.append((name, new))
    return out


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def paths(self, base, series):
        paths = []
        for name, text in (('base', base), ('series', series)):
            path = os.path.join(self.dir.name, name + '.log')
            with open(path, 'w') as f:
                f.write(text)
            paths.append(path)
        return paths

    def compare(self, series, base=None):
        return compare_runs.compare(parser, *self.paths(base or log(), series), REQUIRED)

    def assertFails(self, series, what, base=None):
        problems, _ = self.compare(series, base)
        self.assertTrue(any(what in p for p in problems), problems)

    def test_equal_runs_pass(self):
        problems, compared = self.compare(log())
        self.assertEqual(problems, [])
        # 5 KUnit cases, test_meminit, one test_vmalloc test
        self.assertEqual(compared, 7)

    def test_series_suites_must_pass(self):
        own = SUITES + [('slub_bulk', [('test_alloc_free_bulk', 'ok', [])])]
        self.assertEqual(self.compare(log(own))[0], [])
        own = SUITES + [('slub_bulk', [('test_alloc_free_bulk', 'not ok', [])])]
        self.assertFails(log(own), 'slub_bulk.test_alloc_free_bulk: FAILURE on the series')

    def test_series_skip_only_where_listed(self):
        own = log(SUITES + [('slub_bulk', [('test_double_free', 'ok # SKIP KASAN', [])])])
        self.assertFails(own, 'slub_bulk.test_double_free: SKIPPED on the series')
        problems, _ = compare_runs.compare(parser, *self.paths(log(), own), REQUIRED,
                                           {'slub_bulk.test_double_free'})
        self.assertEqual(problems, [])
        passed = log(SUITES + [('slub_bulk', [('test_double_free', 'ok', [])])])
        problems, _ = compare_runs.compare(parser, *self.paths(log(), passed), REQUIRED,
                                           {'slub_bulk.test_double_free'})
        self.assertEqual(problems, ['slub_bulk.test_double_free is listed as skipped on '
                                    'the series, but: SUCCESS'])

    def test_case_that_fails_on_the_series(self):
        self.assertFails(log(replace_case(SUITES, 'kfence', 'test_free_bulk', 'not ok')),
                         'kfence.test_free_bulk: SUCCESS on the base, FAILURE on the series')

    def test_case_missing_on_the_series(self):
        suites = [(n, [c for c in cases if c[0] != 'test_free_bulk']) for n, cases in SUITES]
        self.assertFails(log(suites), 'kfence.test_free_bulk: SUCCESS on the base, not run')

    def test_skip_that_became_a_pass(self):
        self.assertFails(log(replace_case(SUITES, 'kasan', 'kasan_bitops_generic', 'ok')),
                         'kasan.kasan_bitops_generic: SKIPPED on the base, SUCCESS')

    def test_one_report_more_in_a_case(self):
        suites = replace_case(SUITES, 'kasan', 'kmalloc_oob_right',
                              reports=KASAN_REPORT + KASAN_REPORT[:1])
        self.assertFails(log(suites), 'kasan.kmalloc_oob_right: 1 "BUG: KASAN: '
                         'slab-out-of-bounds in kmalloc_oob_right" on the base, 2 on the series')

    def test_other_report_in_a_case(self):
        # The same number of report lines, another checker or kind.
        other = ['BUG: KFENCE: use-after-free read in kmem_cache_free_bulk+0x10/0x20',
                 'Call Trace:']
        suites = replace_case(SUITES, 'kasan', 'kmalloc_oob_right', reports=other)
        self.assertFails(log(suites), 'kasan.kmalloc_oob_right: 0 "BUG: KFENCE: '
                         'use-after-free read in kmem_cache_free_bulk" on the base, 1')

    def test_report_keys_ignore_what_differs_between_kernels(self):
        self.assertEqual(
            compare_runs.report_key('[   12.345678] WARNING: CPU: 1 PID: 77 at mm/slub.c:4773 '
                                    'kmem_cache_free_bulk+0xf88/0x1060\n'),
            'WARNING: at mm/slub.c:N kmem_cache_free_bulk')
        self.assertEqual(
            compare_runs.report_key('[    2.0] WARNING: mm/slub.c:12 at f+0x1/0x2, CPU#0: kunit/9'),
            'WARNING: mm/slub.c:N at f')

    def test_report_in_a_case_that_had_none(self):
        suites = replace_case(SUITES, 'kfence', 'test_free_bulk', reports=KFENCE_REPORT)
        self.assertFails(log(suites), 'kfence.test_free_bulk: 0 "BUG: KFENCE:')

    def test_report_outside_a_case(self):
        self.assertFails(log(boot=BOOT + ['[    0.990000] WARNING: CPU: 0 PID: 1 at mm/slub.c:1 x\n']),
                         'series: report outside a KUnit case: [    0.990000] WARNING')

    def test_report_after_the_last_case_of_a_suite(self):
        lines = log().replace('[    1.000000] ok 1 slub_test',
                              '[    1.000000] BUG: KASAN: double-free in x\n'
                              '[    1.000000] ok 1 slub_test')
        self.assertFails(lines, 'series: report outside a KUnit case: slub_test: BUG')

    def test_boot_tests(self):
        self.assertFails(log(boot=[BOOT[0].replace('all 10 tests passed!', 'failures: 1 out of 10')]
                             + BOOT[1:]),
                         'test_meminit: failures 0 on the base, failures 1 on the series')
        self.assertFails(log(boot=BOOT[:2] + [BOOT[2].replace('failed: 0', 'failed: 1')]),
                         'test_vmalloc.fix_size_alloc_test: SUCCESS on the base, 1 failed')

    def test_base_that_ran_too_little(self):
        base = log(boot=BOOT[1:], suites=[s for s in SUITES if s[0] != 'kfence'])
        problems, _ = self.compare(base, base)
        self.assertIn('base: kfence did not run', problems)
        self.assertIn('base: test_meminit did not run', problems)
        # A suite that failed to start, or whose cases all failed, on both.
        failed = replace_case(replace_case(SUITES, 'kfence', 'test_free_bulk', 'not ok'),
                              'kfence', 'test_out_of_bounds_read', 'not ok')
        problems, _ = self.compare(log(failed), log(failed))
        self.assertIn('base: kfence passed nothing', problems)
        self.assertIn('base: kfence.test_free_bulk: FAILURE', problems)
        meminit = log(boot=[BOOT[0].replace('all 10 tests passed!', 'failures: 2 out of 10')]
                      + BOOT[1:])
        problems, _ = self.compare(meminit, meminit)
        self.assertIn('base: test_meminit passed nothing', problems)

    def test_upstream_failures_listed_for_the_base(self):
        failed = log(replace_case(SUITES, 'kfence', 'test_free_bulk', 'not ok'))
        problems, _ = self.compare(failed, failed)
        self.assertEqual(problems, ['base: kfence.test_free_bulk: FAILURE'])
        problems, _ = compare_runs.compare(parser, *self.paths(failed, failed), REQUIRED,
                                           {'kfence.test_free_bulk'})
        self.assertEqual(problems, [])
        # Listed, it must fail on the base; and the series must fail it too.
        problems, _ = compare_runs.compare(parser, *self.paths(log(), log()), REQUIRED,
                                           {'kfence.test_free_bulk'})
        self.assertEqual(problems, ['base: kfence.test_free_bulk is listed as failing on '
                                    'the base, but: SUCCESS'])
        problems, _ = compare_runs.compare(parser, *self.paths(failed, log()), REQUIRED,
                                           {'kfence.test_free_bulk'})
        self.assertEqual(problems, ['kfence.test_free_bulk: FAILURE on the base, '
                                    'SUCCESS on the series'])

    def test_unfinished_or_missing_guest(self):
        self.assertFails(log(end=END[:1]), 'series: the guest did not finish')
        problems, _ = compare_runs.compare(parser, '/nonexistent/base.log',
                                           '/nonexistent/s.log', REQUIRED)
        self.assertIn('base: no console log /nonexistent/base.log: the guest never started',
                      problems)


if __name__ == '__main__':
    tree = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get('TREE', '.')
    sys.path.insert(0, os.path.join(tree, 'tools/testing/kunit'))
    import kunit_parser
    parser = kunit_parser
    unittest.main(verbosity=1)
