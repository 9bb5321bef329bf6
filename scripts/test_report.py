#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of report.py and layouts.py: figures over layout seeds, a
repeat that disagrees fails, a row missing from a seed fails, a console
without the plugin's counts fails, the gates fail what they must, and the
tables put base and series side by side."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import costmodel  # noqa: E402
import layouts  # noqa: E402

REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'report.py')


# The series' module is test_slab_bulk_bench; the bench base kernel's, before
# the split, test_slab_bulk: the report reads both.
MODULE = {'base': 'test_slab_bulk', 'series': 'test_slab_bulk_bench'}


def line(kernel, case, cycles):
    return (f'{MODULE[kernel]}: bench suite=slab_free case={case} variant=bulk n=32 objs=3200 '
            f'sections=100 ticked=0 cycles={cycles} free_slowpath=10 free_fastpath=3190 '
            'alloc_slowpath=0 alloc_fastpath=0\n')


CALIB = ('test_slab_bulk: bench suite=calib case=empty variant=none n=1 objs=100 '
         'sections=100 ticked=0 cycles=2000 free_slowpath=-1 free_fastpath=-1 '
         'alloc_slowpath=-1 alloc_fastpath=-1\n')


# The kselftest's pktgen line: no cost_seq, the module did not time it.
PKTGEN = ('test_slab_bulk: bench suite=pktgen case=fresh variant=e1000e n=1 '
          'objs=1000000 sections=1 ticked=0 cycles=900000000 free_slowpath=-1 '
          'free_fastpath=-1 alloc_slowpath=-1 alloc_fastpath=-1\n')


def write_consoles(out, consoles):
    """Writes run 1 of each kernel's console ({kernel: text}) into @out;
    returns the report.py arguments."""
    logs = []
    for kernel, text in consoles.items():
        path = os.path.join(out, f'{kernel}-run1.log')
        with open(path, 'w') as f:
            f.write(text)
        logs.append(f'{kernel}:1={path}')
    return logs


RESULT = re.compile(r'^(.*bench suite=(\S+) .* alloc_fastpath=-?\d+)(?: cost_seq=\d+)?(.*)$')


# The plugin's first line, the cache model it simulated.
GEOMETRY = 'costmodel: l1d 32768 B 8-way, l2 1048576 B 16-way, 64-byte lines, LRU, 2 vCPUs'


def give_plugin_counts(path):
    """For a console @path that has no plugin report beside it (or one
    of an earlier console of that name), as most of these cases' inline
    consoles: numbers its module result lines from
    0 (cost_seq, one load) and writes the report the plugin would give,
    the line's cycles as instructions and nothing else counted. report.py
    fails a console without the plugin's counts."""
    plugin = path[:-len('.log')] + '.costmodel'
    with open(path) as f:
        console = f.read()
    if not path.endswith('.log') or (os.path.exists(plugin) and 'cost_seq=' in console):
        return
    out, reports = [], [GEOMETRY, 'costmodel: begin']
    for text in console.split('\n'):
        m = RESULT.match(text)
        if m and m.group(2) not in ('pktgen', 'traffic'):
            seq = len(reports) - 2
            sections = int(re.search(r' sections=(\d+)', text).group(1))
            cycles = int(re.search(r' cycles=(\d+)', text).group(1))
            text = f'{m.group(1)} cost_seq={seq}{m.group(3)}'
            reports.append(f'costmodel: seq={seq} sections={sections} unbalanced=0 '
                           f'insns={cycles} mem=0 io=0 atomics=0 l1d_miss=0 l2_miss=0 xfer=0')
        out.append(text)
    with open(path, 'w') as f:
        f.write('\n'.join(out))
    with open(plugin, 'w') as f:
        f.write('\n'.join(reports) + '\n')


def report(out, logs, plugin=True):
    """Runs report.py on @logs (KERNEL:SEED=PATH and options) into @out,
    the plugin's counts given to each console that lacks them unless
    @plugin is False; returns the process and report.md's text ('' when it
    wrote none)."""
    if plugin:
        for spec in logs:
            if '=' in spec and ':' in spec.split('=')[0]:
                give_plugin_counts(spec.split('=', 1)[1])
    proc = subprocess.run([sys.executable, REPORT, '--out', out, '--base-version', 'v',
                           '--config', '/dev/null'] + logs,
                          capture_output=True, text=True)
    md = os.path.join(out, 'report.md')
    if not os.path.exists(md):
        return proc, ''
    with open(md) as f:
        return proc, f.read()


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.n = 0

    def mkdtemp(self):
        """A directory of this case's, removed when it ends."""
        self.n += 1
        path = os.path.join(self.tmp, str(self.n))
        os.mkdir(path)
        return path

    def run_report(self, cycles_by_seed, repeat=None):
        """Each kernel's seq row, one seed a value of @cycles_by_seed; with
        @repeat, seed 1 of the series booted again with those cycles."""
        out = self.mkdtemp()
        logs = []
        for seed, cycles in enumerate(cycles_by_seed, 1):
            for kernel in ('base', 'series'):
                path = os.path.join(out, f'{kernel}-layout{seed}.log')
                with open(path, 'w') as f:
                    f.write(CALIB + line(kernel, 'seq', cycles))
                logs.append(f'{kernel}:{seed}={path}')
        if repeat is not None:
            path = os.path.join(out, 'series-layout1-repeat.log')
            with open(path, 'w') as f:
                f.write(CALIB + line('series', 'seq', repeat))
            logs.append(f'series:1={path}')
        proc, _ = report(out, logs)
        with open(os.path.join(out, 'bench.json')) as f:
            return proc, json.load(f)

    def test_seeds_are_samples(self):
        # Seeds 20 % apart are samples of the layouts, not a failure.
        proc, bench = self.run_report([300000, 360000])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(bench['layouts'], [1, 2])
        self.assertEqual(sorted({r['layout'] for r in bench['records']}), [1, 2])
        self.assertEqual(sorted({r['kernel'] for r in bench['records']
                                 if r['suite'] == 'slab_free'}), ['base', 'series'])

    def test_verdict_line(self):
        """make bench ends with one line: PASS or FAIL, the seeds, the rows
        and gate checks, and every problem."""
        proc, _ = self.run_report([300000, 301000])
        last = proc.stdout.strip().splitlines()[-1]
        self.assertEqual(last, 'bench: PASS: 2 layout seeds a kernel, 1 rows, 0 gate checks')
        # A row of seed 1 that seed 2 lacks.
        out = self.mkdtemp()
        logs = []
        for seed, cases in ((1, ('seq', 'rand')), (2, ('seq',))):
            for kernel in ('base', 'series'):
                path = os.path.join(out, f'{kernel}-layout{seed}.log')
                with open(path, 'w') as f:
                    f.write(CALIB + ''.join(line(kernel, c, 300000) for c in cases))
                logs.append(f'{kernel}:{seed}={path}')
        proc, _ = report(out, logs)
        self.assertNotEqual(proc.returncode, 0)
        last = proc.stdout.strip().splitlines()[-1]
        self.assertTrue(last.startswith('bench: FAIL:'), last)
        self.assertIn('2 rows lack a figure in some seed: base: slab_free/rand/bulk/32: no '
                      'figure in seed 2', last)

    def test_repeat_that_disagrees_fails(self):
        proc, bench = self.run_report([300000, 360000], repeat=360000)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('a repeated boot differs by', proc.stderr)
        self.assertIn('not repeatable', proc.stderr)
        self.assertEqual(len([r for r in bench['records'] if r.get('repeat')
                              and r['suite'] == 'slab_free']), 1)
        proc, _ = self.run_report([300000, 360000], repeat=300000)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_table_medians_take_every_seed(self):
        # A field without a value in the first seed is the others' median.
        import report  # noqa: E402
        rs = [rec('base', s, 'rand', 'loop', v, v) for s, v in ((1, None), (2, 5.0), (3, 6.0))]
        self.assertEqual(report.median_records(rs)[0]['insn_per_obj'], 5.5)

    def test_console_without_plugin_fails(self):
        out = self.mkdtemp()
        logs = write_consoles(out, {k: CALIB + line(k, 'seq', 300000)
                                    for k in ('base', 'series')})
        give_plugin_counts(logs[0].split('=', 1)[1])
        proc, _ = report(out, logs, plugin=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('series:1', proc.stderr)
        self.assertIn('no costmodel plugin counts beside it', proc.stderr)
        self.assertIn("1 rows without the plugin's counts, first slab_free/seq/bulk/32",
                      proc.stderr)
        self.assertNotIn('base:1', proc.stderr)

    def test_plugin_of_another_or_no_geometry_fails(self):
        for old, new, what in ((GEOMETRY, GEOMETRY.replace('8-way', '16-way'),
                                'not the cache the weights and known answers assume'),
                               (GEOMETRY + '\n', '', 'no stated cache')):
            with self.subTest(what):
                out = self.mkdtemp()
                logs = write_consoles(out, {k: CALIB + line(k, 'seq', 300000)
                                            for k in ('base', 'series')})
                for spec in logs:
                    give_plugin_counts(spec.split('=', 1)[1])
                plugin = logs[1].split('=', 1)[1][:-len('.log')] + '.costmodel'
                with open(plugin) as f:
                    text = f.read()
                self.assertEqual(text.count(old), 1)
                with open(plugin, 'w') as f:
                    f.write(text.replace(old, new))
                proc, _ = report(out, logs, plugin=False)
                self.assertNotEqual(proc.returncode, 0)
                self.assertIn('series:1', proc.stderr)
                self.assertIn(what, proc.stderr)
                self.assertNotIn('base:1', proc.stderr)

    def test_console_of_another_layout_fails(self):
        out = self.mkdtemp()
        held = 'test_slab_bulk: bench layout={}: holding 4096 of 8192 kmalloc objects\n'
        logs = write_consoles(out, {'base': held.format(1) + CALIB + line('base', 'seq', 1),
                                    'series': CALIB + line('series', 'seq', 1)})
        proc, _ = report(out, logs + ['--suites', 'calib,slab_free'])
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('no "bench layout=1" line', proc.stderr)
        self.assertNotIn('base:1 (', proc.stderr)
        logs = write_consoles(out, {k: held.format(2) + CALIB + line(k, 'seq', 1)
                                    for k in ('base', 'series')})
        proc, _ = report(out, logs + ['--suites', 'calib,slab_free'])
        self.assertIn('started from layout [2], not 1', proc.stderr)

    def test_results_without_calib_fail(self):
        out = self.mkdtemp()
        path = os.path.join(out, 'base-run1.log')
        with open(path, 'w') as f:
            f.write(line('base', 'seq', 300000))
        proc, _ = report(out, [f'base:1={path}'])
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("calib's empty section", proc.stderr)

    def test_suite_that_failed_fails(self):
        # A suite that ended with rc=1 (as traffic did on two vCPUs) or
        # never ended left its rows out: the report says so and fails.
        out = self.mkdtemp()
        logs = []
        for kernel, tail in (('base', '==== slab_bulk: bench traffic begin\n'
                                      '==== slab_bulk: bench traffic end rc=1\n'),
                             ('series', '==== slab_bulk: bench traffic begin\n')):
            path = os.path.join(out, f'{kernel}-run1.log')
            with open(path, 'w') as f:
                f.write('==== slab_bulk: bench calib begin\n' + CALIB + line(kernel, 'seq', 300000)
                        + '==== slab_bulk: bench calib end rc=0\n' + tail)
            logs.append(f'{kernel}:1={path}')
        proc, md = report(out, logs)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('base:1', proc.stderr)
        self.assertIn('bench traffic rc=1', proc.stderr)
        self.assertIn('bench traffic: no end', proc.stderr)
        self.assertIn('slab_free', md)
        # A suite asked for that never began (the guest died before it).
        proc, _ = report(out, ['--parts', 'bench calib,bench pktgen'] + logs)
        self.assertIn('base:1 (' + os.path.join(out, 'base-run1.log') + '): bench pktgen: '
                      'never began', proc.stderr)
        self.assertNotIn('bench calib: never began', proc.stderr)

    def test_traffic_rows_compare_medians(self):
        out = self.mkdtemp()
        logs = []
        # Runs 20 % apart do not fail: the table compares the medians.
        cycles = {'base': (2000020, 2400020, 2100020), 'series': (1800020, 1900020, 2300020)}
        for kernel in ('base', 'series'):
            for run, c in enumerate(cycles[kernel], 1):
                path = os.path.join(out, f'{kernel}-run{run}.log')
                with open(path, 'w') as f:
                    f.write(CALIB + 'test_slab_bulk: bench suite=traffic case=udp '
                            f'variant=virtio_net n=1 objs=1000 sections=1 ticked=0 cycles={c} '
                            'free_slowpath=-1 free_fastpath=-1 alloc_slowpath=-1 '
                            'alloc_fastpath=-1\n')
                logs.append(f'{kernel}:{run}={path}')
        proc, md = report(out, logs)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('| virtio_net | udp | 2000.0 / 2400.0 / 2100.0 | 1800.0 / 1900.0 / '
                      '2300.0 | 2100.0 | 1900.0 | 0.905 |', md)

    def test_share_rows(self):
        out = self.mkdtemp()
        # The base kernel has no free_bulk_objects: its share is not counted.
        counts = {'base': ('1000', '-1'), 'series': ('1000', '600')}
        proc, md = report(out, write_consoles(out, {
            kernel: CALIB + 'test_slab_bulk: bulk_share suite=traffic case=tcp '
            'variant=e1000e cache=skbuff_fclone_cache '
            f'allocs={counts[kernel][0]} bulk_objects={counts[kernel][1]}\n'
            + line(kernel, 'seq', 300000) for kernel in ('base', 'series')}))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('| e1000e | tcp | skbuff_fclone_cache | - | - of 1000 | 0.600 | '
                      '600 of 1000 |', md)

    @staticmethod
    def write_run(out, kernel, console, plugin_rows):
        """One run of @kernel: its console log and its plugin report (the
        empty section first, cost_seq 0); returns the report.py argument."""
        path = os.path.join(out, f'{kernel}-run1.log')
        with open(path, 'w') as f:
            f.write(CALIB.replace('\n', ' cost_seq=0\n') + console)
        with open(os.path.join(out, f'{kernel}-run1.costmodel'), 'w') as f:
            f.write(GEOMETRY + '\ncostmodel: begin\n'
                    'costmodel: seq=0 sections=100 unbalanced=0 insns=1700 mem=1000 '
                    'io=0 atomics=0 l1d_miss=0 l2_miss=0 xfer=0\n' + plugin_rows)
        return f'{kernel}:1={path}'

    def cost_logs(self, out, series_atomics=3300, series_sections=100):
        """Console and plugin logs of one run of each kernel: calib's empty
        section (cost_seq 0) and one slab_free row (cost_seq 1)."""
        logs = []
        for kernel in ('base', 'series'):
            atomics = series_atomics if kernel == 'series' else 6600
            sections = series_sections if kernel == 'series' else 100
            # The kselftest's pktgen line has no cost_seq: not paired.
            logs.append(self.write_run(
                out, kernel,
                line(kernel, 'seq', 300000).replace('\n', ' cost_seq=1\n') + PKTGEN,
                f'costmodel: seq=1 sections={sections} unbalanced=0 insns=321700 '
                f'mem=64000 io=0 atomics={atomics} l1d_miss=3200 l2_miss=320 '
                'xfer=32\n'))
        return logs

    def test_cost_columns(self):
        out = self.mkdtemp()
        proc, md = report(out, self.cost_logs(out))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out, 'bench.json')) as f:
            rows = {r['kernel']: r for r in json.load(f)['records']
                    if r['suite'] == 'slab_free'}
        # The raw counts are kept; per object, the empty section's are
        # subtracted: (321700 - 100 x 17) / 3200 = 100 instructions.
        self.assertEqual(rows['series']['cost']['atomics'], 3300)
        self.assertAlmostEqual(rows['series']['cost_insn_per_obj'], 100.0)
        self.assertAlmostEqual(rows['series']['atomics_per_obj'], 3300 / 3200)
        self.assertAlmostEqual(rows['base']['atomics_per_obj'], 6600 / 3200)
        w = costmodel.WEIGHTS
        cycles = {k: 100 + (a / 3200) * w['atomics'] + 1.0 * w['l1d_miss']
                  + 0.1 * w['l2_miss'] + 0.01 * w['xfer'] for k, a in
                  (('base', 6600), ('series', 3300))}
        self.assertAlmostEqual(rows['series']['cycles_per_obj'], cycles['series'])
        self.assertIn(f'| slab_free | seq | bulk | 32 | 100.0 | {6600 / 3200:.2f} | 1.00 | '
                      f'0.10 | 0.01 | {cycles["base"]:.2f} | 100.0 | {3300 / 3200:.2f} | '
                      f'1.00 | 0.10 | 0.01 | {cycles["series"]:.2f} | 1.000 | '
                      f'{cycles["series"] / cycles["base"]:.3f} | - | - |', md)

    def test_alt_kernel_columns(self):
        # BENCH_ALT's third kernel gets its own columns and series / alt.
        out = self.mkdtemp()
        logs = self.cost_logs(out)
        logs.append(self.write_run(
            out, 'alt', line('series', 'seq', 300000).replace('\n', ' cost_seq=1\n')
            + PKTGEN,
            'costmodel: seq=1 sections=100 unbalanced=0 insns=641700 mem=64000 io=0 '
            'atomics=3300 l1d_miss=3200 l2_miss=320 xfer=32\n'))
        proc, md = report(out, logs)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('alt insn', md)
        # Series 100 instructions an object, alt (641700 - 1700) / 3200 = 200.
        row = next(x for x in md.splitlines() if x.startswith('| slab_free | seq | bulk | 32 |'))
        self.assertEqual(row.split(' | ')[-2], '0.500', row)
        header = next(x for x in md.splitlines() if x.startswith('| suite | case | variant | n | base insn'))
        self.assertEqual(header.count('|'), row.count('|'), (header, row))

    def test_sheaf_counters(self):
        # Counters after cost_seq are per object; -1 (SLUB_STATS off) is "-".
        out = self.mkdtemp()
        names = ('sheaf_alloc', 'sheaf_free', 'barn_put', 'barn_put_fail', 'sheaf_flush')
        counts = {'base': '-1 -1 -1 -1 -1', 'series': '100 0 64 0 32'}
        proc, md = report(out, write_consoles(out, {
            kernel: CALIB + line(kernel, 'seq', 300000).replace(
                '\n', ' cost_seq=1 ' + ' '.join(
                    f'{c}={v}' for c, v in zip(names, counts[kernel].split())) + '\n')
            for kernel in counts}))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('| slab_free | seq | bulk | 32 | - | - | - | - | - | 0.0312 | 0.0000 | '
                      '0.0200 | 0.0000 | 0.0100 |', md)

    def test_no_sheaf_counters_no_sheaf_table(self):
        # Kernels that print no counters after cost_seq (6.12) get no table.
        out = self.mkdtemp()
        proc, md = report(out, self.cost_logs(out))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn('### sheaves', md)

    def test_traffic_rows_from_whole_machine_counts(self):
        # A stream wrapped in costmark's marks: its packet line pairs with
        # a report of its own load (cost_seq=0 after a begin); the per-byte
        # line shares the packet line's counts.
        out = self.mkdtemp()
        logs = []
        for kernel, insns in (('base', 2000017), ('series', 1800017)):
            console = ''.join(
                f'test_slab_bulk: bench suite=traffic case={case} variant=e1000e n=1 '
                f'objs={objs} sections=1 ticked=0 cycles=999 free_slowpath=-1 '
                f'free_fastpath=-1 alloc_slowpath=-1 alloc_fastpath=-1{seq}\n'
                for case, objs, seq in (('tcp', 1000, ' cost_seq=0'), ('tcp_byte', 100000, '')))
            logs.append(self.write_run(
                out, kernel, console,
                f'{GEOMETRY}\ncostmodel: begin\ncostmodel: seq=0 sections=1 unbalanced=0 '
                f'insns={insns} '
                'mem=0 io=0 atomics=1000 l1d_miss=0 l2_miss=0 xfer=0\n'))
        proc, md = report(out, logs)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # (2000017 - 17) / 1000 instructions a packet, + 20 x 1 atomic.
        self.assertIn('| e1000e | tcp | 2000.0 | 1800.0 | 2000.0 | 1800.0 | 0.900 | '
                      '2020.0 | 1820.0 | 2020.0 | 1820.0 | 0.901 |', md)
        self.assertIn('| e1000e | tcp_byte | 20.00 | 18.00 | 20.00 | 18.00 | 0.900 | '
                      '20.20 | 18.20 | 20.20 | 18.20 | 0.901 |', md)

    def test_bulk_against_loop(self):
        # The series' bulk row against its own loop row of the same case:
        # (321700 - 100 x 17) / 3200 = 100 against (641700 - 1700) / 3200 =
        # 200 instructions, and cycles with the loop's counts doubled.
        out = self.mkdtemp()
        logs = [self.write_run(
            out, kernel,
            line(kernel, 'seq', 300000).replace('\n', ' cost_seq=1\n')
            + line(kernel, 'seq', 600000).replace('variant=bulk', 'variant=loop')
            .replace('\n', ' cost_seq=2\n'),
            'costmodel: seq=1 sections=100 unbalanced=0 insns=321700 '
            'mem=64000 io=0 atomics=3200 l1d_miss=0 l2_miss=0 xfer=0\n'
            'costmodel: seq=2 sections=100 unbalanced=0 insns=641700 '
            'mem=64000 io=0 atomics=6400 l1d_miss=0 l2_miss=0 xfer=0\n')
            for kernel in ('base', 'series')]
        proc, md = report(out, logs)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        w = costmodel.WEIGHTS['atomics']
        ratio = (100 + w) / (200 + 2 * w)
        self.assertIn(f'| 1.000 | 1.000 | 0.500 | {ratio:.3f} |', md)
        # The loop row itself has no bulk/loop figure.
        self.assertIn('| slab_free | seq | loop | 32 |', md)
        loop_line = next(l for l in md.splitlines() if l.startswith('| slab_free | seq | loop | 32 |'))
        self.assertTrue(loop_line.endswith('| - | - |'), loop_line)

    def test_rcuscale_runs_that_differ(self):
        # Two runs that agree need no third; two that differ do.
        for times, asked in (((20000000, 20000000), False), ((20000000, 21000000), True)):
            out = self.mkdtemp()
            logs = []
            for run, t in enumerate(times, 1):
                for kernel in ('base', 'series'):
                    path = os.path.join(out, f'{kernel}-run{run}.log')
                    with open(path, 'w') as f:
                        f.write(CALIB + line(kernel, 'seq', 300000)
                                + f'rcuscale case=fixed {t} ns, loops: 8, batches: 2, '
                                'memory footprint: 1MB\n')
                    logs.append(f'{kernel}:{run}={path}')
            proc, md = report(out, logs)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn('kfree_rcu: rcuscale', md)
            self.assertEqual('a median needs BENCH_LAYOUTS=3' in md, asked, md)

    def test_rcuscale_rows_are_timed(self):
        # rcuscale's rows have a time, not a count an object: asked for
        # (--suites with kfree_rcu), they are what that suite timed.
        out = self.mkdtemp()
        logs = []
        for kernel in ('base', 'series'):
            path = os.path.join(out, f'{kernel}-run1.log')
            with open(path, 'w') as f:
                f.write(CALIB + line(kernel, 'seq', 300000)
                        + 'rcuscale case=fixed 20000000 ns, loops: 8, batches: 2, '
                        'memory footprint: 1MB\n')
            logs.append(f'{kernel}:1={path}')
        proc, _ = report(out, logs + ['--suites', 'slab_free,kfree_rcu'])
        self.assertNotIn('timed nothing', proc.stdout + proc.stderr)
        proc, _ = report(out, logs + ['--suites', 'slab_free,kfree_rcu,page'])
        self.assertIn('suites that timed nothing: page', proc.stderr)

    def test_case_with_every_section_ticked(self):
        # A 4096-page case of two sections can lose both to ticks: no
        # figure, no crash, and the report and the verdict say which row.
        out = self.mkdtemp()
        path = os.path.join(out, 'base-run1.log')
        with open(path, 'w') as f:
            f.write(CALIB + 'test_slab_bulk: bench suite=page case=total variant=loop '
                    'n=4096 objs=0 sections=0 ticked=2 cycles=0 free_slowpath=0 '
                    'free_fastpath=0 alloc_slowpath=0 alloc_fastpath=0\n'
                    'test_slab_bulk: bench suite=page case=total variant=bulk '
                    'n=4096 objs=4096 sections=1 ticked=1 cycles=900000 free_slowpath=0 '
                    'free_fastpath=0 alloc_slowpath=0 alloc_fastpath=0\n')
        proc, md = report(out, [f'base:1={path}'])
        with open(os.path.join(out, 'bench.json')) as f:
            rows = [r for r in json.load(f)['records'] if r['suite'] == 'page']
        self.assertIsNone(rows[0]['insn_per_obj'])
        self.assertIn('- not measured (every timed section was left out, so the row has '
                      'no figure): base seed 1: page/total/loop/4096\n', md)
        self.assertNotIn('page/total/bulk', md.split('not measured')[1].split('\n')[0])
        # A row without a figure is a row missing from that seed: it fails.
        self.assertNotEqual(proc.returncode, 0)
        last = proc.stdout.strip().splitlines()[-1]
        self.assertTrue(last.startswith('bench: FAIL:'), last)
        self.assertIn('1 rows not measured (report.md names them)', last)
        self.assertIn('base: page/total/loop/4096: no figure in seed 1', last)
        # Every row measured: no such line.
        proc, _ = self.run_report([300000])
        self.assertNotIn('not measured', proc.stdout)

    def test_row_without_figure_in_one_seed(self):
        # A row measured in one seed and not in the other: named, and
        # failed, whichever seed lacks it.
        gone = ('test_slab_bulk_bench: bench suite=slab_free case=seq variant=bulk n=32 '
                'objs=0 sections=0 ticked=100 cycles=0 free_slowpath=0 free_fastpath=0 '
                'alloc_slowpath=0 alloc_fastpath=0\n')
        for lacking in (1, 2):
            out = self.mkdtemp()
            logs = []
            for seed in (1, 2):
                path = os.path.join(out, f'series-layout{seed}.log')
                with open(path, 'w') as f:
                    f.write(CALIB + (gone if seed == lacking else line('series', 'seq', 300000)))
                logs.append(f'series:{seed}={path}')
            proc, md = report(out, logs)
            self.assertNotEqual(proc.returncode, 0, proc.stdout)
            last = proc.stdout.strip().splitlines()[-1]
            self.assertIn('1 rows not measured', last)
            self.assertIn(f'series: slab_free/seq/bulk/32: no figure in seed {lacking}', last)
            self.assertIn(f'series seed {lacking}: slab_free/seq/bulk/32', md)

    def test_calib_without_kept_sections(self):
        out = self.mkdtemp()
        path = os.path.join(out, 'base-run1.log')
        with open(path, 'w') as f:
            f.write(CALIB.replace('objs=100 sections=100 ticked=0 cycles=2000',
                                  'objs=0 sections=0 ticked=100 cycles=0'))
        proc, _ = report(out, [f'base:1={path}'])
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("calib's empty section kept no section", proc.stderr)
        # nop1000 with every section left out: no figure, no crash.
        with open(path, 'w') as f:
            f.write(CALIB + 'test_slab_bulk: bench suite=calib case=nop1000 variant=none '
                    'n=1000 objs=0 sections=0 ticked=16 cycles=0 free_slowpath=-1 '
                    'free_fastpath=-1 alloc_slowpath=-1 alloc_fastpath=-1\n'
                    + line('base', 'seq', 300000))
        proc, _ = report(out, [f'base:1={path}'])
        self.assertNotIn('Traceback', proc.stderr)
        self.assertIn('base: calib/nop1000/none/1000: no figure in seed 1', proc.stderr)

    def test_skipped_suite_fails(self):
        # A suite that skips (one CPU) loads and prints no rows: the bench
        # lacks them, so it fails and says why.
        out = self.mkdtemp()
        path = os.path.join(out, 'series-run1.log')
        with open(path, 'w') as f:
            f.write(CALIB + line('series', 'seq', 300000) +
                    'test_slab_bulk_bench: bench suite=remote: skip: needs two online CPUs\n')
        proc, _ = report(out, [f'series:1={path}'])
        self.assertNotEqual(proc.returncode, 0)
        last = proc.stdout.strip().splitlines()[-1]
        self.assertTrue(last.startswith('bench: FAIL:'), last)
        self.assertIn('bench remote skipped: needs two online CPUs', last)

    def test_cost_report_out_of_step_fails(self):
        out = self.mkdtemp()
        proc, _ = report(out, self.cost_logs(out, series_sections=99))
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('the plugin kept 99', proc.stderr)


def rec(kernel, seed, case, variant, insn, cycles, suite='slab_free', n=32):
    return {'kernel': kernel, 'layout': seed, 'suite': suite, 'case': case, 'variant': variant,
            'n': n, 'objs': 3200, 'insn_per_obj': insn, 'cycles_per_obj': cycles}


def samples(ratio, seeds=6, bulk=80.0):
    """Six (or @seeds) seeds of slab_free/rand at 32: a loop of 100 in the
    base, the series' loop @ratio of it (seed by seed a little apart), and
    a bulk of @bulk in the series and 90 in the base."""
    rs = []
    for s in range(1, seeds + 1):
        wobble = 1 + 0.001 * s
        rs += [rec('base', s, 'rand', 'loop', 100 * wobble, 200 * wobble),
               rec('series', s, 'rand', 'loop', 100 * wobble * ratio, 200 * wobble * ratio),
               rec('base', s, 'rand', 'bulk', 90.0, 180.0),
               rec('series', s, 'rand', 'bulk', bulk, 2 * bulk)]
    return layouts.Samples(rs)


class LayoutsTest(unittest.TestCase):
    def gates(self, text):
        path = os.path.join(self.tmp, 'gates')
        with open(path, 'w') as f:
            f.write(text)
        return layouts.read_gates(path)

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_rank_interval(self):
        self.assertAlmostEqual(layouts.coverage(6, 1), 1 - 2 / 64)
        self.assertAlmostEqual(layouts.coverage(5, 1), 1 - 2 / 32)
        # Six values: (min, max) at 96.9 %; five: no 95 % interval.
        iv = layouts.interval([1.0, 1.2, 0.9, 1.1, 1.05, 0.95])
        self.assertEqual((iv['lo'], iv['hi']), (0.9, 1.2))
        self.assertAlmostEqual(iv['median'], 1.025)
        self.assertIsNone(layouts.interval([1, 2, 3, 4, 5])['lo'])
        # Nine: the second from each end, 96.1 %.
        iv = layouts.interval(range(1, 10))
        self.assertEqual((iv['lo'], iv['hi']), (2, 8))
        self.assertGreaterEqual(iv['coverage'], 0.95)
        self.assertLess(layouts.coverage(9, 3), 0.95)

    def test_decision_words(self):
        self.assertEqual(layouts.word(layouts.interval([0.9, 0.95] * 3)), 'faster')
        self.assertEqual(layouts.word(layouts.interval([1.01, 1.1] * 3)), 'slower')
        self.assertEqual(layouts.word(layouts.interval([0.99, 1.01] * 3)), 'no difference shown')
        self.assertEqual(layouts.word(layouts.interval([0.9] * 5)), 'no interval (5 seeds)')

    def test_single_object_loop_two_percent_slower_fails(self):
        gates = self.gates('single slab_free/*/loop/* series/base both 1.01  # the loop\n')
        problems, lines, _ = layouts.check_gates(samples(1.02), gates, ['slab_free'])
        self.assertEqual(len(problems), 2, problems)
        self.assertIn('single slab_free/rand/loop/32 series/base insn: 1.020', problems[0])
        self.assertEqual([r for r, _ in lines], ['FAIL', 'FAIL'])
        problems, lines, _ = layouts.check_gates(samples(1.0), gates, ['slab_free'])
        self.assertEqual(problems, [])
        self.assertEqual([r for r, _ in lines], ['pass', 'pass'])

    def test_claimed_win_that_became_a_loss_fails(self):
        gates = self.gates('win slab_free/rand/bulk/32 series/base cycles 1\n'
                           'win slab_free/rand/bulk/32 bulk/loop cycles 1\n')
        self.assertEqual(layouts.check_gates(samples(1.0, bulk=80.0), gates, ['slab_free'])[0],
                         [])
        problems, _, _ = layouts.check_gates(samples(1.0, bulk=95.0), gates, ['slab_free'])
        self.assertEqual(len(problems), 1, problems)
        self.assertIn('series/base cycles: 1.056', problems[0])
        # Worse than its loop too.
        problems, _, _ = layouts.check_gates(samples(1.0, bulk=110.0), gates, ['slab_free'])
        self.assertEqual(len(problems), 2, problems)

    def test_gates_written_again_from_a_run(self):
        """gates.py: an exception where the interval holds 1 and ends past
        1.01, none (a comment, so the gate fails) where the row is shown
        slower, and the claims of the cases the old lines named."""
        import gates
        rs = []
        for s in range(1, 7):
            # seq: 0.99-1.04, holds 1; rand: 1.02-1.07, shown slower;
            # rand's bulk a win, seq's bulk a miss.
            for case, lo in (('seq', 0.99), ('rand', 1.02)):
                r = lo + 0.01 * (s - 1)
                rs += [rec('base', s, case, 'loop', 100, 200),
                       rec('series', s, case, 'loop', 100 * r, 200 * r)]
            rs += [rec('base', s, 'rand', 'bulk', 90.0, 180.0),
                   rec('series', s, 'rand', 'bulk', 80.0, 160.0),
                   rec('base', s, 'seq', 'bulk', 90.0, 180.0),
                   rec('series', s, 'seq', 'bulk', 99.0 + s, 198.0 + 2 * s)]
        text = ('# header\nsingle slab_free/*/loop/* series/base both 1.01\n\n'
                '# Single paths over 1.01, excepted\nsingle slab_free/seq/loop/32 '
                'series/base insn 1.99\n\n# Wins the cover letters claim\n'
                'win slab_free/rand/bulk/32 series/base both 1\n'
                'miss slab_free/seq/bulk/32 series/base insn 1.50\n')
        new = gates.rewrite(text, layouts.Samples(rs), self.gates(text))
        self.assertIn('single slab_free/seq/loop/32 series/base insn 1.04\n', new)
        self.assertIn('single slab_free/seq/loop/32 series/base cycles 1.04\n', new)
        self.assertNotIn('1.99', new)
        self.assertNotIn('\nsingle slab_free/rand/loop', new)
        self.assertIn('#   single slab_free/rand/loop/32 series/base insn 1.07', new)
        self.assertIn('win slab_free/rand/bulk/32 series/base both 1\n', new)
        self.assertIn('miss slab_free/seq/bulk/32 series/base both 1.17\n', new)
        problems, _, _ = layouts.check_gates(layouts.Samples(rs), self.gates(new),
                                             ['slab_free'])
        self.assertEqual(len(problems), 2, problems)
        self.assertTrue(all('rand/loop/32' in p for p in problems), problems)

    def test_later_gate_judges_its_rows(self):
        # A general bound, then an exception for one row in one measure:
        # the exception judges that row there, the general one the rest.
        gates = self.gates('single slab_free/*/loop/* series/base both 1.01\n'
                           'single slab_free/rand/loop/32 series/base cycles 1.03\n')
        problems, lines, _ = layouts.check_gates(samples(1.02), gates, ['slab_free'])
        self.assertEqual(len(problems), 1, problems)
        self.assertIn('series/base insn: 1.020', problems[0])
        self.assertEqual(sorted(r for r, _ in lines), ['FAIL', 'pass'])
        # The exception's own bound still fails a row that grew past it.
        self.assertEqual(len(layouts.check_gates(samples(1.04), gates, ['slab_free'])[0]), 2)

    def test_miss_that_grew_fails(self):
        gates = self.gates('miss slab_free/rand/bulk/32 bulk/loop insn 0.85\n')
        self.assertEqual(layouts.check_gates(samples(1.0, bulk=80.0), gates, ['slab_free'])[0],
                         [])
        self.assertEqual(len(layouts.check_gates(samples(1.0, bulk=90.0), gates,
                                                 ['slab_free'])[0]), 1)

    def test_gate_without_interval_fails(self):
        gates = self.gates('single slab_free/rand/loop/32 series/base insn 1.01\n')
        problems, _, _ = layouts.check_gates(samples(1.0, seeds=5), gates, ['slab_free'])
        self.assertEqual(len(problems), 1)
        self.assertIn('no interval: 5 seeds', problems[0])

    def test_gate_that_names_nothing_fails(self):
        gates = self.gates('single slab_free/rnd/loop/32 series/base insn 1.01\n'
                           'single page/free/loop/* series/base insn 1.01\n')
        problems, _, unchecked = layouts.check_gates(samples(1.0), gates, ['slab_free'])
        self.assertEqual(len(problems), 1)
        self.assertIn('slab_free/rnd/loop/32 matches no row', problems[0])
        self.assertEqual(len(unchecked), 1)
        self.assertIn('page/free/loop/*', unchecked[0])

    def test_unreadable_gates_stop(self):
        for text, why in (('single slab_free/rand/loop series/base insn 1.01', 'SUITE/CASE'),
                          ('single slab_free/rand/loop/32 base/series insn 1.01', 'ratio'),
                          ('slow slab_free/rand/loop/32 series/base insn 1.01', 'kind'),
                          ('single slab_free/rand/loop/32 series/base time 1.01', 'measure'),
                          ('win slab_free/rand/bulk/32 series/base insn 1.2', 'at most 1'),
                          ('single slab_free/rand/loop/32 series/base insn', 'want')):
            with self.assertRaisesRegex(ValueError, why):
                self.gates(text + '\n')

    def test_row_the_alt_kernel_lacks(self):
        s = layouts.Samples([rec('base', 1, 'rand', 'loop', 1, 1),
                             rec('series', 1, 'rand', 'loop', 1, 1),
                             rec('alt', 1, 'seq', 'loop', 1, 1)])
        self.assertIn('alt: slab_free/rand/loop/32: a row of the base the alt lacks',
                      layouts.missing_rows(s))

    def test_rcuscale_and_alt_gates(self):
        rs = []
        for seed in range(1, 7):
            rs += [dict(rec(k, seed, 'fixed', 'rcuscale', None, None, suite='kfree_rcu', n=None),
                        time_ns=t, objs=None) for k, t in (('base', 100), ('series', 200))]
        s = layouts.Samples(rs)
        gates = self.gates('single kfree_rcu/fixed/rcuscale/* series/base insn 1.01\n'
                           'win kfree_rcu/fixed/rcuscale/* series/alt insn 1\n')
        # rcuscale's rows are judged where its cases ran (bench.sh adds
        # kfree_rcu to the suites); a series/alt gate without alt is not.
        problems, _, unchecked = layouts.check_gates(s, gates, ['calib', 'kfree_rcu'])
        self.assertEqual(len(problems), 1, problems)
        self.assertIn('series/base insn: 2.000', problems[0])
        self.assertEqual(len(unchecked), 1)
        self.assertEqual(len(layouts.check_gates(s, gates, ['calib'])[2]), 2)

    def test_row_of_the_base_the_series_lacks(self):
        s = layouts.Samples([rec('base', 1, 'rand', 'loop', 1, 1),
                             rec('series', 1, 'seq', 'loop', 1, 1)])
        self.assertIn('series: slab_free/rand/loop/32: a row of the base the series lacks',
                      layouts.missing_rows(s))


# A recorded run (2026-12-01): BASE=mainline SUITES=slab_free
# BENCH_ARGS=bench_case=rand BENCH_ALT=<base + the first version of the
# foreign-object check>, six layout seeds; each console with its plugin
# report, xz-compressed. "alt" is the kernel whose check moved
# build_detached_freelist() out of line, and so slowed the loop.
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'test_data',
                       'bench-mainline-rand')


class RecordedRunTest(unittest.TestCase):
    """report.py and its gates on edited copies of a recorded run."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        for name in os.listdir(FIXTURE):
            if name.endswith('.xz'):
                with open(os.path.join(self.tmp, name[:-3]), 'wb') as f:
                    subprocess.run(['xz', '-dc', os.path.join(FIXTURE, name)], stdout=f,
                                   check=True)
        self.gates = os.path.join(self.tmp, 'gates')

    def logs(self, series='series'):
        """The consoles of base and, as the series, @series."""
        return [f'{k}:{seed}={os.path.join(self.tmp, f"{f}-layout{seed}.log")}'
                for seed in range(1, 7) for k, f in (('base', 'base'), ('series', series))]

    def edit(self, kernel, seeds, row, factor=None, drop=False):
        """Multiplies the cycles of @row ("case variant n") in @kernel's
        consoles of @seeds by @factor, or drops the row as a module that
        never printed it would: its line, and its plugin report, the
        later sections of the same load numbered one less."""
        case, variant, n = row.split()
        pat = re.compile(rf'(bench suite=slab_free case={case} variant={variant} n={n} '
                         r'objs=\d+ sections=\d+ ticked=\d+ cycles=)(\d+)')
        for seed in seeds:
            path = os.path.join(self.tmp, f'{kernel}-layout{seed}.log')
            with open(path) as f:
                text = f.read()
            if drop:
                text = self.drop_row(path, text, pat)
            else:
                text = pat.sub(lambda m: m.group(1) + str(int(int(m.group(2)) * factor)), text)
            with open(path, 'w') as f:
                f.write(text)

    @staticmethod
    def drop_row(path, text, pat):
        """@text without the result line @pat matches (the kernel log
        prints each line twice, as dmesg and as the kselftest's copy: the
        first is the one that counts), and the plugin report beside @path
        without that section."""
        seq_of = re.compile(r' cost_seq=(\d+)')
        lines, load, gone = text.split('\n'), -1, None
        out = []
        for x in lines:
            m = seq_of.search(x) if x.startswith('[') else None
            if m and m.group(1) == '0':
                load += 1
            if m and pat.search(x) and gone is None:
                gone = (load, int(m.group(1)))
                continue
            if m and gone and gone[0] == load and int(m.group(1)) > gone[1]:
                x = seq_of.sub(f' cost_seq={int(m.group(1)) - 1}', x)
            out.append(x)
        plugin = path[:-len('.log')] + '.costmodel'
        with open(plugin) as f:
            reports = f.read().split('\n')
        kept, load = [], -1
        for x in reports:
            if x == 'costmodel: begin':
                load += 1
            m = re.match(r'costmodel: seq=(\d+) ', x)
            if m and load == gone[0]:
                seq = int(m.group(1))
                if seq == gone[1]:
                    continue
                if seq > gone[1]:
                    x = x.replace(f'seq={seq} ', f'seq={seq - 1} ', 1)
            kept.append(x)
        with open(plugin, 'w') as f:
            f.write('\n'.join(kept))
        return '\n'.join(out)

    def judge(self, gates, logs=None):
        with open(self.gates, 'w') as f:
            f.write(gates)
        out = os.path.join(self.tmp, 'out')
        os.makedirs(out, exist_ok=True)
        return report(out, ['--gates', self.gates, '--suites', 'calib,slab_free']
                      + (logs or self.logs()), plugin=False)[0]

    def test_recorded_run_passes_its_gates(self):
        proc = self.judge('single slab_free/rand/loop/32 series/base both 1.01\n'
                          'single slab_free/rand/loop/128 series/base both 1.01\n'
                          'win slab_free/rand/bulk/128 bulk/loop both 1\n')
        self.assertEqual(proc.returncode, 0, proc.stdout[-2000:] + proc.stderr)
        self.assertIn('bench: PASS: 6 layout seeds a kernel', proc.stdout)

    def test_the_loop_regression_of_the_flush_path_fails(self):
        # alt un-inlined build_detached_freelist(): its kmem_cache_free()
        # loop of 1024 shuffled objects, which flushes sheaves, is slower.
        gate = 'single slab_free/rand/loop/1024 series/base both 1.01\n'
        proc = self.judge(gate, self.logs('alt'))
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('gate gates:1: single slab_free/rand/loop/1024 series/base insn: 1.09',
                      proc.stderr)
        # The series as recorded, with the check only on the caller's array.
        self.assertEqual(self.judge(gate).returncode, 0)

    def test_single_object_loop_two_percent_slower_fails(self):
        self.edit('series', range(1, 7), 'rand loop 32', 1.02)
        proc = self.judge('single slab_free/rand/loop/32 series/base both 1.01\n')
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('single slab_free/rand/loop/32 series/base insn: 1.02', proc.stderr)

    def test_claimed_win_that_became_a_loss_fails(self):
        self.edit('series', range(1, 7), 'rand bulk 128', 3)
        proc = self.judge('win slab_free/rand/bulk/128 bulk/loop insn 1\n')
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('win slab_free/rand/bulk/128 bulk/loop insn', proc.stderr)

    def test_row_missing_in_one_seed_fails(self):
        self.edit('series', [3], 'rand loop 128', drop=True)
        proc = self.judge('single slab_free/rand/loop/32 series/base both 1.01\n')
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('series: slab_free/rand/loop/128: no figure in seed 3', proc.stderr)

    def test_seed_without_plugin_fails(self):
        os.remove(os.path.join(self.tmp, 'series-layout4.costmodel'))
        proc = self.judge('single slab_free/rand/loop/32 series/base both 1.01\n')
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn('series:4', proc.stderr)
        self.assertIn('no costmodel plugin counts beside it', proc.stderr)


if __name__ == '__main__':
    unittest.main(argv=sys.argv[:1], verbosity=1)  # TREE, if given, is not used here
