#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make selftest-harness: shows that the checks catch what they are for.
# Runs the judges' unit tests, then for each mutation of scripts/mutations
# (a deliberate bug, as a diff against the series) applies it to a scratch
# worktree of build/linux and runs scripts/check-tree.sh on it, one
# configuration of MUTANT_CONFIGS (default "test debug", make check's) at
# a time until one fails. A mutant that passes them all fails this target.
# Writes build/mutants/NAME.log and build/mutants/summary.txt, which names
# the configuration and the checker that caught each mutant.
. "$(dirname "$0")/lib.sh"

all=$(cd "$TOP/scripts/mutations" && ls ./*.diff | sed 's|^\./||; s|\.diff$||')
MUTATIONS=${MUTATIONS:-$all}
MUTANT_CONFIGS=${MUTANT_CONFIGS:-test debug}
need_one_of MUTATIONS "$MUTATIONS" $all
need_configs "$MUTANT_CONFIGS"

bash "$TOP/scripts/tree.sh"
tree_matches_patches
dir=$BUILD/mutants
mkdir -p "$dir"
for t in test_ktap test_report; do
	/usr/bin/python3 "$TOP/scripts/$t.py" "$TREE" > "$dir/$t.log" 2>&1 ||
		{ cat "$dir/$t.log"; die "scripts/$t.py failed"; }
	log "$t: $(grep '^Ran ' "$dir/$t.log"), all as expected"
done

# Usage: mutant NAME; prints "CONFIG: what the judge said" for the first
# configuration that fails on the mutant, or returns 1 if none does.
mutant() {
	local m=$1 mb=$dir/$1 cfg
	git -C "$TREE" worktree remove --force "$mb/linux" 2>/dev/null || true
	rm -rf "$mb"
	git -C "$TREE" worktree prune
	mkdir -p "$mb"
	git -C "$TREE" worktree add -q --detach "$mb/linux" HEAD
	git -C "$mb/linux" apply "$TOP/scripts/mutations/$m.diff" ||
		die "mutation $m does not apply to the series: update scripts/mutations/$m.diff"
	cp "$BUILD/kvm-probe" "$mb/" 2>/dev/null || true
	for cfg in $MUTANT_CONFIGS; do
		if BUILD=$mb TREE=$mb/linux CHECK_CONFIGS=$cfg bash "$TOP/scripts/check-tree.sh" \
			> "$dir/$m.$cfg.log" 2>&1; then
			continue
		fi
		# The judge's line for the log, and the failed tests' names.
		echo "$cfg: $(grep -E "^$cfg: " "$dir/$m.$cfg.log" | tr '\n' ' ' || tail -1 "$dir/$m.$cfg.log")"
		cp "$mb/check/$cfg.log" "$dir/$m.$cfg.console.log" 2>/dev/null || true
		git -C "$TREE" worktree remove --force "$mb/linux"
		rm -rf "$mb"
		return 0
	done
	git -C "$TREE" worktree remove --force "$mb/linux"
	rm -rf "$mb"
	return 1
}

bad=0
: > "$dir/summary.txt"
for m in $MUTATIONS; do
	log "mutant $m: $(head -1 "$TOP/scripts/mutations/$m.diff")"
	start=$SECONDS
	if seen=$(mutant "$m"); then
		line="$m: caught in $((SECONDS - start)) s by $seen"
	else
		line="$m: NOT CAUGHT by $MUTANT_CONFIGS in $((SECONDS - start)) s"
		bad=1
	fi
	echo "$line" | tee -a "$dir/summary.txt"
done
[ $bad = 0 ] || die "a mutant passed make check's configurations: see $dir/summary.txt"
