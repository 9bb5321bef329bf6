#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sections.sh [build]: the sections of series, as the trees that take
# them would apply them. A section starts with "# section NAME: what it
# is", says "# tree: ..." (where it goes, on which base) and
# "# depends: NAME... | none", and has its cover letter in covers/NAME.txt.
# For each section, its patches and those of the sections it depends on
# (and theirs), in series order, are applied with git am (no 3-way
# merge) to the bare base; with "build", the test configuration is built
# there too. Fails on a patch outside every section or missing from
# series, a section without patches or without its "# tree:" or
# "# depends:" line, an unknown or later dependency, a cover letter that
# does not start with its Subject: line, or a section that does not
# apply (or build).
. "$(dirname "$0")/lib.sh"

build=${1:-}
series=$PATCHES/series
if ! grep -q '^# section ' "$series"; then
	log "sections: none in ${series#"$TOP"/}"
	exit 0
fi

declare -A PATCHES_OF DEPS_OF TREE_OF
names=() cur= bad=0 listed=
while read -r line || [ -n "$line" ]; do
	case $line in
	'# section '*)
		cur=${line#\# section }; cur=${cur%%:*}
		[ -z "${PATCHES_OF[$cur]+x}" ] || die "series: section $cur twice"
		names+=("$cur"); PATCHES_OF[$cur]= ;;
	'# depends: '*)
		[ -n "$cur" ] || die "series: '$line' before any section"
		DEPS_OF[$cur]=${line#\# depends: }
		[ "${DEPS_OF[$cur]}" != none ] || DEPS_OF[$cur]= ;;
	'# tree: '*)
		[ -n "$cur" ] || die "series: '$line' before any section"
		TREE_OF[$cur]=${line#\# tree: } ;;
	''|'#'*) ;;
	*)
		[ -n "$cur" ] || die "series: $line is in no section"
		PATCHES_OF[$cur]+=" $line"
		listed="$listed $line" ;;
	esac
done < "$series"
# Every patch file of the folder is in series, in the order of its number.
files=$(cd "$PATCHES" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-' | paste -sd' ' -)
[ "${listed# }" = "$files" ] ||
	die "series lists other patches, or in another order, than ${PATCHES#"$TOP"/}/ holds"

# Usage: closure NAME; NAME's dependencies, theirs, and NAME, each once,
# in series order. A dependency must come earlier in series.
closure() {
	local want=" $1 " changed=1 n d
	while [ $changed = 1 ]; do
		changed=0
		for n in $want; do
			for d in ${DEPS_OF[$n]-}; do
				case $want in *" $d "*) ;; *) want="$want$d "; changed=1 ;; esac
			done
		done
	done
	for n in "${names[@]}"; do
		case $want in *" $n "*) echo "$n" ;; esac
	done
}

wt=$BUILD/wt-sections/linux
git -C "$TREE" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
mkdir -p "$(dirname "$wt")"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$wt" base
trap 'git -C "$TREE" worktree remove --force "$wt" 2>/dev/null || true' EXIT
# The sections' own lines first: a dependency that is no earlier section
# stops the check before any patch is applied.
for s in "${names[@]}"; do
	[ -n "${PATCHES_OF[$s]}" ] || { echo "section $s: no patches"; bad=1; }
	[ -n "${TREE_OF[$s]-}" ] || { echo "section $s: no '# tree:' line"; bad=1; }
	[ -n "${DEPS_OF[$s]+x}" ] || { echo "section $s: no '# depends:' line"; bad=1; continue; }
	for d in ${DEPS_OF[$s]}; do
		before=0
		for n in "${names[@]}"; do
			[ "$n" != "$s" ] || break
			[ "$n" != "$d" ] || before=1
		done
		[ $before = 1 ] || { echo "section $s: depends on $d, which is not an earlier section"; bad=1; }
	done
	cover=$PATCHES/covers/$s.txt
	if ! head -n 1 "$cover" 2>/dev/null | grep -q '^Subject: \[PATCH'; then
		echo "section $s: ${cover#"$TOP"/} does not start with its Subject: [PATCH ...] line"; bad=1
	fi
done
for c in "$PATCHES"/covers/*.txt; do
	[ -e "$c" ] || continue
	n=$(basename "$c" .txt)
	[ -n "${PATCHES_OF[$n]+x}" ] || { echo "${c#"$TOP"/}: no section $n in series"; bad=1; }
done
[ $bad = 0 ] || die "sections: see above"
for s in "${names[@]}"; do
	with=$(closure "$s" | paste -sd' ' -)
	git -C "$wt" checkout -q --detach -f base
	applied=0 failed=
	for n in $with; do
		for p in ${PATCHES_OF[$n]}; do
			if git -C "$wt" am -q --no-3way --keep-cr "$PATCHES/$p" > "$BUILD/sections-am.err" 2>&1; then
				applied=$((applied + 1))
			else
				git -C "$wt" am --abort 2>/dev/null || true
				failed=$p
				break 2
			fi
		done
	done
	if [ -n "$failed" ]; then
		echo "section $s (with $with): $failed does not apply"
		head -5 "$BUILD/sections-am.err"
		bad=1
		continue
	fi
	result="$applied patches apply"
	if [ "$build" = build ]; then
		if CONFIG_UNKNOWN_OK=1 SRC=$wt bash "$TOP/scripts/build.sh" test \
			"$BUILD/wt-sections/out/test" > "$BUILD/sections-build.log" 2>&1; then
			result="$result and build"
		else
			result="$result, the build FAILED"
			tail -20 "$BUILD/sections-build.log"
			bad=1
		fi
	fi
	echo "section $s (on the base with: $with): $result"
done
[ $bad = 0 ] || die "sections: see above"
log "sections: ${#names[@]} sections each apply on the base with those they name${build:+, and build}"
