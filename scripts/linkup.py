#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Link-up times of the kselftest's network tests, from console logs.

Usage: linkup.py NAME#RUN=LOG ...

Each test brings the NIC up and prints "# DEV: carrier up after N ms" or
"# DEV: no carrier within N s" (with one more "# " under
run_kselftest.sh). Prints a line per log (the times of its link-ups in
order) and, per NAME, the minimum, median and maximum of the first
link-up after boot and of all link-ups, and how many never came up.
"""
import re
import statistics
import sys

# Either as the test prints it or with the "# " of run_kselftest.sh before it.
UP = re.compile(r'^(?:# )?# \S+: carrier up after (\d+) ms')
NONE = re.compile(r'^(?:# )?# \S+: no carrier within (\d+) s')


def link_ups(path):
    """Milliseconds of each link-up in order, None for one that timed out."""
    times = []
    for line in open(path, encoding='utf-8', errors='replace'):
        if m := UP.match(line):
            times.append(int(m.group(1)))
        elif NONE.match(line):
            times.append(None)
    return times


def stats(values):
    if not values:
        return 'none'
    return (f'min {min(values)}  median {statistics.median(values):g}  '
            f'max {max(values)} ms ({len(values)})')


def main():
    by_name = {}
    print(f'{"boot":<10} link-up times (ms; "-" timed out)')
    for arg in sys.argv[1:]:
        label, path = arg.split('=', 1)
        times = link_ups(path)
        by_name.setdefault(label.split('#')[0], []).append(times)
        shown = ' '.join('-' if t is None else str(t) for t in times) or 'no link-up seen'
        print(f'{label:<10} {shown}')
    print()
    for name, boots in by_name.items():
        first = [b[0] for b in boots if b and b[0] is not None]
        every = [t for b in boots for t in b if t is not None]
        missed = sum(t is None for b in boots for t in b) + sum(not b for b in boots)
        print(f'{name}: {len(boots)} boots, {missed} link-ups missed')
        print(f'  first link-up after boot: {stats(first)}')
        print(f'  every link-up:            {stats(every)}')


if __name__ == '__main__':
    main()
