#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of series.py: an export keeps the section headers of series
before the patches they name, however the patches are renumbered, and
refuses to lose one."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import series  # noqa: E402

OLD = ['# section rcu: rcuscale', '# tree: rcu', '0001-rcu-a.patch', '0002-rcu-b.patch',
       '# section slab: SLUB', '0003-lib-test.patch', series.MARKER, '0004-mm-slub.patch', '']


class SeriesTest(unittest.TestCase):
    def test_headers_follow_renumbered_patches(self):
        new = ['0001-rcu-a.patch', '0002-rcu-b.patch', '0003-lib-test.patch',
               '0004-lib-bench.patch', '0005-mm-slub.patch']
        self.assertEqual(series.new_series(OLD, new), [
            '# section rcu: rcuscale', '# tree: rcu', '0001-rcu-a.patch', '0002-rcu-b.patch',
            '# section slab: SLUB', '0003-lib-test.patch', series.MARKER,
            '0004-lib-bench.patch', '0005-mm-slub.patch'])

    def test_marker_follows_its_patch_through_a_rebase(self):
        # A patch dropped before the marker and one added after it: the
        # marker stays after lib-test, which is now patch 2.
        out = series.new_series(OLD, ['0001-rcu-a.patch', '0002-lib-test.patch',
                                      '0003-lib-bench.patch', '0004-mm-slub.patch'])
        self.assertEqual(out[out.index(series.MARKER) - 1], '0002-lib-test.patch')
        self.assertEqual(series.base_patches(out), ['0001-rcu-a.patch', '0002-lib-test.patch'])

    def test_marker_moved_by_hand_is_kept(self):
        moved = [x for x in OLD if x != series.MARKER]
        moved.insert(moved.index('0004-mm-slub.patch') + 1, series.MARKER)
        out = series.new_series(moved, ['0001-rcu-a.patch', '0002-rcu-b.patch',
                                        '0003-lib-test.patch', '0004-mm-slub.patch'])
        self.assertEqual(out[-1], series.MARKER)

    def test_marker_of_a_gone_patch_is_refused(self):
        old = ['0001-rcu-a.patch', '0002-lib-test.patch', series.MARKER, '0003-mm-slub.patch']
        with self.assertRaisesRegex(ValueError, 'bench-base marker follows lib-test.patch'):
            series.new_series(old, ['0001-rcu-a.patch', '0002-mm-slub.patch'])

    def test_no_marker_no_base(self):
        out = series.new_series([x for x in OLD if x != series.MARKER],
                                ['0001-rcu-a.patch', '0002-rcu-b.patch',
                                 '0003-lib-test.patch', '0004-mm-slub.patch'])
        self.assertNotIn(series.MARKER, out)
        with self.assertRaisesRegex(ValueError, 'no bench-base marker'):
            series.base_patches(out)

    def test_header_of_a_gone_patch_is_refused(self):
        with self.assertRaisesRegex(ValueError, 'lib-test.patch'):
            series.new_series(OLD, ['0001-rcu-a.patch', '0002-rcu-b.patch',
                                    '0003-mm-slub.patch'])

    def test_comment_after_the_last_patch_is_refused(self):
        with self.assertRaisesRegex(ValueError, 'after the last patch'):
            series.new_series(['0001-a.patch', '# section x: nothing'], ['0001-a.patch'])

    def test_two_patches_of_one_name_are_refused(self):
        with self.assertRaisesRegex(ValueError, 'rcu-a.patch'):
            series.new_series(OLD, ['0001-rcu-a.patch', '0002-rcu-a.patch'])

    def test_a_patch_moved_across_a_section_is_named(self):
        # A rebase put the SLUB patch first, before every header: the slab
        # section lost it (sections.sh refuses a patch in no section).
        # Moved between two rcu patches, it changes both sections.
        new = series.new_series(OLD, ['0001-mm-slub.patch', '0002-rcu-a.patch',
                                      '0003-rcu-b.patch', '0004-lib-test.patch'])
        self.assertEqual(series.changed_sections(OLD, new), ['slab'])
        moved = series.new_series(OLD, ['0001-rcu-a.patch', '0002-mm-slub.patch',
                                        '0003-rcu-b.patch', '0004-lib-test.patch'])
        self.assertEqual(series.changed_sections(OLD, moved), ['rcu', 'slab'])
        self.assertEqual(series.changed_sections(OLD, OLD), [])

    def test_no_old_series(self):
        self.assertEqual(series.new_series([], ['0001-a.patch', '0002-b.patch']),
                         ['0001-a.patch', '0002-b.patch'])


if __name__ == '__main__':
    unittest.main(argv=sys.argv[:1])
