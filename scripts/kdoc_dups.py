#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Declarations that two kernel-doc directives of Documentation/ render.

Usage: kdoc_dups.py TREE FILE...

For every ".. kernel-doc:: FILE" directive in TREE/Documentation/ whose
FILE is one of the FILEs given (paths relative to TREE; a FILE that is
an .rst stands for every file its own directives name), renders it with
TREE/scripts/kernel-doc and the options the kernel's Sphinx extension
gives it (:export:, :internal:, :identifiers:/:functions:,
:no-identifiers:, :doc:), and prints each C declaration rendered by more
than one directive: in one Sphinx build of the whole tree (make htmldocs)
each is a "Duplicate C declaration" warning, which a build of a single
folder (SPHINXDIRS) cannot see. Only directives at the start of a line
are read: indented ones (literal blocks, the doc guide's examples) are
not rendered as directives there, and a directive inside another
block is missed. Ends with "kernel-doc duplicates: N";
exits 2 when kernel-doc fails on a directive.
"""
import collections
import glob
import os
import re
import subprocess
import sys

DIRECTIVE = re.compile(r'^\.\.\s+kernel-doc::\s+(\S+)\s*$')
OPTION = re.compile(r'^\s+:([a-z-]+):\s*(.*)$')
DECL = re.compile(r'^\.\. c:(function|macro|struct|union|enum|type)::\s+(.*)$')


def directives(tree, files):
    """(rst, line, file, options) for each directive naming one of files."""
    found = []
    for rst in sorted(glob.glob(os.path.join(tree, 'Documentation', '**', '*.rst'),
                            recursive=True)):
        with open(rst, encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
        for i, line in enumerate(lines):
            m = DIRECTIVE.match(line)
            if not m or m.group(1) not in files:
                continue
            opts = {}
            j = i + 1
            while j < len(lines) and (o := OPTION.match(lines[j])):
                value = o.group(2)
                # A value goes on to the next line after a backslash.
                while value.endswith('\\') and j + 1 < len(lines):
                    j += 1
                    value = value[:-1] + ' ' + lines[j].strip()
                opts[o.group(1)] = value.split()
                j += 1
            found.append((os.path.relpath(rst, tree), i + 1, m.group(1), opts))
    return found


def export_files(tree, patterns):
    """-export-file arguments for the file patterns of :export: or
    :internal:, globbed in the tree as kerneldoc.py globs them."""
    files = [os.path.relpath(f, tree) for p in patterns
             for f in sorted(glob.glob(os.path.join(tree, p)))]
    return [a for f in files for a in ('-export-file', f)]


def kernel_doc_args(tree, path, opts):
    """scripts/kernel-doc's arguments for a directive, as the kernel's
    Sphinx extension (Documentation/sphinx/kerneldoc.py) builds them."""
    args = ['-rst']
    if 'export' in opts:
        args += ['-export'] + export_files(tree, opts['export'])
    elif 'internal' in opts:
        args += ['-internal'] + export_files(tree, opts['internal'])
    elif 'doc' in opts:
        return None  # a DOC: section, no declaration
    elif 'identifiers' in opts or 'functions' in opts:
        for name in opts.get('identifiers', []) + opts.get('functions', []):
            args += ['-function', name]
    elif 'no-identifiers' in opts:
        for name in opts['no-identifiers']:
            args += ['-nosymbol', name]
    return args + [path]


def declared(kind, text):
    """The name a c:KIND:: line declares: Sphinx's C domain has one
    namespace for all kinds."""
    if kind == 'function':
        text = text.split('(')[0]
    words = text.split()
    return words[-1].lstrip('*') if words else text


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.split('\n\n')[1])
    tree, files = os.path.abspath(sys.argv[1]), set(sys.argv[2:])
    for rst in [f for f in files if f.endswith('.rst')]:
        if not os.path.exists(os.path.join(tree, rst)):
            continue  # not there yet at the base
        with open(os.path.join(tree, rst), encoding='utf-8', errors='replace') as f:
            files |= {m.group(1) for m in map(DIRECTIVE.match, f) if m}
    where = collections.defaultdict(list)
    for rst, line, path, opts in directives(tree, files):
        args = kernel_doc_args(tree, path, opts)
        if args is None:
            continue
        run = subprocess.run([os.path.join(tree, 'scripts/kernel-doc')] + args, cwd=tree,
                             capture_output=True, text=True, check=False)
        if run.returncode:
            # kerneldoc.py fails the directive too.
            sys.exit(f'kdoc_dups.py: {rst}:{line}: kernel-doc {" ".join(args)} failed '
                     f'({run.returncode}): {run.stderr.strip()}')
        out = run.stdout
        for decl in {declared(*m.groups()) for m in map(DECL.match, out.split('\n')) if m}:
            where[decl].append(f'{rst}:{line}')
    dups = {d: w for d, w in where.items() if len(w) > 1}
    for decl, places in sorted(dups.items()):
        print(f'{decl}: rendered by {", ".join(places)}')
    print(f'kernel-doc duplicates: {len(dups)}')


if __name__ == '__main__':
    main()
