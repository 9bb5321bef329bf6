#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: makes sure build/linux holds exactly patches/, runs the
# judges' own tests, then scripts/check-tree.sh: each test configuration
# built, booted under QEMU (KUnit at boot, then the slab_bulk kselftest)
# and judged.
. "$(dirname "$0")/lib.sh"

bash "$TOP/scripts/tree.sh"
tree_matches_patches
# The judges' own tests first.
judge_tests "$BUILD/check"
exec bash "$TOP/scripts/check-tree.sh"
