#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a new series file for freshly exported patches, keeping the
comments of the old one.

Usage: series.py OLD_SERIES NR_BENCH_BASE NEW_PATCH...

The series file is a list of patch files in the order git am applies
them. Comment lines before a patch (a "# section NAME: ..." header and
what it says of the section's tree and dependencies) belong to that
patch and are written before it again, found by the patch's name
without its number, which export renumbers. The bench-base marker is
not kept from the old file: it goes after patch NR_BENCH_BASE, where
the tag is. A comment whose patch is gone stops the export: the file
would lose a section header without saying so. A section whose patches
changed (one added, dropped, or moved in from a neighbour by a rebase)
is named on standard error, for the exporter to check.
"""
import re
import sys

MARKER = '# bench-base: the kernel make bench compares against ends here'
NUMBER = re.compile(r'^\d{4}-')


def comments_by_patch(lines):
    """{patch name without number: [comment lines before it]}, and the
    comments after the last patch (None when there are none)."""
    attached, pending = {}, []
    for line in lines:
        if not line.strip() or line.startswith('# bench-base'):
            continue
        if line.startswith('#'):
            pending.append(line)
            continue
        if pending:
            attached[NUMBER.sub('', line)] = pending
        pending = []
    return attached, pending or None


def sections(lines):
    """{section name: [patch names without numbers]} of a series file."""
    out, cur = {}, None
    for line in lines:
        if line.startswith('# section '):
            cur = line[len('# section '):].split(':')[0]
            out[cur] = []
        elif line.strip() and not line.startswith('#') and cur is not None:
            out[cur].append(NUMBER.sub('', line))
    return out


def changed_sections(old_lines, new_lines):
    """The sections of @new_lines whose patches differ from @old_lines'."""
    old, new = sections(old_lines), sections(new_lines)
    return [name for name in new if old.get(name) != new[name]]


def new_series(old_lines, nr_base, patches):
    attached, trailing = comments_by_patch(old_lines)
    if trailing:
        raise ValueError(f'comments after the last patch: {trailing[0]}')
    names = [NUMBER.sub('', p) for p in patches]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError('patches whose names differ only in their numbers: '
                         + ', '.join(twice) + ' (a section line could go before either)')
    lost = sorted(k for k in attached if k not in names)
    if lost:
        raise ValueError('comments before a patch that is gone: ' + ', '.join(lost)
                         + ' (move them to a patch of the new series)')
    out = []
    for i, p in enumerate(patches, 1):
        out += attached.get(NUMBER.sub('', p), []) + [p]
        if i == nr_base:
            out.append(MARKER)
    return out


def main(old, nr_base, patches):
    try:
        with open(old, encoding='utf-8') as f:
            lines = f.read().split('\n')
    except FileNotFoundError:
        lines = []
    try:
        out = new_series(lines, int(nr_base), patches)
    except ValueError as e:
        raise SystemExit(f'{old}: {e}')
    for name in changed_sections(lines, out):
        print(f'series: section {name} now holds ' + ' '.join(sections(out)[name]),
              file=sys.stderr)
    print('\n'.join(out))


if __name__ == '__main__':
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
