#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build.sh CONFIG [OUT] : builds the kernel tree $SRC (default $TREE) with
# configs/base.config + configs/CONFIG.config merged on allnoconfig, into
# $BUILD/out/OUT (default CONFIG), with its modules installed below it.
. "$(dirname "$0")/lib.sh"

cfg=${1:?usage: build.sh test|debug|bench [out-name]}
out=$(out_dir "${2:-$cfg}")
src=${SRC:-$TREE}
[ -f "$CONFIGS/$cfg.config" ] || die "no configs/$cfg.config"
[ -f "$src/Makefile" ] || die "no kernel tree at $src: run make tree"
mkdir -p "$out"

kmake() { make -s -C "$src" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"; }

log "config $cfg -> $out"
(cd "$src" && scripts/kconfig/merge_config.sh -n -O "$out" \
	"$CONFIGS/base.config" "$CONFIGS/$cfg.config") > "$out/merge.log" 2>&1 ||
	{ cat "$out/merge.log"; die "merging configs failed"; }
# An option a fragment asks for that Kconfig dropped (a missing
# dependency) would silently build a kernel without what a test needs.
# CONFIG_UNKNOWN_OK=1 lets through options this tree does not have at all
# (the series' own, when building the benchmark's base or, in make lint,
# the commits before the one that adds them), nothing else.
grep -A2 -E '^Value requested|^Value of' "$out/merge.log" | grep -v '^--$' > "$out/config-mismatch.txt" || true
dropped=$(awk -v unknown_ok="${CONFIG_UNKNOWN_OK:-0}" '
	/^Value (requested for|of)/ { opt = $4 }
	/^Actual value:/ { v = $0; sub(/^Actual value: */, "", v)
			   if (v != "" || unknown_ok != 1) print opt }' "$out/config-mismatch.txt")
[ -z "$dropped" ] ||
	{ cat "$out/config-mismatch.txt" >&2; die "configs/$cfg.config: not in the final .config:" $dropped; }
log "building $(git -C "$src" describe --always --tags 2>/dev/null || echo tree) ($cfg)"
kmake bzImage modules
rm -rf "$out/modroot"
kmake INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 modules_install >/dev/null
log "built $out/arch/x86/boot/bzImage"
