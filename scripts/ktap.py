#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the console logs of "make check" and "make stress" guests.

Usage: ktap.py --expect FILE [--kselftests NAME,...] [--suites NAME,...]
              TREE NAME=LOG ...

Each LOG is cut at the guest's markers into the KUnit output of the boot and
the kselftest output; both are parsed by the kernel's own KTAP parser
(tools/testing/kunit/kunit_parser.py). The whole log is also searched for
reports of the kernel's checkers. What each run must show and may skip
is in FILE, one per base (expect/BASE; class Expectations says how).
Prints a line per log, then one verdict line,
"check: PASS: N passed, N failed, N skipped" or "check: FAIL: ..." naming
each log with a problem. Exits 1 on any failure, crash, parse error,
missing suite, missing kselftest, skip not on the configuration's list (or
listed KUnit skip that did not happen), unfinished guest or report; exits 3
instead when every run with a problem is one whose (virtual) hardware
could not be set up: its results say nothing about the series.
"""
import argparse
import fnmatch
import inspect
import io
import os
import re
import sys
from collections import Counter

# What the kernel prints when a checker fires or something breaks.
SPLATS = re.compile('|'.join([
    r'\bBUG[: ]', r'WARNING:', r'KASAN:', r'KFENCE:', r'Call Trace:',
    r'possible (recursive|circular) locking', r'inconsistent lock state',
    r'suspicious RCU usage', r'called from invalid context',
    r'unreferenced object', r'Kernel panic', r'Oops', r'general protection',
    r'Object already free', r'Redzone overwritten', r'Poison overwritten',
    r'page allocation failure', r'kmemleak: .*disabled',
    # RCU's CPU and expedited stall warnings and hung-task detection print
    # INFO lines, and UBSAN its own header: none of them says BUG or
    # WARNING, and a stall on another CPU prints no call trace.
    r'INFO: \S+ (self-)?detected (expedited )?stalls?\b',
    r'INFO: task \S+ blocked for more than \d+ seconds', r'UBSAN: ',
    # Lines that may come alone: CONFIG_DEBUG_LIST's report when it is not
    # made a BUG, the hard-lockup detector's when it cannot print a trace,
    # and the kernel's line for a user program (a kselftest helper) that
    # crashed while its test went on.
    r'list_(add|del) corruption', r'hard LOCKUP', r'segfault at ',
]))

# What the kernel or the kselftest prints when the guest's hardware could
# not be set up: ACPI failing to evaluate a method (a debug kernel under TCG
# can run into ACPICA's loop limit), a PCI interrupt line left unrouted, a
# NIC that got no interrupt at all (the kselftest's "# hardware:" line, with
# the "# " of run_kselftest.sh before it).
HARDWARE = re.compile('|'.join([
    r'ACPI (BIOS )?Error', r'AE_AML_', r"can't derive routing", r'no GSI',
    r'^(# )?# hardware: ',
]))

# A line the kernel printed (printk time stamp), and the line qemu.sh adds
# when QEMU did not exit cleanly.
KERNEL_LINE = re.compile(r'\[\s*\d+\.\d+\] ')
QEMU_EXIT = re.compile(r'qemu exit code (\d+)')

MARK = '==== slab_bulk: '


# The console prints a kernel message whole, between two bytes of whatever
# user space is writing: "TAP version 13[    2.52] clocksource: ...", and
# the rest of the user's line after the message's newline (here the "\n"
# alone). A user line that is a "#" diagnostic may quote kernel messages
# itself and is left as it is.
SPLICED_KERNEL_LINE = re.compile(r'\[\s*\d+\.\d+\] ')


def unsplice(lines, strip=lambda line: line):
    """User-space lines with the kernel messages spliced into them taken
    out and put before them, the user line joined again. @strip takes a
    prefix off each line but the rest of an interrupted one, which has
    none."""
    out, pending = [], None
    for line in lines:
        if pending is not None:
            line, pending = pending + line, None
        else:
            line = strip(line)
        m = SPLICED_KERNEL_LINE.search(line)
        if m and m.start() > 0 and not line.lstrip().startswith('#'):
            out.append(line[m.start():])
            pending = line[:m.start()]
            continue
        out.append(line)
    if pending is not None:
        out.append(pending + '\n')
    return out


# run_kselftest.sh (tools/testing/selftests), which runs the kselftests
# as KernelCI and LKFT run them, prints a plan of its own and, for each
# test, "# selftests: COLLECTION: TEST", the test's output with "# " put
# before each line, and the test's result: "ok N selftests: ...", or with
# "# SKIP", "# XFAIL", "# exit=RC" or "# TIMEOUT ..." after it.
RUNNER_TEST = '# selftests: '
RUNNER_RESULT = re.compile(r'(not )?ok \d+ selftests: (\S+): (\S+)(.*)$')


def unprefix(line):
    """@line without the "# " run_kselftest.sh put before it."""
    if line.startswith('# ') or line.rstrip('\n') == '#':
        return line[2:] or '\n'
    return line


def unwrap_runner(lines):
    """The output of the test run_kselftest.sh ran, without the "# " the
    runner put before its lines (kernel messages spliced into them taken
    out as unsplice() takes them out), and the problems of the runner's
    own result: none, or one that is not a plain "ok". @lines as they
    are when no runner printed them."""
    start = next((i for i, l in enumerate(lines) if l.startswith(RUNNER_TEST)), None)
    if start is None:
        if any(RUNNER_RESULT.match(l.strip()) for l in lines):
            return lines, ['run_kselftest.sh: a result without its "# selftests:" line']
        return lines, []
    inner = []
    for line in unsplice(lines[start + 1:], unprefix):
        if r := RUNNER_RESULT.match(line.rstrip('\n')):
            if r.group(1) or r.group(4).strip():
                return inner, [f'run_kselftest.sh: {line.strip()}']
            return inner, []
        inner.append(line)
    return inner, [f'run_kselftest.sh: no result for {lines[start].strip()[2:]}']


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


# A test that provokes a report on purpose prints, around the call,
#   slab_bulk: expect COUNT KIND at WHERE begin: NAME
#   slab_bulk: expect end
# Inside the window exactly COUNT reports of KIND must appear whose first
# line contains WHERE, or (a function inlined into the one that line names)
# gives a FILE:LINE inside WHERE's body in the tree; each may bring one
# "Call Trace:" line. Any other report line inside it fails.
EXPECT_BEGIN = re.compile(r'slab_bulk: expect (\d+) (\S+) at (\S+) begin: (.*)')
EXPECT_END = 'slab_bulk: expect end'
# The first line of each kind of report a test may expect.
EXPECTED_KINDS = {
    # 6.12: "WARNING: CPU: 0 PID: 1 at FILE:LINE FUNC+..."; since 6.19:
    # "WARNING: FILE:LINE at FUNC+..., CPU#0: COMM/PID" (or "WARNING: at").
    'WARNING': re.compile(r'WARNING: (CPU: \d+ PID: \d+ |\S+:\d+ )?at '),
    'might_sleep': re.compile(r'BUG: sleeping function called from invalid context at '),
}
TRACE = 'Call Trace:'
# The source line a report's first line gives: "at FILE:LINE " (6.12) or
# "WARNING: FILE:LINE at" (since 6.19); FILE relative to the build.
REPORT_SOURCE = re.compile(r'(?:WARNING: |\bat )(?:\.\./)*(\S+?):(\d+)\b')


def tree_file(tree, path):
    """The file of @tree a report's path names ("../../linux/mm/slub.c",
    relative to the build directory, is the tree's mm/slub.c), or None."""
    parts = path.split('/')
    for i in range(len(parts)):
        f = os.path.join(tree, *parts[i:])
        if os.path.isfile(f):
            return f
    return None


def inside_function(tree, func, line):
    """Whether report line @line gives a FILE:LINE inside the body of
    function @func in @tree: from its definition ("func(" in a line
    that starts a declaration, whose lines reach a "{" before any ";")
    to the first "}" alone on a line."""
    m = REPORT_SOURCE.search(line)
    f = tree and m and tree_file(tree, m.group(1))
    if not f:
        return False
    at = int(m.group(2))
    start = re.compile(r'^\S.*\b' + re.escape(func) + r'\(')
    with open(f, encoding='utf-8', errors='replace') as src:
        head = body = None
        for n, text in enumerate(src, 1):
            line = text.rstrip()
            if head is None and body is None and start.match(text):
                head = n
            if head is not None and body is None:
                # A declaration ends in ";" before any "{": not the body.
                if line.endswith(';'):
                    head = None
                elif line == '{' or line.endswith('{'):
                    body = head
            elif body is not None and line == '}':
                if body <= at <= n:
                    return True
                head = body = None
    return False


def expected_reports(lines, tree=None):
    """Lines less the expected reports' lines, and the problems of the
    windows: a wrong count, an unknown kind, an unexpected report inside a
    window (kept, so that it is reported as well), a missing end. @tree
    is the kernel tree the reports' source lines are looked up in."""
    kept, problems, window = [], [], None
    for line in lines:
        m = EXPECT_BEGIN.search(line)
        if m:
            if window:
                problems.append(f'expect window {window["name"]}: no end marker')
            window = {'count': int(m.group(1)), 'kind': m.group(2), 'where': m.group(3),
                      'name': m.group(4).strip(), 'seen': 0, 'traces': 0}
            if window['kind'] not in EXPECTED_KINDS:
                problems.append(f'expect window {window["name"]}: unknown kind {window["kind"]}')
            continue
        if 'slab_bulk: expect ' in line and EXPECT_END not in line:
            problems.append(f'malformed expect marker: {line.strip()}')
            continue
        if EXPECT_END in line:
            if not window:
                problems.append('expect end marker without a begin')
                continue
            if window['seen'] != window['count']:
                problems.append(f'expect window {window["name"]}: {window["seen"]} '
                                f'{window["kind"]} reports, expected {window["count"]}')
            window = None
            continue
        if window and SPLATS.search(line):
            head = EXPECTED_KINDS.get(window['kind'])
            if head and head.search(line) and (window['where'] in line or
                                               inside_function(tree, window['where'], line)):
                window['seen'] += 1
                continue
            if TRACE in line and window['traces'] < window['seen']:
                window['traces'] += 1
                continue
        kept.append(line)
    if window:
        problems.append(f'expect window {window["name"]}: no end marker')
    return kept, problems


def leaks(report, known=()):
    """kmemleak records, less those that mention a name in @known (leaks
    upstream tests make on purpose)."""
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
            and not any(k in l for l in r for k in known)]


def tests_with(statuses, test, prefix='', full=False):
    """Names of the tests below @test whose status is in @statuses:
    "suite.case" for KUnit, the name before any ": reason" for a
    kselftest (with @full, the name and the reason)."""
    names = []
    for t in test.subtests:
        # A test the parser saw crash may have no name.
        name = prefix + (t.name.split(':')[0].strip() or '(unnamed)')
        if t.subtests:
            names += tests_with(statuses, t, name + '.', full)
        elif t.status in statuses:
            names.append(prefix + t.name.strip() if full and t.name.strip() else name)
    return names


def duplicated(test, prefix=''):
    """Names given to more than one test below @test ("suite.case" for
    KUnit): a test renamed to another's name would hide one result."""
    seen = Counter()
    dups = []
    for t in test.subtests:
        name = prefix + (t.name.split(':')[0].strip() or '(unnamed)')
        seen[name] += 1
        if t.subtests:
            dups += duplicated(t, name + '.')
    return dups + [n for n, k in seen.items() if k > 1]


KUNIT_SKIP = re.compile(r'^\s*ok \d+ (\S+) # SKIP\s*(.*?)\s*$')


def with_reasons(skips, text):
    """KUnit's skips @skips ("suite.case", as tests_with() names them) as
    "suite.case: reason", the reason the case's "# SKIP" line in @text
    gives, taken in order (the parser keeps no reason)."""
    lines = [m.groups() for l in text if (m := KUNIT_SKIP.match(KERNEL_LINE.sub('', l, 1)))]
    out = []
    for skip in skips:
        case = skip.rsplit('.', 1)[-1]
        i = next((i for i, (name, _) in enumerate(lines) if name == case), None)
        reason = lines.pop(i)[1] if i is not None else ''
        out.append(f'{skip}: {reason}' if reason else skip)
    return out


def listed_in(entry, seen):
    """Whether a skip in @seen is the one entry @entry lists."""
    return any(skip.startswith(entry) for skip in seen)


def listed(skip, skips):
    """Whether the skip list has @skip, a test name with the reason it
    gave ("name: reason"): an entry "name: reason" takes a skip of the
    test whose reason starts so."""
    return any(skip.startswith(e) for e in skips)


class Expectations:
    """What one base's runs must show and may skip (expect/BASE): a
    [required] section ("suites", "kselftests", "net": comma-separated;
    "cases": "suite:N", comma-separated, the cases of the series' suites),
    a [leaks] section (names), and a section per run name listing the
    skips it expects, one a line with the reason the test gives or its
    start ("suite.case: reason" for KUnit, "kselftest: reason"), which may
    take another's list with
    "include = NAME" and, for a matrix entry, replace the required suites
    with "suites = ...". A "#" alone, or followed by a space, at the start
    of a line or after a space starts a comment. A run without a section expects no skip. Anything
    else stops the judge: a line it cannot read would loosen it."""

    HEADER = re.compile(r'^\[([\w.-]+)\]$')
    SETTING = re.compile(r'^(\w+) =(?: (.*))?$')
    # A skip is listed with the reason the test gives, or its start.
    ENTRY = re.compile(r'^\w+(\.\w+)?: \S.*$')
    KEYS = {'required': ('suites', 'kselftests', 'net', 'cases')}
    # "cases = suite:N,...": how many cases a suite of the series has.
    CASES = re.compile(r'^(\w+):([1-9]\d*)$')

    def __init__(self, path):
        self.sections, self.settings = {}, {}
        section = None
        with open(path, encoding='utf-8') as f:
            for n, raw in enumerate(f, 1):
                line = re.sub(r'(^|\s)#(\s.*)?$', '', raw.rstrip('\n')).strip()
                where = f'{path}:{n}'
                if not line:
                    continue
                if line.startswith('['):
                    m = self.HEADER.match(line)
                    if not m:
                        raise ValueError(f'{where}: not a section header: {line!r}')
                    section = m.group(1)
                    if section in self.sections:
                        raise ValueError(f'{where}: section [{section}] again')
                    self.sections[section], self.settings[section] = [], {}
                elif section is None:
                    raise ValueError(f'{where}: {line!r} before any [section]')
                elif '=' in line:
                    self.setting(where, section, line)
                elif section == 'required' or not (section == 'leaks' or
                                                   self.ENTRY.match(line)):
                    raise ValueError(f'{where}: not a test name with the reason it skips '
                                     f'for ("name: reason"): {line!r}')
                else:
                    self.sections[section].append(line)
        for key in self.KEYS['required']:
            if key not in self.settings.get('required', {}):
                raise ValueError(f'{path}: [required] has no "{key} = ..."')
        if not self.required('cases'):
            raise ValueError(f'{path}: [required] cases: at least one "suite:N"')
        for entry in self.required('cases'):
            if not self.CASES.match(entry):
                raise ValueError(f'{path}: [required] cases: "suite:N", not {entry!r}')

    def setting(self, where, section, line):
        """Takes "KEY = VALUE" of @section: the keys its kind of section
        has, each once."""
        m = self.SETTING.match(line)
        keys = self.KEYS.get(section, ('include', 'suites') if section.startswith('matrix.')
                             else ('include', 'kmemleak'))
        if not m or m.group(1) not in keys:
            raise ValueError(f'{where}: [{section}] takes {", ".join(keys)} '
                             f'("KEY = VALUE"), not {line!r}')
        if m.group(1) in self.settings[section]:
            raise ValueError(f'{where}: {m.group(1)} again in [{section}]')
        if m.group(1) == 'kmemleak' and m.group(2) != 'required':
            raise ValueError(f'{where}: "kmemleak = required" or nothing')
        self.settings[section][m.group(1)] = (m.group(2) or '').strip()

    def required(self, key):
        return [n for n in self.settings['required'][key].split(',') if n]

    def cases(self):
        """{suite: number of cases} of [required] "cases": a suite that
        runs must run exactly that many, so that a case compiled out,
        with the suite's plan shortened to match, fails."""
        return {m.group(1): int(m.group(2)) for m in
                map(self.CASES.match, self.required('cases'))}

    def known_leaks(self):
        return set(self.sections.get('leaks', []))

    def skips(self, run, seen=()):
        """The skips run @run expects, with those of the sections it
        includes."""
        if run in seen:
            raise ValueError(f'[{run}] includes itself')
        names = set(self.sections.get(run, []))
        include = self.settings.get(run, {}).get('include')
        if include:
            if include not in self.sections:
                raise ValueError(f'[{run}] includes [{include}], which does not exist')
            names |= self.skips(include, seen + (run,))
        return names

    def kmemleak(self, run):
        """Whether run @run's kernel has kmemleak ("kmemleak = required"
        in its own section): its console must show kmemleak started and
        the guest's scan."""
        return self.settings.get(run, {}).get('kmemleak') == 'required'

    def suites(self, run):
        """The KUnit suites run @run must show: its own "suites", or the
        required ones."""
        own = self.settings.get(run, {}).get('suites')
        return self.required('suites') if own is None else [n for n in own.split(',') if n]


def parse_run_tests(parser, text):
    """kunit_parser.parse_run_tests() of the tree, silent: the judge
    prints its own summary, and the parser's would replay the whole log
    with the time it is read at, not the time the guest printed it.
    Since 6.16 it takes a printer (the null one); before, it prints
    through its module's "stdout" printer, swapped for one that writes
    nowhere while it parses."""
    import kunit_printer
    if 'printer' in inspect.signature(parser.parse_run_tests).parameters:
        return parser.parse_run_tests(text, kunit_printer.null_printer)
    saved = parser.stdout
    parser.stdout = kunit_printer.Printer(io.StringIO())
    try:
        return parser.parse_run_tests(text)
    finally:
        parser.stdout = saved


def no_console(path):
    """The problem of a boot that left no console log (qemu.sh refused its
    settings, or QEMU never started), or None. qemu.sh removes a log
    before it does anything else, so an older one is never judged."""
    if os.path.exists(path):
        return None
    return f'no console log {path}: the guest never started'


def kmemleak_problems(lines):
    """What a console of a kernel with kmemleak lacks: kmemleak started,
    and the section the guest prints after its scan."""
    problems = []
    if not any('kmemleak: Kernel memory leak detector initialized' in l for l in lines):
        problems.append('kmemleak: never initialised')
    if not (any(MARK + 'kmemleak begin' in l for l in lines) and
            any(MARK + 'kmemleak end' in l for l in lines)):
        problems.append('kmemleak: no scan (no kmemleak section)')
    return problems


def case_count_problems(test, suites, cases):
    """A problem for each required suite of KUnit result @test whose
    number of cases is not the one @cases gives it."""
    return [f'suite {s.name}: {len(s.subtests)} cases, expected {cases[s.name]}'
            for s in test.subtests
            if s.name in suites and s.name in cases and len(s.subtests) != cases[s.name]]


def judge(parser, name, path, suites, required, skips, known_leaks=(), tree=None,
          kmemleak=False, cases=None):
    missing = no_console(path)
    if missing:
        return parser.TestCounts(), [missing], False
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().splitlines(True)
    lines, window_problems = expected_reports(lines, tree)
    # A kernel message may splice into a marker line too.
    parts, done = split_log(unsplice(lines))
    kself, problems = unwrap_runner(parts['kself'])
    kunit = parts['kunit']
    hardware = [l.rstrip() for l in lines if HARDWARE.search(l)]
    if hardware:
        problems.append(f'guest hardware not set up ({len(hardware)} lines), '
                        f'first: {hardware[0]}')
    counts = parser.TestCounts()
    # KUnit's results are judged whenever it printed any, required suites
    # or not; none required and none printed: it did not run at boot
    # (kunit.enable=0, or no suite built).
    printed = any('KTAP version' in l or 'TAP version' in l for l in kunit)
    parts_run = (('kunit', kunit),) if suites or printed else ()
    seen_skips, failed = [], []  # skips with their reasons
    # The kselftest likewise, when none is required (make check KUNIT=).
    kself_printed = any('TAP version' in l for l in kself)
    parts_run += (('kselftest', kself),) if required or kself_printed else ()
    for part, text in parts_run:
        test = parse_run_tests(parser, text)
        # KUnit with no suite built prints an empty plan ("1..0"): what a
        # run that requires none expects.
        if (part == 'kunit' and not suites and not test.subtests
                and test.status == parser.TestStatus.NO_TESTS):
            continue
        counts.add_subtest_counts(test.counts)
        skipped = tests_with((parser.TestStatus.SKIPPED,), test, full=True)
        seen_skips += with_reasons(skipped, text) if part == 'kunit' else skipped
        failed += tests_with((parser.TestStatus.FAILURE, parser.TestStatus.TEST_CRASHED), test)
        problems += [f'{part}: more than one test named {n}' for n in duplicated(test)]
        if test.status in (parser.TestStatus.FAILURE_TO_PARSE_TESTS,
                           parser.TestStatus.NO_TESTS):
            problems.append(f'{part}: no results')
        if test.counts.errors:
            problems.append(f'{part}: {test.counts.errors} parse errors')
        if part == 'kunit':
            names = {t.name for t in test.subtests}
            problems += [f'suite {s} did not run' for s in suites
                         if s not in names]
            problems += case_count_problems(test, suites, cases or {})
        else:
            # A kselftest's name is its result's text up to ": " or " (":
            # "bench_page (9 cases)" is bench_page.
            passed = {re.split(r': | \(', t.name, 1)[0].strip() for t in test.subtests
                      if t.status == parser.TestStatus.SUCCESS}
            # A required test may skip only where the skip list says so.
            listed_skips = {t.split(':')[0].strip() for t in
                            tests_with((parser.TestStatus.SKIPPED,), test, full=True)
                            if listed(t, skips)}
            problems += [f'kselftest {s} did not pass' for s in required
                         if s not in passed and s not in listed_skips]
    problems += [f'unexpected skip: {t}' for t in seen_skips if not listed(t, skips)]
    # KUnit runs whole at every boot that runs it, so a listed KUnit skip
    # ("suite.case: reason") that did not happen means the list is out of
    # date.
    if any(part == 'kunit' for part, _ in parts_run):
        problems += [f'expected skip did not happen: {t}' for t in sorted(skips)
                     if '.' in t.split(':')[0] and not listed_in(t, seen_skips)]
    if not done:
        problems.append('guest did not finish')
    for line in lines:
        if m := QEMU_EXIT.match(line):
            code = m.group(1)
            problems.append(f'QEMU exit code {code}' +
                            (' (killed at the harness timeout)' if code == '124' else ''))
    problems += window_problems
    # The kmemleak section is its report, but the kernel may print there.
    kernel_lines = [l for l in parts['kmemleak'] if KERNEL_LINE.match(l)]
    splats = [l.rstrip() for p in ('kunit', 'kself', 'other') for l in parts[p] + kernel_lines
              if SPLATS.search(l) and 'new suspected memory leaks' not in l]
    if splats:
        problems.append(f'{len(splats)} report lines, first: {splats[0]}')
    if kmemleak:
        problems += kmemleak_problems(lines)
    leaked = leaks(parts['kmemleak'], known_leaks)
    if leaked:
        problems.append(f'kmemleak: {len(leaked)} leaks, first: {leaked[0][0].rstrip()}')
    print(f'{name}: {counts.passed} passed, {counts.failed + counts.crashed} failed, '
          f'{counts.skipped} skipped' + ''.join(f'; {p}' for p in problems))
    if failed:
        print(f'{name}: failed tests: ' +
              ', '.join(t + (f' x{n}' if n > 1 else '') for t, n in Counter(failed).items()))
    return counts, problems, bool(hardware)


def judge_costmodel(parser, name, console, plugin, tree=None):
    """The boot that ran the benchmark's costmodel suite under the
    costmodel plugin: each known answer (costmodel.py) is a test, and the
    console is read for reports as any other."""
    import costmodel
    counts = parser.TestCounts()
    missing = no_console(console)
    if missing:
        return counts, [missing], False
    problems, failed = [], []
    for case, ok, detail in costmodel.known_answers(console, plugin):
        if ok:
            counts.passed += 1
        else:
            counts.failed += 1
            failed.append(f'{case}: {detail}')
    with open(console, encoding='utf-8', errors='replace') as f:
        lines = f.read().splitlines(True)
    lines, window_problems = expected_reports(lines, tree)
    problems += window_problems
    if not any(l.startswith(MARK + 'done') for l in lines):
        problems.append('guest did not finish')
    if not any(l.startswith(MARK + 'bench costmodel end rc=0') for l in lines):
        problems.append('the costmodel suite did not end with rc=0')
    problems += [f'QEMU exit code {m.group(1)}' for l in lines if (m := QEMU_EXIT.match(l))]
    splats = [l.rstrip() for l in lines if SPLATS.search(l)]
    if splats:
        problems.append(f'{len(splats)} report lines, first: {splats[0]}')
    print(f'{name}: {counts.passed} passed, {counts.failed} failed'
          + ''.join(f'; {p}' for p in failed + problems))
    return counts, problems, False


def kunit_glob(glob, suites, skips):
    """The required suites and the expected skips narrowed to the KUnit
    filter @glob ("suite_glob[.test_glob]", as kunit.filter_glob): the
    suites it matches, the KUnit skips of the cases it matches. With a
    test part no suite is required (the kernel leaves out a suite none of
    whose cases match); main() then requires that some test ran."""
    suite_glob, _, test_glob = glob.partition('.')

    def kept(entry):
        name = entry.split(':')[0].strip()
        if '.' not in name:
            return True
        suite, _, case = name.partition('.')
        return fnmatch.fnmatchcase(suite, suite_glob) and (
            not test_glob or fnmatch.fnmatchcase(case, test_glob))
    return ([s for s in suites if not test_glob and fnmatch.fnmatchcase(s, suite_glob)],
            {e for e in skips if kept(e)})


def required_kselftests(arg, expect):
    """The kselftests --kselftests ARG names: none given, those required;
    "net", the network tests of the expectations."""
    if arg is None:
        return expect.required('kselftests')
    return expect.required('net') if arg == 'net' else [n for n in arg.split(',') if n]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--expect', metavar='FILE', required=True,
                    help="the base's expectations (expect/BASE): required suites and "
                         "kselftests, known leaks, and the skips of each run, whose "
                         'section is NAME up to any "#"')
    ap.add_argument('--kselftests',
                    help='kselftests that must pass, comma-separated, instead of the '
                         'required ones; "net" for the network tests')
    ap.add_argument('--suites',
                    help="KUnit suites that must run at boot, comma-separated, instead "
                         "of the run's; empty when KUnit is off")
    ap.add_argument('--kunit-glob', metavar='GLOB',
                    help='the boot ran only the KUnit tests GLOB matches (kunit.filter_glob): '
                         'require and expect to skip only those')
    ap.add_argument('--costmodel', metavar='CONSOLE:PLUGIN',
                    help="a boot that ran the costmodel suite under the plugin: its "
                         "console log and the plugin's reports, checked against "
                         "the known answers")
    ap.add_argument('tree')
    ap.add_argument('logs', nargs='+', metavar='NAME=LOG')
    args = ap.parse_args()
    try:
        expect = Expectations(args.expect)
    except (OSError, ValueError) as e:
        sys.exit(f'ktap.py: {e}')
    sys.path.insert(0, args.tree + '/tools/testing/kunit')
    import kunit_parser as parser
    total = parser.TestCounts()
    bad = False
    results = []
    logs = {}
    for arg in args.logs:
        name, path = arg.split('=', 1)
        logs[name] = path
        run = name.split('#')[0]
        suites = (expect.suites(run) if args.suites is None
                  else [s for s in args.suites.split(',') if s])
        try:
            skips = expect.skips(run)
        except ValueError as e:
            sys.exit(f'ktap.py: {args.expect}: {e}')
        if args.kunit_glob:
            suites, skips = kunit_glob(args.kunit_glob, suites, skips)
        counts, problems, hardware = judge(parser, name, path, suites,
                                           required_kselftests(args.kselftests, expect),
                                           skips, expect.known_leaks(), args.tree,
                                           expect.kmemleak(run), expect.cases())
        if args.kunit_glob and not (counts.passed + counts.failed + counts.skipped +
                                    counts.crashed):
            problems.append(f'KUNIT={args.kunit_glob}: no KUnit test ran')
        total.add_subtest_counts(counts)
        results.append((name, counts, problems, hardware))
        bad |= bool(problems) or counts.failed > 0 or counts.crashed > 0
    if args.costmodel:
        console, plugin = args.costmodel.split(':', 1)
        logs['costmodel'] = console
        counts, problems, _ = judge_costmodel(parser, 'costmodel', console, plugin, args.tree)
        total.add_subtest_counts(counts)
        results.append(('costmodel', counts, problems, False))
        bad |= bool(problems) or counts.failed > 0
    print()
    for name, counts, problems, hardware in results:
        others = len(problems) - hardware + counts.failed + counts.crashed
        verdict = '+'.join(v for v, on in (('HARDWARE', hardware), ('PROBLEMS', others))
                           if on) or 'OK'
        print(f'  {name:<8} passed {counts.passed:>4}  failed {counts.failed + counts.crashed:>3}'
              f'  skipped {counts.skipped:>3}  {verdict}')
    if any(h for *_, h in results):
        print('HARDWARE: a guest could not set up its (virtual) hardware (see its '
              'first line above); what failed after that may follow from it')
    print(verdict_line(total, results, logs,
                       f' (KUNIT={args.kunit_glob} only)' if args.kunit_glob else ''))
    sys.exit(exit_code(results))


def exit_code(results):
    """0 when nothing went wrong; 3 when every run with a problem is one
    whose virtual hardware was not set up (its results say nothing about
    the series); 1 otherwise."""
    bad = [(c, p, h) for _, c, p, h in results if p or c.failed or c.crashed]
    if not bad:
        return 0
    return 3 if all(h for *_, h in bad) else 1


def verdict_line(total, results, logs, scope=''):
    """The last line: PASS, or FAIL with the failed tests kept apart from
    the other problems and the log of each run that had one; @scope says
    when the runs were narrowed."""
    tests = total.failed + total.crashed
    others = sum(len(p) for _, _, p, _ in results)
    counts = f'{total.passed} passed, {tests + others} failed, {total.skipped} skipped'
    bad = [f'{name} ({logs[name]})' for name, c, p, _ in results if p or c.failed or c.crashed]
    if not bad:
        return f'check: PASS{scope}: {counts}'
    hardware = [name for name, *_, h in results if h]
    what = '; '.join(w for w, n in ((f'{tests} tests failed', tests),
                                    (f'{others} other problems', others),
                                    ('hardware not set up: ' + ', '.join(hardware), hardware))
                     if n)
    return f'check: FAIL{scope}: {counts} ({what}): see {", ".join(bad)}'


if __name__ == '__main__':
    main()
