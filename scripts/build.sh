#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build.sh CONFIG [OUT] : builds the kernel tree $SRC (default $TREE) with
# configs/base.config (and configs/base-$BASE.config, if there is one) +
# configs/CONFIG.config (and configs/CONFIG-$BASE.config) merged on
# allnoconfig, into
# $BUILD/out/OUT (default CONFIG), with its modules installed below it.
# CONFIG may name several fragments joined by "+" (test+rt: base, then
# test, then rt; a later fragment overrides an earlier one). ARCH (default
# x86_64, see lib.sh) and CROSS_COMPILE choose another architecture.
. "$(dirname "$0")/lib.sh"

cfg=${1:?usage: build.sh CONFIG[+FRAGMENT...] [out-name]}
out=$(out_dir "${2:-$cfg}")
src=${SRC:-$TREE}
need_configs "$cfg"
[ -f "$src/Makefile" ] || die "no kernel tree at $src: run make tree"
mkdir -p "$out"
frags=()
# What a base needs that the others lack (an option they do not have).
[ ! -f "$CONFIGS/base-$BASE.config" ] || frags+=("$CONFIGS/base-$BASE.config")
# A base's changes to a configuration (configs/debug-mainline.config)
# follow the configuration's own fragment.
for f in ${cfg//+/ }; do
	frags+=("$CONFIGS/$f.config")
	[ ! -f "$CONFIGS/$f-$BASE.config" ] || frags+=("$CONFIGS/$f-$BASE.config")
done

# The version string holds the build's time, user, host and count: fixed,
# as Documentation/kbuild/reproducible-builds.rst says, so that they are
# not what differs between two builds of one tree. Without them, two
# builds of one base gave the cost model's cycles 1.5 % apart on a row
# whose instruction count was equal (whether this removes all of that is
# not yet measured).
export KBUILD_BUILD_TIMESTAMP='2026-01-01 00:00:00 UTC' KBUILD_BUILD_VERSION=1
export KBUILD_BUILD_USER=slab-bulk KBUILD_BUILD_HOST=harness
kmake() { make -s -C "$src" O="$out" CC="ccache ${CROSS_COMPILE:-}gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"; }

# The first file of the merge: base.config on allnoconfig, or for a
# configuration that starts with "debian" (configs/debian.config) Debian's
# own, every module off.
start=(-n "$CONFIGS/base.config")
if [ "${cfg%%+*}" = debian ]; then
	debian_config > "$out/debian-start.config"
	start=("$out/debian-start.config")
fi
log "config $cfg ($ARCH) -> $out"
(cd "$src" && scripts/kconfig/merge_config.sh -O "$out" \
	"${start[@]}" "${frags[@]}") > "$out/merge.log" 2>&1 ||
	{ cat "$out/merge.log"; die "merging configs failed"; }
# An option a fragment asks for that Kconfig dropped (a missing
# dependency) would silently build a kernel without what a test needs.
# CONFIG_UNKNOWN_OK=1 lets through options this tree does not have at all
# (the series' own, when building the benchmark's base or, in make lint,
# the commits before the one that adds them), nothing else.
grep -A2 -E '^Value requested|^Value of' "$out/merge.log" | grep -v '^--$' > "$out/config-mismatch.txt" || true
# An option asked to be off that Kconfig left out (its dependencies are
# off) is off: that is no mismatch.
dropped=$(awk -v unknown_ok="${CONFIG_UNKNOWN_OK:-0}" '
	/^Value (requested for|of)/ { opt = $4; off = 0 }
	/^Requested value:.* is not set$/ { off = 1 }
	/^Actual value:/ { v = $0; sub(/^Actual value: */, "", v)
			   if (v == "" && off) next
			   if (v != "" || unknown_ok != 1) print opt }' "$out/config-mismatch.txt")
# Debian's own options that Kconfig drops with the modules they need are
# not asked for by a fragment.
[ "${cfg%%+*}" != debian ] || dropped=$(for o in $dropped; do
	! grep -qE "^(# )?$o[= ]" "${frags[@]}" || echo "$o"; done)
[ -z "$dropped" ] ||
	{ cat "$out/config-mismatch.txt" >&2; die "configs/$cfg.config: not in the final .config:" $dropped; }
log "building $(git -C "$src" describe --always --tags 2>/dev/null || echo tree) ($cfg)"
# "all": the architecture's boot image (bzImage, Image), vmlinux, modules.
kmake all
rm -rf "$out/modroot"
kmake INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 modules_install >/dev/null
log "built $out/$(kmake image_name)"
