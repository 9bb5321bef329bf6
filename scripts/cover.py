#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Carry the subject and text of the old cover letter into a new one.

git format-patch --cover-letter writes placeholders for both; the text a
person wrote lives in patches/0000-cover-letter.patch and must survive
every export, while the shortlog and diffstat below it are regenerated.
"""
import re
import sys

SHORTLOG = re.compile(r'^\S.* \(\d+\):$')


def old_parts(path):
    try:
        lines = open(path, encoding='utf-8').read().split('\n')
    except FileNotFoundError:
        return None, None
    subject = next((l for l in lines if l.startswith('Subject: ')), None)
    start = lines.index('') + 1
    end = next((i for i in range(start, len(lines)) if SHORTLOG.match(lines[i])),
               len(lines))
    body = '\n'.join(lines[start:end]).rstrip('\n')
    return subject, body


def main(old, new):
    subject, body = old_parts(old)
    text = open(new, encoding='utf-8').read()
    text = re.sub(r'^Date: .*$', 'Date: Sat, 1 Jan 2000 00:00:00 +0000', text,
                  count=1, flags=re.M)
    if subject:
        # The title only: the new "[PATCH 00/N]" prefix counts the patches.
        title = re.sub(r'^Subject: (\[[^]]*\] )?', '', subject)
        text = re.sub(r'\*\*\* SUBJECT HERE \*\*\*$',
                      title.replace('\\', r'\\'), text, count=1, flags=re.M)
    if body:
        text = text.replace('*** BLURB HERE ***\n', body + '\n\n', 1)
    open(new, 'w', encoding='utf-8').write(text)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
