#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sparse.sh CONFIG : compiles every kernel C file the series touches (not
# the user space under tools/) with W=1 and
# sparse (C=2), at the base and at the series, in the CONFIG configuration
# with IXGBE=m (a driver the series converts that QEMU cannot run). The
# warnings of each compile (those of the headers it includes too) are
# compared as text, line numbers left out: one the base did not have
# fails, except the base's warnings about a function whose code the series
# moved into another, named in configs/matrix/sparse.moved, which count
# under the new name. A file that does not compile fails.
. "$(dirname "$0")/lib.sh"

cfg=${1:?usage: sparse.sh CONFIG}
wt=$BUILD/wt-sparse
# Kernel C files only: tools/ holds user space (the selftests' programs),
# which kbuild and sparse's kernel checks do not apply to.
files=$(git -C "$TREE" diff --name-only --diff-filter=AM base HEAD -- '*.c' ':!tools/')
[ -n "$files" ] || die "no C files touched between base and HEAD"

# Usage: warnings REV OUT; compiles each touched file at REV (a file REV
# lacks is left out) into OUT/w/FILE.txt: its warnings, one a line, with
# the line and column numbers removed.
warnings() {
	local rev=$1 out=$2 f w
	git -C "$wt" checkout -q --detach "$rev"
	mkdir -p "$out"
	cp "$(out_dir "$cfg")/.config" "$out/.config"
	(cd "$wt" && scripts/config --file "$out/.config" -m IXGBE &&
	 make -s O="$out" CC="ccache gcc" olddefconfig prepare) >&2
	for f in $files; do
		w=$out/w/$f.txt
		mkdir -p "$(dirname "$w")"
		: > "$w"
		[ -f "$wt/$f" ] || continue
		rm -f "$out/${f%.c}.o"
		(cd "$wt" && make -s O="$out" CC="ccache gcc" W=1 C=2 "${f%.c}.o") > "$w.log" 2>&1 ||
			{ cat "$w.log" >&2; die "$f does not compile at $rev"; }
		grep 'warning:' "$w.log" | sed -E 's/:[0-9]+(:[0-9]+)?:/:/; s|^.*/wt-sparse/||' | sort > "$w" || true
	done
}

bash "$TOP/scripts/build.sh" "$cfg" >&2
# A file the configuration does not build cannot be compiled alone: it is
# left out only if configs/matrix/sparse.unbuilt names it, and the report
# says so; any other fails. ixgbe is built: warnings() turns it on.
built= unbuilt=
for f in $files; do
	case $f in
	drivers/net/ethernet/intel/ixgbe/*) built="$built $f" ;;
	*) if [ -f "$(out_dir "$cfg")/${f%.c}.o" ]; then built="$built $f"
	   elif grep -q "^$f " "$CONFIGS/matrix/sparse.unbuilt"; then unbuilt="$unbuilt $f"
	   else die "$f is not built in $cfg and not listed in configs/matrix/sparse.unbuilt"; fi ;;
	esac
done
files=$built
git -C "$TREE" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$wt" base
rm -rf "$BUILD/out/sparse-base" "$BUILD/out/sparse-series"
warnings base "$BUILD/out/sparse-base"
warnings "$(git -C "$TREE" rev-parse HEAD)" "$BUILD/out/sparse-series"
git -C "$TREE" worktree remove --force "$wt"
# The base's warnings about a function whose code the series moved
# (configs/matrix/sparse.moved) count under the new name.
moved=$TOP/configs/matrix/sparse.moved
renamed() {
	local f=$1 mf mo mn rest args=()
	while read -r mf mo mn rest; do
		[ "$mf" = "$f" ] && args+=(-e "s/ in '$mo' / in '$mn' /")
	done < <(grep -v '^#' "$moved")
	if [ ${#args[@]} = 0 ]; then cat; else sed "${args[@]}" | sort; fi
}
more=0
for f in $files; do
	old=$BUILD/out/sparse-base/w/$f.txt new=$BUILD/out/sparse-series/w/$f.txt
	renamed "$f" < "$old" > "$old.moved"
	old=$old.moved
	added=$(comm -13 "$old" "$new")
	printf '%-56s base %3d  series %3d  new %3d\n' "$f" "$(wc -l < "$old")" "$(wc -l < "$new")" \
		"$(printf '%s' "$added" | grep -c . || true)"
	[ -z "$added" ] || { echo "$added" | sed 's/^/    /'; more=$((more + 1)); }
done
[ -z "$unbuilt" ] || echo "not built in $cfg, not compared:$unbuilt"
echo "W=1 C=2: $(echo $files | wc -w) files, $more with warnings the base did not have"
[ $more = 0 ]
