# SPDX-License-Identifier: GPL-2.0
# Shared by the harness's own shell tests (scripts/test_*.sh); sourced,
# never run. Without lib.sh's set -e: a failing case must not stop the
# others. Gives $top (the repository), $tmp (removed at exit) and the
# case results below.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
# Usage: ok WHAT / not_ok WHAT; one case's result line.
ok() { echo "ok $*"; pass=$((pass + 1)); }
not_ok() { echo "not ok $*"; fail=$((fail + 1)); }
# Usage: finish NAME; prints "NAME: N passed, N failed", fails if one did.
finish() { echo "$1: $pass passed, $fail failed"; [ "$fail" = 0 ]; }
