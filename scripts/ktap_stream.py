#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print, as a guest prints them, the console lines that say how far its
tests are: each KUnit suite's start, each test's result, the harness's
markers in the guest and the first line of any checker report.

Usage: ktap_stream.py < CONSOLE   (qemu.sh follows a test boot's log)

Progress only: scripts/ktap.py judges the whole log once the guest ends,
and this prints nothing it does not also read.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ktap import SPLATS, TRACE  # noqa: E402  the judge's report lines

TIME = re.compile(r'^\[\s*\d+\.\d+\] ')
SHOWN = re.compile(r'^\s*(# Subtest: |(not )?ok \d+ )|^==== slab_bulk: ')
EXPECT = re.compile(r'slab_bulk: expect \d+ ')


def shown(line):
    """@line as the stream prints it, or None."""
    line = TIME.sub('', line.rstrip('\r\n'))
    if SHOWN.search(line):
        return '  | ' + line
    # A report's lines as the judge finds them, but its call traces.
    if EXPECT.search(line) or (SPLATS.search(line) and TRACE not in line):
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
