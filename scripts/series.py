#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a new series file for freshly exported patches, keeping the
comments of the old one.

Usage: series.py OLD_SERIES NEW_PATCH...
       series.py --base SERIES   (the patches of the benchmark's base, a line each)

The series file is a list of patch files in the order git am applies
them. Comment lines before a patch (a "# section NAME: ..." header and
what it says of the section's tree and dependencies) belong to that
patch and are written before it again, found by the patch's name
without its number, which export renumbers. A comment whose patch is
gone stops the export: the file
would lose a section header without saying so. A section whose patches
changed (one added, dropped, or moved in from a neighbour by a rebase)
is named on standard error, for the exporter to check.

The bench-base marker ends the benchmark's base kernel (bench.sh reads
it from series, never from a tag a rebase would leave behind). It stays
after the patch it followed, found by name like the comments, wherever
a rebase moved that patch; to move the marker, edit series. A marker
whose patch is gone stops the export.
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


def marker_after(lines):
    """The patch name (without number) the bench-base marker follows in
    @lines, or None without a marker."""
    last = None
    for line in lines:
        if line.startswith('# bench-base'):
            if last is None:
                raise ValueError('the bench-base marker comes before every patch')
            return last
        if line.strip() and not line.startswith('#'):
            last = NUMBER.sub('', line)
    return None


def base_patches(lines):
    """The patches of series @lines up to the bench-base marker: those the
    benchmark's base kernel is made of."""
    out = []
    for line in lines:
        if line.startswith('# bench-base'):
            return out
        if line.strip() and not line.startswith('#'):
            out.append(line.strip())
    raise ValueError('no bench-base marker')


def new_series(old_lines, patches):
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
    base_end = marker_after(old_lines)
    if base_end is not None and base_end not in names:
        raise ValueError(f'the bench-base marker follows {base_end}, which is gone '
                         '(move the marker in series)')
    out = []
    for p in patches:
        out += attached.get(NUMBER.sub('', p), []) + [p]
        if NUMBER.sub('', p) == base_end:
            out.append(MARKER)
    return out


def main(old, patches):
    try:
        with open(old, encoding='utf-8') as f:
            lines = f.read().split('\n')
    except FileNotFoundError:
        lines = []
    try:
        out = new_series(lines, patches)
    except ValueError as e:
        raise SystemExit(f'{old}: {e}')
    for name in changed_sections(lines, out):
        print(f'series: section {name} now holds ' + ' '.join(sections(out)[name]),
              file=sys.stderr)
    print('\n'.join(out))


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == '--base':
        with open(sys.argv[2], encoding='utf-8') as f:
            try:
                print('\n'.join(base_patches(f.read().split('\n'))))
            except ValueError as e:
                raise SystemExit(f'{sys.argv[2]}: {e}')
        sys.exit(0)
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2:])
