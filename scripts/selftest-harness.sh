#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make selftest-harness: shows that the checks catch what they are for.
# Runs the judges' unit tests, then the part of make check that tests a
# tree (scripts/check-tree.sh) on scratch worktrees of build/linux: first
# the series as it is (the control: it must pass, or the setup is what
# fails), then with each mutation of $MUTATIONS_DIR (scripts/mutations, or
# scripts/mutations/mainline for BASE=mainline: a deliberate bug, as a diff
# against the series), one configuration of MUTANT_CONFIGS
# (default "test debug", make check's) at a time until one fails. A
# mutant counts as caught only when the judge ran and failed it for more
# than the guest's hardware; one that passes every configuration, does
# not build or does not apply fails this target. Writes
# build/mutants/NAME.CONFIG.log (and .console.log) and
# build/mutants/summary.txt, which names the configuration and what the
# judge said of each mutant.
. "$(dirname "$0")/lib.sh"

all=$(cd "$MUTATIONS_DIR" && ls ./*.diff | sed 's|^\./||; s|\.diff$||')
MUTATIONS=${MUTATIONS:-$all}
MUTANT_CONFIGS=${MUTANT_CONFIGS:-test debug}
need_one_of MUTATIONS "$MUTATIONS" $all
need_configs "$MUTANT_CONFIGS"
MUTATIONS=$(echo ${MUTATIONS//,/ })

bash "$TOP/scripts/tree.sh"
tree_matches_patches
dir=$BUILD/mutants
mkdir -p "$dir"
judge_tests "$dir"

# Usage: worktree NAME [MUTATION]; a scratch worktree of the series at
# $dir/NAME/linux, with MUTATION applied.
worktree() {
	local mb=$dir/$1
	git -C "$TREE" worktree remove --force "$mb/linux" 2>/dev/null || true
	rm -rf "$mb"
	git -C "$TREE" worktree prune
	mkdir -p "$mb"
	git -C "$TREE" worktree add -q --detach "$mb/linux" HEAD
	cp "$BUILD/kvm-probe" "$mb/" 2>/dev/null || true
	[ -z "${2:-}" ] || git -C "$mb/linux" apply "$MUTATIONS_DIR/$2.diff"
}

drop_worktree() {
	git -C "$TREE" worktree remove --force "$dir/$1/linux"
	rm -rf "${dir:?}/$1"
}

# Usage: check NAME CONFIG; check-tree.sh on NAME's worktree with CONFIG.
# Prints the judge's verdict: "passed", "failed: WHAT THE JUDGE SAID",
# "hardware: ..." or "no verdict: LAST LINE" (it did not build or boot).
check() {
	local mb=$dir/$1 cfg=$2 logf=$dir/$1.$2.log
	local rc=0
	BUILD=$mb TREE=$mb/linux CHECK_CONFIGS=$cfg bash "$TOP/scripts/check-tree.sh" > "$logf" 2>&1 || rc=$?
	cp "$mb/check/$cfg.log" "$dir/$1.$cfg.console.log" 2>/dev/null || true
	if ! grep -q '^check: ' "$logf"; then
		echo "no verdict: $(tail -1 "$logf")"
	elif [ $rc = 0 ]; then
		echo passed
	elif grep -Eq "^  $cfg +passed .* HARDWARE$" "$logf"; then
		echo "hardware: $(grep -m1 "^$cfg: " "$logf")"
	else
		echo "failed: $(grep "^$cfg: " "$logf" | tr '\n' ' ')"
	fi
}

: > "$dir/summary.txt"
first=${MUTANT_CONFIGS%% *}
log "control: the series itself, $first configuration"
worktree control
verdict=$(check control "$first")
drop_worktree control
echo "control ($first): $verdict" | tee -a "$dir/summary.txt"
[ "$verdict" = passed ] || die "the series fails check-tree.sh in a scratch worktree: see $dir/control.$first.log"

bad=0
for m in $MUTATIONS; do
	log "mutant $m: $(head -1 "$MUTATIONS_DIR/$m.diff")"
	start=$SECONDS
	if ! worktree "$m" "$m"; then
		echo "$m: does not apply to the series: update $MUTATIONS_DIR/$m.diff" | tee -a "$dir/summary.txt"
		bad=1
		continue
	fi
	line="$m: NOT CAUGHT by $MUTANT_CONFIGS"
	for cfg in $MUTANT_CONFIGS; do
		verdict=$(check "$m" "$cfg")
		case $verdict in
		passed) continue ;;
		failed:*) line="$m: caught by $cfg, ${verdict#failed: }" ;;
		*) line="$m: ERROR on $cfg, $verdict" ;;
		esac
		break
	done
	drop_worktree "$m"
	echo "$line ($((SECONDS - start)) s)" | tee -a "$dir/summary.txt"
	[[ $line == *": caught by "* ]] || bad=1
done
[ $bad = 0 ] || die "a mutant was not caught: see $dir/summary.txt"
