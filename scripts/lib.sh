# SPDX-License-Identifier: GPL-2.0
# Shared settings of the harness scripts; sourced, never run.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=${TREE:-$BUILD/linux}
PATCHES=$TOP/patches
CONFIGS=$TOP/configs
JOBS=${JOBS:-$(nproc)}
BASE_PKG=linux-source-6.12

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/slab-bulk-ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export ARCH=${ARCH:-x86_64}

# QEMU's q35 machine for every guest (tests, benchmarks, the KVM probe).
# Its ACPI tables give the PCI interrupt routing as a fixed table; the
# default "pc" machine computes it in an AML loop that a debug kernel under
# TCG can be too slow to finish within ACPICA's 30 s loop limit, which
# leaves the NIC's interrupt line unrouted. q35 also puts e1000e on PCIe.
export QEMU_MACHINE=${QEMU_MACHINE:-q35}

die() { echo "error: $*" >&2; exit 1; }
log() { echo "==> $*" >&2; }

# The Debian version of the base, e.g. 6.12.117-1~deb12u1.
base_version() { dpkg-query -W -f='${Version}' "$BASE_PKG"; }

# Build directory of a configuration name, or an absolute path as given.
out_dir() { case "$1" in /*) echo "$1" ;; *) echo "$BUILD/out/$1" ;; esac; }

# Writes the commits of $TREE since "base" into DIR as patches, in the
# stable form patches/ holds (no commit ids, no signature, object names of
# 9 digits: git's automatic length depends on how many loose objects the
# repository has, which for a new tree changes once gc packs them), with a
# cover letter whose text export.sh fills in.
format_series() {
	git -C "$TREE" format-patch -q --zero-commit --no-signature --cover-letter --abbrev=9 \
		--stat=72 -o "${1:?}" base..HEAD
}

# Fails unless $TREE is clean and holds exactly the patches of patches/,
# so that a test of the tree is a test of the series.
tree_matches_patches() {
	local tmp status
	status=$(git -C "$TREE" status --porcelain)
	[ -z "$status" ] || die "$TREE has uncommitted changes: commit them and make export, or FORCE=1 make tree"
	tmp=$(mktemp -d)
	format_series "$tmp"
	if ! diff -rq -x 0000-cover-letter.patch -x series "$tmp" "$PATCHES" >&2; then
		rm -rf "$tmp"
		die "$TREE differs from patches/: make export to keep the tree's commits, or FORCE=1 make tree to remake it from patches/"
	fi
	rm -rf "$tmp"
}

# Usage: need_uint NAME VALUE; dies unless VALUE is a whole number, so that
# a mistyped knob is refused instead of silently running less.
need_uint() {
	case $2 in
	''|*[!0-9]*) die "$1=$2: not a whole number" ;;
	esac
}

# Usage: need_one_of NAME LIST KNOWN...; dies unless every item of the
# comma- or space-separated LIST is one of KNOWN.
need_one_of() {
	local name=$1 item
	local list=${2//,/ }
	shift 2
	for item in $list; do
		[[ " $* " == *" $item "* ]] || die "$name: unknown '$item' (known: $*)"
	done
}

# Usage: need_configs LIST; dies unless each name, or each part of a name
# joined by "+" (see build.sh), has a configs/NAME.config.
need_configs() {
	local cfg
	for cfg in ${1//+/ }; do
		[ -f "$CONFIGS/$cfg.config" ] || die "no configs/$cfg.config for '$cfg'"
	done
}

# Usage: judge_tests DIR; runs the judges' own unit tests (the log judge,
# the benchmark report) with their output in DIR, and dies if one fails: a
# judge that lets a failure pass makes every run it judges worthless.
judge_tests() {
	local t
	mkdir -p "$1"
	for t in test_ktap test_report; do
		/usr/bin/python3 "$TOP/scripts/$t.py" "$TREE" > "$1/$t.log" 2>&1 ||
			{ cat "$1/$t.log"; die "scripts/$t.py failed"; }
		log "$t: $(grep '^Ran ' "$1/$t.log"), all as expected"
	done
}

# Usage: prepare_guest CONFIG; builds the kernel of configs/CONFIG.config,
# packs its initramfs and probes KVM once: all a guest of it needs.
prepare_guest() {
	bash "$TOP/scripts/build.sh" "$1"
	bash "$TOP/scripts/initramfs.sh" "$1"
	bash "$TOP/scripts/kvm-probe.sh" "$1"
}
