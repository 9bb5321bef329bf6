#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the judge (ktap.py): each hole a log can hide a failure
in must fail, and the clean log must pass.

Usage: test_ktap.py TREE   (the kernel tree whose KUnit parser ktap.py uses)
"""
import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402

parser = None
SUITES = ['slab_bulk']
KSELFTESTS = ['stress']

KUNIT = '''[    1.000000] KTAP version 1
[    1.000001] 1..1
[    1.000002]     KTAP version 1
[    1.000003]     # Subtest: slab_bulk
[    1.000004]     1..3
[    1.000005]     ok 1 test_alloc_free_bulk
[    1.000006] slab_bulk: expect 1 WARNING at cache_from_obj begin: wrong cache
[    1.000007] ------------[ cut here ]------------
[    1.000007] cache_from_obj: Wrong slab cache. bulk_right but object is from bulk_wrong
[    1.000008] WARNING: CPU: 0 PID: 1 at mm/slub.c:4773 kmem_cache_free_bulk+0xf88/0x1060
[    1.000009] Call Trace:
[    1.000010]  <TASK>
[    1.000011]  </TASK>
[    1.000012] ---[ end trace 0000000000000000 ]---
[    1.000013] slab_bulk: expect end
[    1.000014]     ok 2 test_free_bulk_wrong_cache
[    1.000015]     ok 3 test_free_bulk_kfence_mixed # SKIP KFENCE is off
[    1.000016] ok 1 slab_bulk
'''
KSELFTEST = '''==== slab_bulk: kselftest begin
TAP version 13
1..1
ok 1 stress
# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0
==== slab_bulk: kselftest end rc=0
==== slab_bulk: kmemleak begin
==== slab_bulk: kmemleak end
==== slab_bulk: done
'''
CLEAN = KUNIT + KSELFTEST
SKIPS = {'slab_bulk.test_free_bulk_kfence_mixed: KFENCE is off'}
KASAN = '[    2.000000] BUG: KASAN: slab-use-after-free in kfree_bulk+0x10/0x20\n'


TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPECT_612 = os.path.join(TOP, 'expect', '6.12')
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'test_data')


def source_tree():
    """A kernel tree of one file for the judge's look-ups: mm/slub.c with
    cache_from_obj() where 6.12's has it, lines 4749-4765 (its WARN is at
    4758, the line the recorded console names), and to 4780, where the
    inline logs above put theirs."""
    d = tempfile.TemporaryDirectory()
    unittest.addModuleCleanup(d.cleanup)
    os.makedirs(os.path.join(d.name, 'mm'))
    with open(os.path.join(d.name, 'mm', 'slub.c'), 'w') as f:
        f.write('\n' * 4748 + 'static inline struct kmem_cache *cache_from_obj('
                'struct kmem_cache *s, void *x)\n{\n' + '\tx;\n' * 30 + '}\n'
                'void bulk_free_array(void)\n{\n}\n')
    return d.name


class ExpectationsTest(unittest.TestCase):
    """expect/BASE: each section's skips, includes, suites, and the
    mistakes that must stop the judge instead of judging with less."""

    def read(self, text):
        with tempfile.NamedTemporaryFile('w', delete=False) as f:
            f.write(text)
        try:
            return ktap.Expectations(f.name)
        finally:
            os.unlink(f.name)

    REQUIRED = '[required]\nsuites = a,b\nkselftests = k1,k2\nnet = k1\ncases = a:2\n'

    def test_sections(self):
        e = self.read(self.REQUIRED + '[leaks]\nleaky  # why\n[test]\na.x: off\t# why\n'
                      'k3: reason #2 of them\n'
                      'k2: no slabinfo\n[matrix.rt]\ninclude = test\na.y: RT\n'
                      '[matrix.tiny]\nsuites = b\n[matrix.off]\nsuites =\n'
                      '[debug]\nkmemleak = required\n')
        self.assertEqual(e.required('kselftests'), ['k1', 'k2'])
        self.assertEqual(e.known_leaks(), {'leaky'})
        self.assertEqual(e.skips('test'), {'a.x: off', 'k2: no slabinfo',
                                           'k3: reason #2 of them'})
        self.assertEqual(e.skips('matrix.rt'), {'a.x: off', 'k2: no slabinfo',
                                                'k3: reason #2 of them', 'a.y: RT'})
        self.assertEqual((e.kmemleak('debug'), e.kmemleak('test')), (True, False))
        self.assertEqual(e.skips('nosection'), set())
        self.assertEqual(e.suites('test'), ['a', 'b'])
        self.assertEqual(e.suites('matrix.tiny'), ['b'])
        self.assertEqual(e.suites('matrix.off'), [])

    def test_mistakes_stop_the_judge(self):
        for case, text in {
                'no required': '[test]\na.x: off\n',
                'skip without its reason': self.REQUIRED + '[test]\na.x\t# off\n',
                'kmemleak not required': self.REQUIRED + '[debug]\nkmemleak = yes\n',
                'no net': '[required]\nsuites = a\nkselftests = k\n',
                'line before a section': 'a.x\n' + self.REQUIRED,
                'section twice': self.REQUIRED + '[test]\n[test]\n',
                'header without its ]': self.REQUIRED + '[test]\na.x: off\n[matrix.rt\nk1\n',
                'unknown key': self.REQUIRED + '[test]\ninclde = debug\n',
                'key twice': self.REQUIRED + '[a]\n[b]\n[matrix.c]\ninclude = a\ninclude = b\n',
                'suites outside a matrix entry': self.REQUIRED + '[debug]\nsuites = a\n',
                'setting without spaces': self.REQUIRED + '[test]\ninclude=debug\n',
                'entry that is no test name': self.REQUIRED + '[test]\nslab bulk.x\n',
                'entry in [required]': self.REQUIRED + 'k3\n',
                'no cases': '[required]\nsuites = a\nkselftests = k\nnet = k\n',
                'empty cases': '[required]\nsuites = a\nkselftests = k\nnet = k\ncases =\n',
                'cases without a count': '[required]\nsuites = a\nkselftests = k\n'
                                         'net = k\ncases = a\n',
                'cases of zero': '[required]\nsuites = a\nkselftests = k\nnet = k\n'
                                 'cases = a:0\n',
        }.items():
            with self.subTest(case), self.assertRaises(ValueError):
                self.read(text)
        e = self.read(self.REQUIRED + '[a]\ninclude = nosuch\n[b]\ninclude = b\n')
        with self.assertRaises(ValueError):
            e.skips('a')
        with self.assertRaises(ValueError):
            e.skips('b')

    def test_each_base_file_reads(self):
        """Both bases' files parse, and every section is a run some
        command makes: a configuration (configs/NAME.config) or a matrix
        entry (scripts/matrix.sh's table); a misspelt one would apply to
        nothing."""
        with open(os.path.join(TOP, 'scripts', 'matrix.sh'), encoding='utf-8') as f:
            table = f.read().split("TABLE='")[1].split("'")[0]
        entries = {line.split()[0] for line in table.splitlines() if line.strip()}
        for base in ('6.12', 'mainline'):
            e = ktap.Expectations(os.path.join(TOP, 'expect', base))
            for name in e.sections:
                with self.subTest(base=base, section=name):
                    if name in ('required', 'leaks'):
                        continue
                    if name.startswith('matrix.'):
                        self.assertIn(name[len('matrix.'):], entries)
                    else:
                        self.assertTrue(os.path.isfile(os.path.join(TOP, 'configs',
                                                                    name + '.config')))
                    e.skips(name)


class StreamTest(unittest.TestCase):
    """ktap_stream.py: the progress printed while a guest runs."""

    def test_shows_progress_and_reports(self):
        import ktap_stream
        out = [l for l in map(ktap_stream.shown, (CLEAN + KASAN).splitlines(True)) if l]
        self.assertIn('  |     # Subtest: slab_bulk', out)
        self.assertIn('  |     ok 1 test_alloc_free_bulk', out)
        self.assertIn('  |     ok 3 test_free_bulk_kfence_mixed # SKIP KFENCE is off', out)
        self.assertIn('  | ok 1 stress', out)
        self.assertIn('  | ==== slab_bulk: done', out)
        self.assertIn('  ! BUG: KASAN: slab-use-after-free in kfree_bulk+0x10/0x20', out)
        self.assertIn('  ! slab_bulk: expect 1 WARNING at cache_from_obj begin: wrong cache',
                      out)
        self.assertNotIn(None, out)
        self.assertFalse(any('Call Trace' in l or 'cut here' in l for l in out), out)


class JudgeTest(unittest.TestCase):
    def judge(self, log, suites=SUITES, skips=SKIPS):
        """The judge's counts, problems and hardware flag for @log; what
        it printed is kept in self.printed."""
        with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
            f.write(log)
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                counts, problems, hardware = ktap.judge(parser, 't', f.name, suites,
                                                        KSELFTESTS, skips,
                                                        tree=source_tree())
        finally:
            os.unlink(f.name)
        self.printed = out.getvalue()
        return counts, problems, hardware

    def assertFails(self, log, what, **kw):
        _, problems, _ = self.judge(log, **kw)
        self.assertTrue(any(what in p for p in problems),
                        f'no problem mentioning {what!r}: {problems}')

    def test_missing_log_fails(self):
        counts, problems, _ = ktap.judge(parser, 't', '/nonexistent/test.log', SUITES,
                                         KSELFTESTS, SKIPS)
        self.assertEqual(problems, ['no console log /nonexistent/test.log: '
                                    'the guest never started'])
        self.assertEqual(counts.passed, 0)

    def test_clean_log_passes(self):
        counts, problems, hardware = self.judge(CLEAN)
        self.assertEqual(problems, [])
        self.assertFalse(hardware)
        self.assertEqual((counts.passed, counts.skipped), (3, 1))

    def test_kernel_message_inside_a_kselftest_line(self):
        # Seen under load: a printk lands inside the kselftest's TAP header
        # and inside a result; both lines must still be read.
        log = CLEAN.replace('TAP version 13\n',
                            'TAP version 13[    2.523032] clocksource: Watchdog'
                            ' remote CPU 1 read timed out\n\n')
        log = log.replace('ok 1 stress\n', 'ok 1 st[    2.6] random: crng init done\n'
                          'ress\n')
        counts, problems, _ = self.judge(log)
        self.assertEqual(problems, [])
        self.assertEqual((counts.passed, counts.skipped), (3, 1))
        # A report spliced in is still a report.
        self.assertFails(log.replace('random: crng init done', KASAN.split('] ', 1)[1].rstrip()),
                         'KASAN')
        self.assertEqual(ktap.unsplice(['# [    1.0] quoted\n', 'ok 1 a\n']),
                         ['# [    1.0] quoted\n', 'ok 1 a\n'])

    def test_mainline_warning_format(self):
        # The same expected report in the format of newer kernels.
        log = CLEAN.replace(
            'WARNING: CPU: 0 PID: 1 at mm/slub.c:4773 kmem_cache_free_bulk+0xf88/0x1060',
            'WARNING: mm/slub.c:4773 at kmem_cache_free_bulk+0xf88/0x1060, CPU#0: swapper/1')
        _, problems, _ = self.judge(log)
        self.assertEqual(problems, [])
        self.assertFails(log.replace('slab_bulk: expect 1 WARNING', 'slab_bulk: expect 2 WARNING'),
                         '1 WARNING reports, expected 2')

    def test_report_inside_expect_window(self):
        log = CLEAN.replace('[    1.000012] ---[ end', KASAN + '[    1.000012] ---[ end')
        self.assertFails(log, 'KASAN')

    def test_second_warning_inside_expect_window(self):
        log = CLEAN.replace('[    1.000013] slab_bulk: expect end',
                            '[    1.000012] WARNING: CPU: 1 PID: 9 at mm/slub.c:1 cache_from_obj+0x5/0x6\n'
                            '[    1.000013] slab_bulk: expect end')
        self.assertFails(log, '2 WARNING reports, expected 1')

    # Each: what the clean log's text becomes, and the problem that must
    # be reported for it.
    BROKEN = {
        # From another function, its message line naming the expected one.
        'warning from elsewhere in a window': (
            'mm/slub.c:4773 kmem_cache_free_bulk', 'mm/page_alloc.c:77 free_pages_bulk',
            '0 WARNING reports, expected 1'),
        'warning from elsewhere in the same file': (
            'mm/slub.c:4773 kmem_cache_free_bulk', 'mm/slub.c:4790 kmem_cache_free_bulk',
            '0 WARNING reports, expected 1'),
        'expected report missing': (
            '[    1.000008] WARNING: CPU: 0 PID: 1 at', '[    1.000008] at',
            '0 WARNING reports, expected 1'),
        'expected kind outside a window': (
            'ok 1 stress\n', '[    3.0] WARNING: CPU: 0 PID: 1 at mm/slub.c:4774 '
            'cache_from_obj+0x50/0x60\nok 1 stress\n', 'report lines'),
        'end marker without a begin': (
            'ok 1 stress\n', 'slab_bulk: expect end\nok 1 stress\n',
            'expect end marker without a begin'),
        'window without an end': ('slab_bulk: expect end', 'x', 'no end marker'),
        'unknown kind': ('expect 1 WARNING at', 'expect 1 WARN at', 'unknown kind WARN'),
        'old marker format': ('expect 1 WARNING at cache_from_obj begin',
                              'expect WARNING begin', 'malformed expect marker'),
        'report in the kmemleak section': (
            '==== slab_bulk: kmemleak end', KASAN + '==== slab_bulk: kmemleak end',
            'report lines'),
        'guest killed at the timeout': ('==== slab_bulk: done\n', 'qemu exit code 124\n',
                                        'killed at the harness timeout'),
        'listed skip that ran': (' # SKIP KFENCE is off', '', 'expected skip did not happen'),
        'unfinished guest': ('==== slab_bulk: done\n', '', 'guest did not finish'),
        'KASAN in the kselftest': ('ok 1 stress\n', KASAN + 'ok 1 stress\n', 'report lines'),
        'failed kselftest': ('ok 1 stress', 'not ok 1 stress', 'kselftest stress did not pass'),
        'RCU stall on this CPU': ('ok 1 stress\n', '[   42.0] rcu: INFO: rcu_sched '
                                  'self-detected stall on CPU\nok 1 stress\n', 'report lines'),
        'RCU stall on another CPU': ('ok 1 stress\n', '[   42.0] rcu: INFO: rcu_preempt '
                                     'detected stalls on CPUs/tasks:\nok 1 stress\n',
                                     'report lines'),
        'RCU expedited stall': ('ok 1 stress\n', '[   42.0] rcu: INFO: rcu_preempt detected '
                                'expedited stalls on CPUs/tasks: {\nok 1 stress\n',
                                'report lines'),
        'RCU tasks stall': ('ok 1 stress\n', '[   42.0] INFO: rcu_tasks detected stalls on '
                            'tasks:\nok 1 stress\n', 'report lines'),
        'hung task': ('ok 1 stress\n', '[  130.0] INFO: task kworker/0:1:12 blocked for more '
                      'than 120 seconds.\nok 1 stress\n', 'report lines'),
        'UBSAN report': ('ok 1 stress\n', '[    9.0] UBSAN: shift-out-of-bounds in '
                         'mm/slub.c:123:4\nok 1 stress\n', 'report lines'),
        # A hang the harness timeout ends still fails for what it printed.
        'stall, then killed at the timeout': (
            'ok 1 stress\n', '[   42.0] rcu: INFO: rcu_sched self-detected stall on CPU\n'
            'qemu exit code 124\n', 'report lines'),
        'kmemleak record': ('==== slab_bulk: kmemleak end',
                            'unreferenced object 0xffff888 (size 64):\n'
                            '==== slab_bulk: kmemleak end', 'kmemleak: 1 leaks'),
    }

    def test_broken_logs_fail(self):
        for case, (old, new, what) in self.BROKEN.items():
            with self.subTest(case):
                self.assertIn(old, CLEAN)
                self.assertFails(CLEAN.replace(old, new), what)

    RUNNER_HEAD = ('TAP version 13\n1..1\n# timeout set to 3600\n'
                   '# selftests: slab_bulk: test_slab_bulk.sh\n')
    RUNNER_OK = 'ok 1 selftests: slab_bulk: test_slab_bulk.sh\n'

    def runner(self, log, result=RUNNER_OK, lost=False):
        """@log with its kselftest output as run_kselftest.sh prints it:
        "# " before each line, between the runner's header and result;
        with @lost, none of it (written where the console is not)."""
        head, rest = log.split('kselftest begin\n', 1)
        body, tail = rest.split('==== slab_bulk: kselftest end', 1)
        inner = '' if lost else ''.join('# ' + l for l in body.splitlines(True))
        return (head + 'kselftest begin\n' + self.RUNNER_HEAD + inner + result +
                '==== slab_bulk: kselftest end' + tail)

    def test_run_kselftest_output(self):
        counts, problems, _ = self.judge(self.runner(CLEAN))
        self.assertEqual(problems, [])
        self.assertEqual((counts.passed, counts.skipped), (3, 1))
        # A kernel message inside one of the runner's lines.
        log = self.runner(CLEAN).replace('# ok 1 stress\n', '# ok 1 st[    2.6] random: '
                                         'crng init done\nress\n')
        counts, problems, _ = self.judge(log)
        self.assertEqual((counts.passed, problems), (3, []))
        # ... and inside the runner's header, as the runner's own "Running
        # tests" message may land.
        log = self.runner(CLEAN).replace('# selftests: slab_bulk: test_slab_bulk.sh\n',
                                         '# selftests: slab_bulk: test_sl[    2.6] kselftest: '
                                         'Running tests in slab_bulk\nab_bulk.sh\n')
        counts, problems, _ = self.judge(log)
        self.assertEqual((counts.passed, problems), (3, []))

    def test_run_kselftest_spliced_skip(self):
        """A kernel message just before a result's "# SKIP": the rest of the
        line has no "# " of the runner, and the skip stays a skip."""
        log = self.runner(CLEAN.replace('ok 1 stress', 'ok 1 stress # SKIP no CPUs'))
        log = log.replace('# ok 1 stress # SKIP no CPUs\n',
                          '# ok 1 stress [    2.6] random: crng init done\n# SKIP no CPUs\n')
        counts, problems, _ = self.judge(log)
        self.assertEqual(counts.skipped, 2)
        self.assertTrue(any('unexpected skip: stress' in p for p in problems), problems)

    def test_run_kselftest_failures(self):
        res = 'selftests: slab_bulk: test_slab_bulk.sh'
        for case, (log, what) in {
                'failed': (self.runner(CLEAN, f'not ok 1 {res} # exit=1\n'), 'exit=1'),
                'timed out': (self.runner(CLEAN, f'not ok 1 {res} # TIMEOUT 3600 seconds\n'),
                              'TIMEOUT'),
                'skipped': (self.runner(CLEAN, f'ok 1 {res} # SKIP\n'), '# SKIP'),
                'xfail': (self.runner(CLEAN, f'ok 1 {res} # XFAIL\n'), '# XFAIL'),
                'no header': (self.runner(CLEAN).replace(
                    '# selftests: slab_bulk: test_slab_bulk.sh\n', ''), 'without its'),
                'no result': (self.runner(CLEAN, ''), 'no result for'),
                'output lost': (self.runner(CLEAN, lost=True), 'kselftest: no results'),
                'failed test inside': (self.runner(CLEAN.replace('ok 1 stress', 'not ok 1 stress')),
                                       'kselftest stress did not pass'),
                'report inside': (self.runner(CLEAN).replace('# ok 1 stress\n',
                                                             '# ok 1 stress\n' + KASAN),
                                  'report lines'),
        }.items():
            with self.subTest(case):
                self.assertFails(log, what)

    def test_failed_case_is_named(self):
        log = CLEAN.replace('    ok 1 test_alloc_free_bulk', '    not ok 1 test_alloc_free_bulk')
        counts, _, _ = self.judge(log)
        self.assertEqual(counts.failed, 1)
        self.assertIn('t: failed tests: slab_bulk.test_alloc_free_bulk', self.printed)

    def test_net_kselftests(self):
        """--kselftests net requires the base's network tests: a log
        without the traffic tests fails."""
        expect = ktap.Expectations(EXPECT_612)
        net = ktap.required_kselftests('net', expect)
        self.assertIn('traffic_udp_virtio_net', net)
        self.assertTrue(set(net) <= set(ktap.required_kselftests(None, expect)))
        with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
            f.write(CLEAN)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                _, problems, _ = ktap.judge(parser, 't', f.name, SUITES, net, SKIPS,
                                             tree=source_tree())
        finally:
            os.unlink(f.name)
        self.assertTrue(any('traffic_tcp_e1000e did not pass' in p for p in problems),
                        problems)

    def test_known_leak_only_when_listed(self):
        """A kmemleak record passes only when it names a listed leak."""
        record = ('==== slab_bulk: kmemleak begin\nunreferenced object 0xffff8880 (size 8):\n'
                  '  backtrace:\n    test_leak_destroy+0x10/0x20\n')
        log = CLEAN.replace('==== slab_bulk: kmemleak begin\n', record)
        self.assertNotEqual(log, CLEAN)
        with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
            f.write(log)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                _, listed, _ = ktap.judge(parser, 't', f.name, SUITES, KSELFTESTS, SKIPS,
                                          {'test_leak_destroy'}, source_tree())
                _, unlisted, _ = ktap.judge(parser, 't', f.name, SUITES, KSELFTESTS, SKIPS,
                                            tree=source_tree())
        finally:
            os.unlink(f.name)
        self.assertEqual(listed, [])
        self.assertTrue(any('kmemleak: 1 leaks' in p for p in unlisted), unlisted)

    def test_kunit_judged_without_required_suites(self):
        """A failed KUnit case fails the run even when no suite is
        required (a configuration that builds none of the series')."""
        log = CLEAN.replace('    ok 1 test_alloc_free_bulk', '    not ok 1 test_alloc_free_bulk')
        counts, _, _ = self.judge(log, suites=[])
        self.assertEqual(counts.failed, 1)
        _, problems, _ = self.judge(KSELFTEST, suites=[])
        self.assertEqual(problems, [])

    def test_kunit_glob(self):
        """make check KUNIT=GLOB: only the suites and KUnit skips GLOB
        matches are required and expected; no kselftest is required,
        and none printed is not a failure."""
        suites, skips = ktap.kunit_glob('slab_*', ['slab_bulk', 'page_bulk'],
                                        {'slab_bulk.a', 'page_bulk.b', 'stress: x'})
        self.assertEqual((suites, skips), (['slab_bulk'], {'slab_bulk.a', 'stress: x'}))
        suites, skips = ktap.kunit_glob('slab_bulk.test_free*', ['slab_bulk'],
                                        {'slab_bulk.test_free_x', 'slab_bulk.test_alloc'})
        self.assertEqual((suites, skips), ([], {'slab_bulk.test_free_x'}))
        kunit_only = KUNIT + '==== slab_bulk: kmemleak begin\n==== slab_bulk: kmemleak end\n' \
            '==== slab_bulk: done\n'
        with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
            f.write(kunit_only)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                counts, problems, _ = ktap.judge(parser, 't', f.name, SUITES, [], SKIPS,
                                                 tree=source_tree())
                _, required, _ = ktap.judge(parser, 't', f.name, SUITES, KSELFTESTS, SKIPS,
                                            tree=source_tree())
        finally:
            os.unlink(f.name)
        self.assertEqual((counts.passed, problems), (2, []))
        self.assertTrue(any('kselftest: no results' in p for p in required), required)

    def test_empty_kunit_plan_without_required_suites(self):
        """KUnit with no suite built prints "1..0": a pass when no suite
        is required, a failure when one is."""
        empty = '[    1.0] KTAP version 1\n[    1.0] 1..0\n' + KSELFTEST
        _, problems, _ = self.judge(empty, suites=[], skips=set())
        self.assertEqual(problems, [])
        self.assertFails(empty, 'suite slab_bulk did not run')

    def test_narrowed_verdict_says_so(self):
        line = ktap.verdict_line(parser.TestCounts(), [('test', parser.TestCounts(), [], False)],
                                 {'test': 't.log'}, ' (KUNIT=page_bulk only)')
        self.assertTrue(line.startswith('check: PASS (KUNIT=page_bulk only): '), line)

    def test_missing_suite(self):
        self.assertFails(CLEAN, 'suite page_bulk did not run', suites=SUITES + ['page_bulk'])

    def test_required_kselftest_skip(self):
        """A required kselftest may skip where its skip is listed, and
        nowhere else."""
        log = CLEAN.replace('ok 1 stress', 'ok 1 stress: no slabinfo # SKIP')
        _, problems, _ = self.judge(log, skips=SKIPS | {'stress'})
        self.assertEqual(problems, [])
        self.assertFails(log, 'kselftest stress did not pass')

    def test_skip_listed_with_its_reason(self):
        """An entry "name: reason" takes a skip for that reason only."""
        listed = SKIPS | {'stress: no slabinfo'}
        log = CLEAN.replace('ok 1 stress', 'ok 1 stress: no slabinfo here # SKIP')
        _, problems, _ = self.judge(log, skips=listed)
        self.assertEqual(problems, [])
        log = CLEAN.replace('ok 1 stress', 'ok 1 stress: needs two CPUs # SKIP')
        self.assertFails(log, 'unexpected skip: stress: needs two CPUs', skips=listed)
        self.assertFails(log, 'kselftest stress did not pass', skips=listed)

    def test_unexpected_skip(self):
        self.assertFails(CLEAN, 'unexpected skip: slab_bulk.test_free_bulk_kfence_mixed',
                         skips=set())

    def test_hardware_not_set_up(self):
        log = CLEAN.replace('[    1.000000] KTAP', '[    0.500000] ACPI Error: Aborting method '
                            '\\_SB.PCI0._PRT due to previous error (AE_AML_LOOP_TIMEOUT)\n'
                            '[    1.000000] KTAP')
        _, problems, hardware = self.judge(log)
        self.assertTrue(hardware)
        self.assertTrue(any('guest hardware not set up' in p for p in problems))

    def test_nic_without_interrupt(self):
        log = CLEAN.replace('ok 1 stress\n', '# hardware: eth0 got no interrupt (irqs: 16 )\n'
                            'ok 1 stress\n')
        self.assertTrue(self.judge(log)[2])



class CostmodelJudgeTest(unittest.TestCase):
    """The costmodel boot: its known answers are tests, and its console is
    judged for reports like any other (expect windows included)."""
    DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'test_data', 'costmodel')
    CONSOLE = open(os.path.join(DATA, 'console.log')).read()
    WINDOW = ('[    1.000006] slab_bulk: expect 1 WARNING at cache_from_obj begin: wrong cache\n'
              '[    1.000008] WARNING: CPU: 0 PID: 1 at mm/slub.c:4773 '
              'kmem_cache_free_bulk+0xf88/0x1060\n'
              '[    1.000013] slab_bulk: expect end\n')

    def judge(self, console):
        with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
            f.write(console)
        self.addCleanup(os.unlink, f.name)
        with contextlib.redirect_stdout(io.StringIO()):
            return ktap.judge_costmodel(parser, 'costmodel', f.name,
                                        os.path.join(self.DATA, 'plugin.log'), source_tree())

    def test_missing_console_fails(self):
        counts, problems, _ = ktap.judge_costmodel(parser, 'costmodel', '/nonexistent/c.log',
                                                   os.path.join(self.DATA, 'plugin.log'))
        self.assertEqual((counts.passed, len(problems)), (0, 1))
        self.assertIn('the guest never started', problems[0])

    def test_real_boot_passes(self):
        counts, problems, _ = self.judge(self.CONSOLE)
        self.assertEqual((counts.failed, problems), (0, []))
        # 17 cases of the module's costmodel suite and costmark's all_nops.
        self.assertEqual(counts.passed, 21)

    def test_expected_report_passes(self):
        counts, problems, _ = self.judge(self.WINDOW + self.CONSOLE)
        self.assertEqual(problems, [])

    def test_report_outside_a_window_fails(self):
        _, problems, _ = self.judge(KASAN + self.CONSOLE)
        self.assertTrue(any('report lines' in p for p in problems), problems)

    def test_suite_that_failed_fails(self):
        _, problems, _ = self.judge(self.CONSOLE.replace('end rc=0', 'end rc=1'))
        self.assertTrue(any('rc=0' in p for p in problems), problems)

    def test_wrong_count_fails(self):
        counts, _, _ = self.judge(self.CONSOLE.replace('case=lru variant=none n=3 objs=48 '
                                                       'sections=16', 'case=lru variant=none '
                                                       'n=3 objs=48 sections=15'))
        self.assertGreater(counts.failed, 0)


class SourceLookupTest(unittest.TestCase):
    """inside_function(): a report's FILE:LINE against a function's body."""

    def test_prototype_is_not_a_body(self):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        os.makedirs(os.path.join(d.name, 'mm'))
        with open(os.path.join(d.name, 'mm', 'slub.c'), 'w') as f:
            f.write('static void cache_from_obj(struct kmem_cache *s,\n'   # 1
                    '\t\tvoid *x);\n'                                     # 2
                    'void other(void)\n{\n\tx;\n}\n'                    # 3-6
                    'static void cache_from_obj(struct kmem_cache *s,\n'   # 7
                    '\t\tvoid *x)\n{\n\tx;\n}\n')                     # 8-11
        at = 'WARNING: CPU: 0 PID: 1 at mm/slub.c:%d other+0x1/0x2'
        self.assertFalse(ktap.inside_function(d.name, 'cache_from_obj', at % 5))
        self.assertTrue(ktap.inside_function(d.name, 'cache_from_obj', at % 10))
        self.assertFalse(ktap.inside_function(None, 'cache_from_obj', at % 10))


class RecordedConsoleTest(unittest.TestCase):
    """A debug boot of the 6.12 series as make check recorded it (KUnit,
    the kselftest without network tests, kmemleak), judged against
    expect/6.12's debug run, and edited copies of it, each a failure
    that must not pass."""

    def setUp(self):
        import lzma
        with lzma.open(os.path.join(DATA, 'check-6.12-debug', 'console.log.xz'), 'rt') as f:
            self.console = f.read()
        self.expect = ktap.Expectations(EXPECT_612)

    def judge(self, log):
        e = self.expect
        required = [k for k in e.required('kselftests') if k not in e.required('net')]
        with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
            f.write(log)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                return ktap.judge(parser, 'debug', f.name, e.suites('debug'), required,
                                  e.skips('debug'), e.known_leaks(), source_tree(),
                                  e.kmemleak('debug'), e.cases())
        finally:
            os.unlink(f.name)

    def assertFails(self, old, new, what, count=1):
        self.assertEqual(self.console.count(old), count, old)
        _, problems, _ = self.judge(self.console.replace(old, new))
        self.assertTrue(any(what in p for p in problems),
                        f'no problem mentioning {what!r}: {problems}')

    def test_recorded_console_passes(self):
        counts, problems, _ = self.judge(self.console)
        self.assertEqual(problems, [])
        self.assertEqual((counts.passed, counts.failed, counts.skipped), (77, 0, 3))

    def test_warning_of_another_function_fails(self):
        # The message line still names cache_from_obj(): the WARNING's own
        # line is from elsewhere.
        self.assertFails('at ../../linux/mm/slub.c:4758 bulk_free_array+0x895/0x930',
                         'at ../../linux/mm/page_alloc.c:2660 free_pages_bulk+0x95/0x930',
                         '0 WARNING reports, expected 1')
        self.assertFails('at ../../linux/mm/slub.c:4758 bulk_free_array+0x895/0x930',
                         'at ../../linux/mm/slub.c:4790 bulk_free_array+0x895/0x930',
                         '0 WARNING reports, expected 1')

    def test_no_kmemleak_section_fails(self):
        head, rest = self.console.split('==== slab_bulk: kmemleak begin\n')
        tail = rest.split('==== slab_bulk: kmemleak end\n')[1]
        _, problems, _ = self.judge(head + tail)
        self.assertIn('kmemleak: no scan (no kmemleak section)', problems)

    def test_kmemleak_never_initialised_fails(self):
        self.assertFails('kmemleak: Kernel memory leak detector initialized',
                         'kmemleak: Kernel memory leak detector', 'kmemleak: never initialised')

    def test_skip_for_another_reason_fails(self):
        self.assertFails('# SKIP KASAN reports double frees itself', '# SKIP out of memory',
                         'unexpected skip: slab_bulk.test_double_free_in_bulk_caught: '
                         'out of memory')

    def test_case_compiled_out_fails(self):
        # slab_bulk's last case gone and its plan shortened to match, as
        # a case under an #ifdef the configuration lacks would leave it.
        log = self.console.replace('# module: slab_bulk_kunit\n[   15.728155]     1..18\n',
                                   '# module: slab_bulk_kunit\n[   15.728155]     1..17\n')
        self.assertNotEqual(log, self.console)
        line = '[   18.963900]     ok 18 test_alloc_bulk_gfp_kernel_irqs_disabled\n'
        self.assertEqual(log.count(line), 1)
        _, problems, _ = self.judge(log.replace(line, ''))
        self.assertIn('suite slab_bulk: 17 cases, expected 18', problems)

    def test_duplicated_test_names_fail(self):
        self.assertFails('# ok 2 alloc_bulk_fail_halfway', '# ok 2 cross_cpu_bulk_free',
                         'kselftest: more than one test named cross_cpu_bulk_free')
        self.assertFails('ok 4 test_size_zero', 'ok 4 test_free_bulk_shuffled',
                         'kunit: more than one test named slab_bulk.test_free_bulk_shuffled')

    def test_lines_that_come_alone_fail(self):
        for line in ('list_del corruption. prev->next should be ffff888104000000, but was '
                     'dead000000000100. (prev=ffff888104001000)',
                     'watchdog: Watchdog detected hard LOCKUP on cpu 1',
                     'test_slab_bulk.[412]: segfault at 0 ip 000055d0 sp 00007ffd error 4'):
            with self.subTest(line):
                self.assertFails('# ok 3 alloc_pages_bulk_fail\n',
                                 f'[   29.1] {line}\n# ok 3 alloc_pages_bulk_fail\n',
                                 'report lines')


class VerdictTest(unittest.TestCase):
    """The last line of make check: PASS only when nothing went wrong;
    failed tests, other problems and hardware each said apart, with the
    log of each run that had one."""
    LOGS = {'test': 'build/check/test.log', 'debug': 'build/check/debug.log'}

    def counts(self, passed=0, failed=0, skipped=0):
        c = parser.TestCounts()
        c.passed, c.failed, c.skipped = passed, failed, skipped
        return c

    def line(self, results):
        total = parser.TestCounts()
        for _, c, _, _ in results:
            total.add_subtest_counts(c)
        return ktap.verdict_line(total, results, self.LOGS)

    def test_pass(self):
        line = self.line([('test', self.counts(5, 0, 1), [], False)])
        self.assertEqual(line, 'check: PASS: 5 passed, 0 failed, 1 skipped')

    def test_failed_test_names_its_log(self):
        line = self.line([('test', self.counts(5), [], False),
                          ('debug', self.counts(4, 1), [], False)])
        self.assertTrue(line.startswith('check: FAIL: 9 passed, 1 failed'), line)
        self.assertIn('1 tests failed', line)
        self.assertIn('debug (build/check/debug.log)', line)
        self.assertNotIn('test (', line)

    def test_problem_without_failed_test_fails(self):
        line = self.line([('test', self.counts(5), ['1 report lines, first: BUG'], False)])
        self.assertTrue(line.startswith('check: FAIL:'), line)
        self.assertIn('1 other problems', line)
        self.assertNotIn('tests failed', line)

    def test_hardware_is_named(self):
        line = self.line([('debug', self.counts(), ['e1000e: no interrupt'], True)])
        self.assertTrue(line.startswith('check: FAIL:'), line)
        self.assertIn('hardware not set up: debug', line)

    def test_crashed_test_fails(self):
        c = self.counts(5)
        c.crashed = 1
        line = self.line([('test', c, [], False)])
        self.assertTrue(line.startswith('check: FAIL:'), line)
        self.assertEqual(ktap.exit_code([('test', c, [], False)]), 1)

    def test_exit_codes(self):
        ok = ('test', self.counts(5), [], False)
        failed = ('test', self.counts(4, 1), [], False)
        hardware = ('debug', self.counts(), ['e1000e: no interrupt'], True)
        self.assertEqual(ktap.exit_code([ok]), 0)
        self.assertEqual(ktap.exit_code([ok, failed]), 1)
        self.assertEqual(ktap.exit_code([ok, hardware]), 3)
        # A real failure beside a hardware one is a failure.
        self.assertEqual(ktap.exit_code([failed, hardware]), 1)


if __name__ == '__main__':
    tree = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get('TREE', '.')
    if not os.path.isfile(os.path.join(tree, 'tools/testing/kunit/kunit_parser.py')):
        raise SystemExit(f'test_ktap.py: no tools/testing/kunit/kunit_parser.py in {tree!r}: '
                         'give the kernel tree, as in "python3 scripts/test_ktap.py '
                         'build/linux" (make tree makes it)')
    sys.path.insert(0, tree + '/tools/testing/kunit')
    import kunit_parser
    parser = kunit_parser
    unittest.main(verbosity=1)
