#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: builds the "base" kernel (the series up to the "# bench-base"
# line of series: tests and benchmarks on the base's own algorithms) and the
# "series" kernel (all patches) from the bench configuration, boots each
# once per layout seed (BENCH_LAYOUTS, seeds 1..K: the module starts its
# suites from a state the seed draws, and the suites run in an order it
# draws) under QEMU -icount shift=0 with two vCPUs and the costmodel plugin
# (plugin/), and writes build/bench/bench.json, report.md and the plots:
# per row, the median and 95 % interval over the seeds, judged against the
# gates of expect/BASE-bench.
. "$(dirname "$0")/lib.sh"

# Unset: every rcuscale case; set and empty: none.
RCUSCALE=${RCUSCALE-fixed,vary,call_rcu,call_rcu_vary}
RCUSCALE_ARGS=${RCUSCALE_ARGS:-kfree_loops=8,kfree_alloc_num=8000,kfree_nthreads=1}
# A boot repeats to the instruction under -icount: a second boot of one
# seed adds nothing, so each seed is one sample of the layouts. Six give a
# 96.9 % rank interval for a median (report.py); five cannot reach 95 %.
LAYOUTS=${BENCH_LAYOUTS:-6}
# 1: boot layout 1 of each kernel a second time, which must repeat its
# counts (instructions and modelled cycles) within report.py's tolerance.
REPEAT=${BENCH_REPEAT:-0}
BENCH_ARGS=${BENCH_ARGS:-}
# The configuration both kernels build: bench, and fragments of configs/
# to add, joined by "+" (bench+numa+hardened: SLAB_FREELIST_HARDENED on a
# NUMA kernel, as distributions build). Each has its own kernels and its
# own report folder, build/bench for bench, build/bench-numa-hardened...
BENCH_CONFIG=${BENCH_CONFIG:-bench}
# A third kernel, "alt", built from this commit of the tree: the simplest
# alternative to a patch (a branch with that patch replaced), measured in
# the same run as base and series. Empty: none.
BENCH_ALT=${BENCH_ALT:-}
# Memory nodes of the guest (qemu.sh): 2 puts one vCPU on each, so that
# the remote suite frees objects of the other node.
NUMA=${NUMA:-1}
case $BENCH_CONFIG in
bench|bench+*) need_configs "$BENCH_CONFIG" ;;
*) die "BENCH_CONFIG=$BENCH_CONFIG: bench, or bench+FRAGMENT... (configs/FRAGMENT.config)" ;;
esac
need_one_of NUMA "$NUMA" 1 2
name=${BENCH_CONFIG//+/-}
outdir=$BUILD/$name
need_one_of RCUSCALE "$RCUSCALE" fixed vary call_rcu call_rcu_vary
# Module parameters, comma-separated NAME=VALUE: those of test_slab_bulk_bench
# benchmark for BENCH_ARGS, rcuscale's sizes for RCUSCALE_ARGS (the cases
# set its kfree_by_call_rcu and kfree_vary_obj_size).
for a in ${BENCH_ARGS//,/ }; do
	case $a in
	bench_case=?*) ;;
	bench_n=*|bench_objs=*|bench_sections=*) need_uint "BENCH_ARGS ${a%%=*}" "${a#*=}" ;;
	bench_layout=*) die "BENCH_ARGS: bench_layout is make bench's own (BENCH_LAYOUTS=K runs seeds 1..K)" ;;
	*) die "BENCH_ARGS: unknown '$a' (known: bench_case=NAME bench_n=N bench_objs=N bench_sections=N)" ;;
	esac
done
for a in ${RCUSCALE_ARGS//,/ }; do
	case $a in
	kfree_loops=*|kfree_alloc_num=*|kfree_nthreads=*|kfree_mult=*)
		need_uint "RCUSCALE_ARGS ${a%%=*}" "${a#*=}" ;;
	*) die "RCUSCALE_ARGS: unknown '$a' (known: kfree_loops=N kfree_alloc_num=N kfree_nthreads=N kfree_mult=N)" ;;
	esac
done

bash "$TOP/scripts/tree.sh"
tree_matches_patches
base_ref=$(bench_base_commit)
kernels="base series"
if [ -n "$BENCH_ALT" ]; then
	# Resolved once, in the tree: HEAD~1 means the tree's, not the worktree's.
	alt=$(git -C "$TREE" rev-parse -q --verify "$BENCH_ALT^{commit}") ||
		die "BENCH_ALT=$BENCH_ALT: no such commit in $TREE"
	kernels="$kernels alt"
fi
# The suites: those of the series' benchmark module, then pktgen and (once
# the series has traffic.sh) traffic, which the kselftest times. Default:
# all of them. The module names its suites in bench_suites[]; before the
# split into test, stress and benchmark modules (the mainline series has
# not ported it), only in the description of its "bench" parameter.
src=$TREE/lib/test_slab_bulk_bench.c
if [ -f "$src" ]; then
	suites=$(sed -n '/^static const struct bench_suite bench_suites\[\]/,/^};/s/^\t{ "\([a-z0-9_]*\)",.*/\1/p' "$src")
else
	src=$TREE/lib/test_slab_bulk.c
	suites=$(sed -n 's/.*"Benchmark suite to run instead of the tests: \(.*\) or all".*/\1/p' "$src" | tr -d ,)
fi
[ -n "$suites" ] || die "no benchmark suites found in $src"
# costmodel is the plugin's known-answer test (make check runs it); it
# runs here only when SUITES names it, on kernels that have it.
suites=$(echo $suites | tr ' ' '\n' | grep -vx costmodel | tr '\n' ' ')
suites="$suites pktgen"
[ -f "$TREE/tools/testing/selftests/slab_bulk/traffic.sh" ] && suites="$suites traffic"
SUITES=${SUITES:-$(echo $suites | tr ' ' ,)}
need_one_of SUITES "$SUITES" $suites costmodel
# Every figure has the cost of an empty timed section subtracted, which
# only the calib suite measures: it always runs, first. The traffic suite
# runs last: the slab state its streams leave behind varies from boot to
# boot, and made the module's skb_free suite after it differ by 18 %
# between runs (results/2026-11-25-netbench/series-33).
case ",$SUITES," in
*,calib,*) ;;
*) SUITES=calib,$SUITES ;;
esac
case ",$SUITES," in
*,traffic,*) SUITES=$(echo ",$SUITES," | sed 's/,traffic,/,/; s/^,//; s/,$//'),traffic ;;
esac
mkdir -p "$outdir"

# The base kernel builds in a worktree laid out like the main tree, so
# that ccache serves it every file the series does not touch.
wt=$BUILD/wt-base/linux
# Runs of other BENCH_CONFIGs may go on beside this one, but the base
# worktree and the builds are one at a time: a second checkout there
# failed on git's index lock and ended its run. The boots are not locked.
exec {lock}>"$BUILD/bench.lock"
flock "$lock"
if [ ! -d "$wt" ]; then
	mkdir -p "$(dirname "$wt")"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" "$base_ref"
fi
git -C "$wt" checkout -q --detach -f "$base_ref"
# The alternative's worktree, laid out like the base's for ccache.
wt_alt=$BUILD/wt-alt/linux
if [ -n "$BENCH_ALT" ]; then
	[ -d "$wt_alt" ] || git -C "$TREE" worktree add -q --detach "$wt_alt" "$alt"
	git -C "$wt_alt" checkout -q --detach -f "$alt"
fi

declare -A SRC_OF=([base]=$wt [series]=$TREE [alt]=$wt_alt)
declare -A OUT_OF=([base]=$BUILD/wt-base/out/$name [series]=$BUILD/out/$name
		   [alt]=$BUILD/wt-alt/out/$name)
logs=()
# The base lacks options the series' patches add (CONFIG_SLAB_BULK_KUNIT...).
declare -A UNKNOWN_OK_OF=([base]=1 [series]=0 [alt]=0)
# A run without the third kernel leaves none of an earlier one's files.
rm -f "$outdir"/alt.commit "$outdir"/alt-layout* "$outdir"/*-run[0-9]*
for k in $kernels; do
	CONFIG_UNKNOWN_OK=${UNKNOWN_OK_OF[$k]} SRC=${SRC_OF[$k]} bash "$TOP/scripts/build.sh" "$BENCH_CONFIG" "${OUT_OF[$k]}"
	NET_BENCH_SRC=$TREE SRC=${SRC_OF[$k]} bash "$TOP/scripts/initramfs.sh" "${OUT_OF[$k]}"
	git -C "${SRC_OF[$k]}" log -1 --format="%h %s" > "$outdir/$k.commit"
done
flock -u "$lock"
# Usage: boot_layout KERNEL SEED LOG; one boot of KERNEL's bench guest,
# the module's suites starting from the state SEED draws, in the order it
# draws (calib first and traffic last all the same: see above).
boot_layout() {
	local suites
	suites=$(/usr/bin/python3 -c 'import random, sys
s = sys.argv[2].split(",")
mid = [x for x in s if x not in ("calib", "traffic")]
random.Random(int(sys.argv[1])).shuffle(mid)
print(",".join([x for x in s if x == "calib"] + mid + [x for x in s if x == "traffic"]))' "$2" "$SUITES")
	log "bench: $1 kernel, layout $2: $suites (console: $3)"
	# Two vCPUs: on one, the kernel patches its LOCK prefixes out,
	# and the plugin would count no atomics.
	COSTMODEL=${3%.log}.costmodel NUMA=$NUMA SMP=2 NIC=1 ICOUNT=1 MEM=2G TIMEOUT=${TIMEOUT:-2400} \
		bash "$TOP/scripts/qemu.sh" "${OUT_OF[$1]}" "$3" bench \
		"slab_bulk.suites=$suites" "slab_bulk.rcuscale=$RCUSCALE" \
		"slab_bulk.rcuscale_args=$RCUSCALE_ARGS" \
		"slab_bulk.bench_args=${BENCH_ARGS:+$BENCH_ARGS,}bench_layout=$2"
}
# Usage: boot_queued KERNEL SEED LOG; starts boot_layout in the background,
# JOBS boots at a time. Under -icount each QEMU runs its vCPUs in one host
# thread and its counts do not depend on the host, so boots side by side
# give the same figures as one after another (BENCH_REPEAT=1 shows it).
running=0
failed=0
# The plugin once, before boots that would each build it.
bash "$TOP/scripts/plugin.sh"
boot_queued() {
	if [ "$running" -ge "$JOBS" ]; then
		wait -n || failed=$((failed + 1))
		running=$((running - 1))
	fi
	boot_layout "$@" &
	running=$((running + 1))
	logs+=("$1:$2=$3")
}
for seed in $(seq 1 "$LAYOUTS"); do
	for k in $kernels; do
		boot_queued "$k" "$seed" "$outdir/$k-layout$seed.log"
	done
done
if [ "$REPEAT" = 1 ]; then
	for k in $kernels; do
		boot_queued "$k" 1 "$outdir/$k-layout1-repeat.log"
	done
fi
while [ "$running" -gt 0 ]; do
	wait -n || failed=$((failed + 1))
	running=$((running - 1))
done
[ "$failed" = 0 ] || die "bench: $failed of ${#logs[@]} boots failed (their consoles: $outdir)"
# Every suite and rcuscale case asked for must end with rc=0 in every
# console: one that never began left its rows out too.
parts=$( { for s in ${SUITES//,/ }; do echo "bench $s"; done
	   for c in ${RCUSCALE//,/ }; do echo "rcuscale $c"; done; } | paste -sd, -)
/usr/bin/python3 "$TOP/scripts/report.py" --out "$outdir" --parts "$parts" \
	--gates "$EXPECT-bench" --suites "$SUITES${RCUSCALE:+,kfree_rcu}" \
	--base-version "$BASE_PKG $(cat "$BUILD/base-version" 2>/dev/null || base_version)" \
	--config "${OUT_OF[series]}/.config" --config-name "$BENCH_CONFIG" \
	--guest "2 vCPUs, 2 GiB, $NUMA memory node$([ "$NUMA" = 1 ] || echo s)" "${logs[@]}"
