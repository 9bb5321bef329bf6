#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print, as a guest prints them, the console lines that say how far its
tests are: each KUnit suite's start, each test's result, the harness's
markers in the guest and the first line of any checker report.

Usage: ktap_stream.py < CONSOLE   (qemu.sh follows a test boot's log)

Progress only: scripts/ktap.py judges the whole log once the guest ends,
and this prints nothing it does not also read.
"""
import re
import sys

TIME = re.compile(r'^\[\s*\d+\.\d+\] ')
SHOWN = re.compile(r'^\s*(# Subtest: |(not )?ok \d+ )|^==== slab_bulk: ')
# The first line of a report (scripts/ktap.py's SPLATS has them all).
REPORT = re.compile(r'\bBUG[: ]|WARNING:|KASAN:|KFENCE:|Kernel panic|Oops|UBSAN: '
                    r'|INFO: \S+ (self-)?detected (expedited )?stall'
                    r'|INFO: task \S+ blocked|slab_bulk: expect \d+ ')


def shown(line):
    """@line as the stream prints it, or None."""
    line = TIME.sub('', line.rstrip('\r\n'))
    if SHOWN.search(line):
        return '  | ' + line
    if REPORT.search(line):
        return '  ! ' + line.strip()
    return None


def main():
    # A console may hold any byte: progress must not stop at one.
    sys.stdin.reconfigure(errors='replace')
    for raw in sys.stdin:
        line = shown(raw)
        if line is not None:
            print(line, flush=True)


if __name__ == '__main__':
    main()
