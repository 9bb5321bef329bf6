#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make matrix: the configurations too slow for make check. Each one is
# built and booted like make check (KUnit at boot, the kselftest with the
# stress) and judged by scripts/ktap.py against the [matrix.NAME] section
# of expect/BASE (the skips it expects; the suites it must run, if not
# the required ones);
# the other architectures are built only; "sparse" compiles every C file
# the series touches with W=1 and sparse and compares the warnings with
# the base's. Writes build/matrix/NAME.log and build/matrix/summary.txt.
# MATRIX chooses entries (default: all, in table order).
. "$(dirname "$0")/lib.sh"

# NAME, the kernel (configs joined by "+", see build.sh), then settings:
# NAME=VALUE in capitals is for the harness (qemu.sh's SMP, MEM, NUMA;
# ARCH and CROSS_COMPILE for build.sh; REQUIRE, an extended regular expression the console must match,
# "." for a space; BUILD_ONLY=1; SPARSE=1; MODE, the guest's job, default
# check; COMPARE=base: the same kernel is built from the bare base too,
# both boot, and scripts/compare_runs.py requires the series to give every
# result the base gives, and the base to pass RESULTS but for upstream's
# own failures, listed in [matrix.NAME] of expect/BASE), anything else goes
# on the kernel command line, where it replaces the default of the same
# name. The upstream entries boot twice because KFENCE takes a sample of
# the allocations kasan's cases check (kasan's own tests then miss their
# report): KFENCE off for kasan, kfence's suite alone with it on. The
# kfence boot runs test_meminit too: its churn drains KASAN's quarantine,
# and on 6.12 a drained object keeps the shadow's "free track here" mark
# while SLUB's free pointer overwrites the track, so a kasan case that
# reports next to one prints stackdepot warnings on the garbage handle,
# on whichever kernel the layout puts one there (seen once on each).
# Entries that share a kernel build it once; the slowest comes last.
TABLE='
rt        test+rt+lockdep     -
pagealloc test+numa+pagealloc debug_pagealloc=on init_on_free=1
poison    test+numa+pagealloc debug_pagealloc=on page_poison=1
numa      test+numa+pagealloc NUMA=2 SMP=4 MEM=4G REQUIRE=nodes=0-1.cpus=4
memcg     test                slab_bulk.memcg=1 REQUIRE=slab_bulk:.memcg./slab_bulk_run
tiny      test+tiny           -
i386      test+i386           ARCH=i386 BUILD_ONLY=1
arm64     test+arm64          ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- BUILD_ONLY=1
sparse    test+numa           SPARSE=1
ubsan     test+ubsan          -
upstream  test+upstream       COMPARE=base MODE=kunit RESULTS=slub_test,kasan,test_vmalloc kfence.sample_interval=0 initcall_blacklist=test_meminit_init slab_bulk.load=test_vmalloc test_vmalloc.test_loop_count=1000 test_vmalloc.run_test_mask=4871
upstream-kfence test+upstream COMPARE=base MODE=kunit RESULTS=kfence,test_meminit kunit.filter_glob=kfence init_on_alloc=1
kcsan     test+kcsan          slab_bulk.stress_secs=300
debian    debian              slab_nomerge
'
names=$(echo "$TABLE" | awk 'NF { print $1 }')
# Debian's configuration is of 6.12 (configs/debian.config).
[ "$BASE" = 6.12 ] || names=$(echo "$names" | grep -vx debian)
want=${MATRIX:-$names}
need_one_of MATRIX "$want" $names
want=$(echo ${want//,/ })
timeout=${MATRIX_TIMEOUT:-3600}
need_uint MATRIX_TIMEOUT "$timeout"

# Debian's configuration of the base, for the debian entry (6.12 only).
extra=
[[ " $want " != *" debian "* ]] || extra=$DEBIAN_CONFIG_PKG
bash "$TOP/scripts/deps.sh" gcc-aarch64-linux-gnu $extra
bash "$TOP/scripts/tree.sh"
tree_matches_patches
dir=$BUILD/matrix
mkdir -p "$dir"
rm -f "$dir/summary.txt"

# The bare base's tree, for COMPARE=base, laid out like the series' tree
# so that ccache serves it the files the series does not touch.
bare=$BUILD/wt-bare/linux

# Usage: build_bare KERNEL; builds KERNEL's configuration from the bare
# base, with the series' initramfs (the kselftest is not run there).
build_bare() {
	if [ ! -d "$bare" ]; then
		mkdir -p "$(dirname "$bare")"
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$bare" base
	fi
	git -C "$bare" checkout -q --detach -f base
	# The base lacks the options the series adds.
	CONFIG_UNKNOWN_OK=1 SRC=$bare bash "$TOP/scripts/build.sh" "$1" "$BUILD/wt-bare/out/$1" &&
		bash "$TOP/scripts/initramfs.sh" "$BUILD/wt-bare/out/$1" &&
		same_config "$BUILD/wt-bare/out/$1/.config" "$(out_dir "$1")/.config"
}

# Usage: same_config BASE_CONFIG SERIES_CONFIG; fails, naming them, if the
# two differ in an option the base's Kconfig has: CONFIG_UNKNOWN_OK lets
# the base's build leave out any option it does not end up with, not only
# the series' own.
same_config() {
	local sym differ=
	for sym in $(diff <(grep '^CONFIG_' "$1" | sort) <(grep '^CONFIG_' "$2" | sort) |
		     sed -n 's/^[<>] CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' | sort -u); do
		! grep -rqE --include='Kconfig*' "^(menu)?config $sym\$" "$bare" || differ="$differ $sym"
	done
	[ -z "$differ" ] || { echo "the base's and the series' configurations differ in:$differ"; return 1; }
}

# Usage: boot NAME KERNEL [SETTING...]; boots KERNEL with NAME's settings
# and judges the log.
boot() {
	local name=$1 cfg=$2 s require= mode=check compare= results=
	local env=(MEM=3G "TIMEOUT=$timeout") append=()
	local -A param=([slab_bulk.pktgen_count]=100000 [slab_bulk.pktgen_timeout]=300
			[slab_bulk.stress_secs]=60)
	shift 2
	for s in "$@"; do
		case $s in
		-) ;;
		REQUIRE=*) require=${s#REQUIRE=} ;;
		MODE=*) mode=${s#MODE=} ;;
		COMPARE=*) compare=${s#COMPARE=} ;;
		RESULTS=*) results=${s#RESULTS=} ;;
		[A-Z]*=*) env+=("$s") ;;
		*=*) param[${s%%=*}]=${s#*=} ;;
		*) append+=("$s") ;;
		esac
	done
	for s in "${!param[@]}"; do
		append+=("$s=${param[$s]}")
	done
	env "${env[@]}" bash "$TOP/scripts/qemu.sh" "$cfg" "$dir/$name.log" "$mode" "${append[@]}" \
		< /dev/null || true
	if [ -n "$compare" ]; then
		env "${env[@]}" bash "$TOP/scripts/qemu.sh" "$BUILD/wt-bare/out/$cfg" \
			"$dir/$name.base.log" "$mode" "${append[@]}" < /dev/null || true
		/usr/bin/python3 "$TOP/scripts/compare_runs.py" --expect "$EXPECT" --entry "$name" \
			"$TREE" "$results" "$dir/$name.base.log" "$dir/$name.log" > "$dir/$name.judge" ||
			return 1
		return
	fi
	/usr/bin/python3 "$TOP/scripts/ktap.py" --expect "$EXPECT" "$TREE" \
		"matrix.$name=$dir/$name.log" > "$dir/$name.judge" || return 1
	if [ -n "$require" ] && ! grep -Eq "${require//./ }" "$dir/$name.log"; then
		echo "$name: the console lacks '${require//./ }'" >> "$dir/$name.judge"
		return 1
	fi
}

# Usage: run NAME KERNEL [SETTING...]; one entry: build, then boot or not.
run() {
	local name=$1 cfg=$2 s build_env=() build_only=0 sparse=0 compare=
	for s in "${@:3}"; do
		case $s in
		ARCH=*|CROSS_COMPILE=*) build_env+=("$s") ;;
		BUILD_ONLY=1) build_only=1 ;;
		SPARSE=1) sparse=1 ;;
		COMPARE=base) compare=base ;;
		COMPARE=*) die "matrix: $name: COMPARE=${s#COMPARE=}: only COMPARE=base exists" ;;
		esac
	done
	if [ $sparse = 1 ]; then
		bash "$TOP/scripts/sparse.sh" "$cfg" > "$dir/$name.judge" 2>"$dir/$name.log"
		return
	fi
	# The other architectures build with CONFIG_WERROR: a warning fails
	# them on every run, not only on the one that compiled the file.
	if ! env "${build_env[@]}" bash "$TOP/scripts/build.sh" "$cfg" > "$dir/$name.build.log" 2>&1; then
		{ echo "build failed:"; grep -E 'error|warning' "$dir/$name.build.log" | head -5; } > "$dir/$name.judge"
		return 1
	fi
	if [ $build_only = 1 ]; then
		echo "built, no warnings (CONFIG_WERROR)" > "$dir/$name.judge"
		return
	fi
	bash "$TOP/scripts/initramfs.sh" "$cfg" ||
		{ echo "initramfs failed" > "$dir/$name.judge"; return 1; }
	if [ -n "$compare" ] && ! build_bare "$cfg" > "$dir/$name.base-build.log" 2>&1; then
		{ echo "the base's build failed:"; tail -5 "$dir/$name.base-build.log"; } > "$dir/$name.judge"
		return 1
	fi
	boot "$@"
}

while read -r name cfg settings; do
	[ -n "$name" ] && [[ " $want " == *" $name "* ]] || continue
	log "matrix: $name ($cfg $settings)"
	rm -f "$dir/$name".*
	start=$SECONDS
	# shellcheck disable=SC2086 # settings are words
	if run "$name" "$cfg" $settings < /dev/null; then verdict=ok; else verdict=FAILED; fi
	echo "$name|$cfg|$settings|$((SECONDS - start))|$verdict|$(tail -1 "$dir/$name.judge" 2>/dev/null)" > "$dir/$name.result"
	log "matrix: $name: $verdict in $((SECONDS - start)) s"
done <<< "$TABLE"
{
	echo "make matrix, $(date -u +%F), tree $(git -C "$TREE" describe --always), base $(base_version), QEMU $QEMU_MACHINE"
	printf '%-10s %-20s %7s  %-7s %s\n' entry kernel seconds verdict result
	for name in $want; do
		[ -f "$dir/$name.result" ] || { printf '%-10s %-20s %7s  %-7s %s\n' "$name" - - FAILED "not run"; continue; }
		IFS='|' read -r n cfg settings secs verdict line < "$dir/$name.result"
		printf '%-10s %-20s %7s  %-7s %s\n' "$n" "$cfg" "$secs" "$verdict" "$line"
		echo "           settings: $settings"
	done
} | tee "$dir/summary.txt"
! grep -q ' FAILED ' "$dir/summary.txt"
