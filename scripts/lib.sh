# SPDX-License-Identifier: GPL-2.0
# Shared settings of the harness scripts; sourced, never run.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CONFIGS=$TOP/configs
JOBS=${JOBS:-$(nproc)}

# The kernel the series applies to, chosen with BASE; each base has its own
# series (PATCHES) and its own build directory, so that both can be worked
# on side by side with the same scripts.
#   6.12      Debian's 6.12 LTS, linux-source-6.12 from bookworm-security
#             (the default)
#   mainline  the newest linux-source Debian ships, from unstable
# Each is pinned by the version and SHA-256 of its .deb, which make deps
# fetches and unpacks into the build directory without installing it.
export BASE=${BASE:-6.12}
# Only a base's own case sets these: none may come from the environment.
unset BASE_DEB_VERSION BASE_DEB_URL BASE_DEB_FALLBACK_URL BASE_DEB_SHA256 BASE_DEB_MEMBER
case $BASE in
6.12)
	BASE_PKG=linux-source-6.12
	BUILD=${BUILD:-$TOP/build}
	PATCHES=$TOP/patches
	# Deliberate bugs for make selftest-harness, as diffs against the series.
	MUTATIONS_DIR=$TOP/scripts/mutations
	# The clang of make lint (make LLVM=...) and its packages.
	CLANG_LLVM=1
	CLANG_PKGS="clang lld llvm"
	# Pinned as mainline is: apt's linux-source-6.12 moves with every
	# Debian security release, and every figure names this version.
	BASE_DEB_VERSION=6.12.117-1~deb12u1
	BASE_DEB_URL=http://deb.debian.org/debian-security/pool/updates/main/l/linux-6.12/linux-source-6.12_6.12.117-1~deb12u1_all.deb
	# Once the security pool drops the version (snapshot.debian.org
	# archives debian-security too; by the .deb's SHA-1).
	BASE_DEB_FALLBACK_URL=https://snapshot.debian.org/file/221d82478a259628d6016602b619a484e71e9424
	BASE_DEB_SHA256=e849faf31ca3555757f3a8877cb01af92122f744f75d1f3102734651c4e14703
	BASE_DEB_MEMBER=./usr/src/linux-source-6.12.tar.xz
	BASE_TARBALL=$BUILD/src/linux-source-$BASE_DEB_VERSION.tar.xz
	;;
mainline)
	BASE_PKG=linux-source-7.2
	BASE_DEB_VERSION=7.2.13-1
	BASE_DEB_URL=http://deb.debian.org/debian/pool/main/l/linux/linux-source-7.2_7.2.13-1_all.deb
	# Once unstable's pool drops the version: snapshot.debian.org serves
	# every file it archived by its SHA-1 (that of the same .deb).
	BASE_DEB_FALLBACK_URL=https://snapshot.debian.org/file/60368f43b412a8b7a3d89caf48222aaa1c434364
	BASE_DEB_SHA256=30a8c5fc63f9028a62e6d7b3f7f43bee67425dbce2a05fceba83f9b87c92083d
	BUILD=${BUILD:-$TOP/build/mainline}
	PATCHES=$TOP/patches-mainline
	MUTATIONS_DIR=$TOP/scripts/mutations/mainline
	# 7.2 needs clang 17 or newer; Debian 12's default is 14.
	CLANG_LLVM=-19
	CLANG_PKGS="clang-19 lld-19 llvm-19"
	# The member of the .deb, and where it goes: named by version, so that
	# a new pin never reuses the tarball of the old one.
	BASE_DEB_MEMBER=./usr/src/linux-source-7.2.tar.xz
	BASE_TARBALL=$BUILD/src/linux-source-$BASE_DEB_VERSION.tar.xz
	;;
*)
	echo "error: BASE=$BASE: unknown (known: 6.12 mainline)" >&2
	exit 1
	;;
esac
TREE=${TREE:-$BUILD/linux}
# What the judge (scripts/ktap.py) expects of the base's runs: required
# suites and kselftests, known leaks, each run's skips.
EXPECT=$TOP/expect/$BASE
# The QEMU plugin of the cost model (scripts/plugin.sh), one for both bases.
PLUGIN_SO=$TOP/build/plugin/libcostmodel.so
# Its marks for the guest's user space (plugin/costmark.c), a static binary.
COSTMARK=$TOP/build/plugin/costmark

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
# Every progress line says how long the command has run (minutes:seconds
# since the first script of this make target started).
export SLAB_BULK_T0=${SLAB_BULK_T0:-$(date +%s)}
log() {
	local t=$(($(date +%s) - SLAB_BULK_T0))
	printf '==> %d:%02d %s\n' $((t / 60)) $((t % 60)) "$*" >&2
}

# Usage: fetch_pinned FILE SHA256 URL [FALLBACK_URL]; downloads FILE from
# URL, or from FALLBACK_URL when URL fails (snapshot.debian.org keeps
# what Debian's pool drops), and dies unless its SHA-256 is the pinned one.
fetch_pinned() {
	local file=$1 sum=$2 url
	shift 2
	for url in "$@" ""; do
		[ -n "$url" ] || die "cannot fetch ${file##*/} from any of: $*"
		curl -sSfL --retry 3 -o "$file.part" "$url" && break
		log "cannot fetch $url"
	done
	echo "$sum  $file.part" | sha256sum -c --quiet - ||
		die "$url: SHA-256 differs from the pinned one"
	mv "$file.part" "$file"
}

# The Debian version of the base, e.g. 6.12.117-1~deb12u1.
base_version() { echo "$BASE_DEB_VERSION"; }

# Usage: debian_config; prints Debian's amd64 configuration of the base
# (linux-config-6.12 of the base's version: make matrix installs it) with
# every module off, for build.sh (configs/debian.config).
DEBIAN_CONFIG_PKG=linux-config-6.12
debian_config() {
	local v
	[ "$BASE" = 6.12 ] || die "configs/debian.config: Debian's configuration is of 6.12 only, not BASE=$BASE"
	v=$(dpkg-query -W -f='${Version}' "$DEBIAN_CONFIG_PKG" 2>/dev/null) ||
		die "no $DEBIAN_CONFIG_PKG: apt-get install $DEBIAN_CONFIG_PKG=$BASE_DEB_VERSION"
	[ "$v" = "$BASE_DEB_VERSION" ] ||
		die "$DEBIAN_CONFIG_PKG is $v, the base is $BASE_DEB_VERSION"
	xz -dc "/usr/src/$DEBIAN_CONFIG_PKG/config.amd64_none_amd64.xz" |
		sed -E 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/'
}

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

# The base tree.sh recorded in $TREE when it made it, or nothing for a tree
# the harness did not make. Reads $TREE/.git alone: git -C would go up to
# a repository around $TREE and answer for that one.
tree_made_for() {
	git --git-dir="$TREE/.git" config --get slabbulk.base 2>/dev/null || true
}

# Dies unless $TREE was made from $BASE (tree.sh records it), so that one
# base's tree is never compared with, or exported to, the other's series.
# A kernel tree the harness did not make is taken as given, as 6.12.
tree_is_of_base() {
	local made
	made=$(tree_made_for)
	made=${made:-6.12}
	[ "$made" = "$BASE" ] ||
		die "$TREE was made for BASE=$made, not BASE=$BASE: set BASE=$made, or BUILD/TREE to another directory"
}

# Fails unless $TREE is clean and holds exactly the patches of patches/,
# so that a test of the tree is a test of the series.
tree_matches_patches() {
	local tmp status
	tree_is_of_base
	status=$(git -C "$TREE" status --porcelain)
	[ -z "$status" ] || die "$TREE has uncommitted changes: commit them and make export, or FORCE=1 make tree"
	tmp=$(mktemp -d)
	format_series "$tmp"
	if ! diff -rq -x 0000-cover-letter.patch -x series -x covers "$tmp" "$PATCHES" >&2; then
		rm -rf "$tmp"
		die "$TREE differs from ${PATCHES#"$TOP"/}/: make export to keep the tree's commits, or FORCE=1 make tree to remake it from there"
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

# Usage: bench_base_commit; the commit of $TREE that ends the benchmark's
# base kernel: the patch before the "# bench-base" line of series, counted
# from the base tag (the tree holds exactly the series, as
# tree_matches_patches checks), so that a rebase is followed.
bench_base_commit() {
	local list n
	list=$(/usr/bin/python3 "$TOP/scripts/series.py" --base "$PATCHES/series") || exit 1
	n=$(printf '%s\n' "$list" | sed '/^$/d' | wc -l)
	[ "$n" -gt 0 ] || { git -C "$TREE" rev-parse base; return; }
	git -C "$TREE" rev-list --reverse base..HEAD | sed -n "${n}p"
}

# Usage: judge_tests DIR; runs the judges' own unit tests (the log judge,
# the benchmark report, the cost model's known answers, make matrix's
# base-against-series comparison) and those of the series file's export,
# with their output in DIR, and dies if one fails:
# a judge that lets a failure pass makes every run it judges worthless.
judge_tests() {
	local t
	mkdir -p "$1"
	for t in test_ktap test_report test_costmodel test_series test_compare_runs; do
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

# The harness's own settings with these prefixes; another name with one
# of them in the environment is a typo, refused with the nearest name.
KNOWN_SETTINGS='CHECK_CONFIGS CHECK_TIMEOUT CHECK_STRESS_SECS STRESS_CONFIG STRESS_SECS
STRESS_FAIL_PCT STRESS_FREE_MB BENCH_CONFIG BENCH_ARGS BENCH_LAYOUTS BENCH_REPEAT BENCH_ALT MATRIX MATRIX_TIMEOUT
NET_RUNS NET_PKTGEN_COUNT NET_BENCH_SRC DEBUG_PKTGEN_COUNT RCUSCALE RCUSCALE_ARGS
MUTANT_CONFIGS MUTATIONS COSTMODEL COSTMODEL_ARGS NIC NIC_MODEL KUNIT SUITES'
SETTING_PREFIXES='CHECK_|STRESS_|BENCH_|MATRIX|NET_|DEBUG_PKTGEN|RCUSCALE|MUTANT|MUTATION|COSTMODEL|NIC|KUNIT|SUITE'

# Usage: need_kunit_glob GLOB; dies unless GLOB ("suite_glob[.test_glob]",
# as kunit.filter_glob) matches a suite the base's checks require
# (expect/BASE): a typo would otherwise run no test and pass.
need_kunit_glob() {
	local s required
	required=$(/usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1])
import ktap
print(" ".join(ktap.Expectations(sys.argv[2]).required("suites")))' "$TOP/scripts" "$EXPECT") ||
		die "$EXPECT: cannot be read"
	for s in $required; do
		# shellcheck disable=SC2053 # the glob is meant to match
		[[ $s == ${1%%.*} ]] && return 0
	done
	die "KUNIT=$1: matches none of the suites make check requires ($required)"
}

# Usage: check_settings; dies, naming the setting, on a value no script
# could use, wherever lib.sh is sourced: a bad value is refused in
# seconds, before a base is unpacked or a kernel built.
check_settings() {
	local v near
	# RUNS meant boots for check-net and runs for bench: now two names.
	[ -z "${RUNS+set}" ] ||
		die "RUNS: not a setting of the harness (BENCH_LAYOUTS for make bench, NET_RUNS for make check-net)"
	# A second boot of one kernel repeated the first to the instruction.
	[ -z "${BENCH_RUNS+set}" ] ||
		die "BENCH_RUNS is gone: BENCH_LAYOUTS=K boots each kernel once for each layout seed 1..K (BENCH_REPEAT=1 boots seed 1 twice, which must repeat)"
	for v in $(compgen -e | grep -E "^($SETTING_PREFIXES)" || true); do
		[[ " ${KNOWN_SETTINGS//$'\n'/ } " == *" $v "* ]] && continue
		near=$(python3 -c 'import difflib, sys
print(" ".join(difflib.get_close_matches(sys.argv[1], sys.argv[2:], 1, 0.6)))' \
			"$v" $KNOWN_SETTINGS)
		die "$v: not a setting of the harness${near:+ (did you mean $near?)}"
	done
	if [ -n "${SMP:-}" ]; then
		need_uint SMP "$SMP"
		[ "$SMP" -ge 1 ] && [ "$SMP" -le 8 ] || die "SMP=$SMP: 1 to 8 vCPUs"
	fi
	v=${MEM:-2G}
	case $v in
	[1-9]*[MG]) need_uint MEM "${v:0:-1}" ;;
	*) die "MEM=${MEM:-}: a size in M or G, such as 2G or 512M" ;;
	esac
	case ${NUMA:-1} in
	[1-8]) ;;
	*) die "NUMA=${NUMA:-}: 1 to 8 memory nodes" ;;
	esac
	need_one_of QEMU_MACHINE "$QEMU_MACHINE" q35 pc
	[ -z "${CHECK_CONFIGS:-}" ] || need_configs "${CHECK_CONFIGS// /+}"
	[ -z "${STRESS_CONFIG:-}" ] || need_configs "$STRESS_CONFIG"
	[ -z "${KUNIT:-}" ] || need_kunit_glob "$KUNIT"
	for v in CHECK_TIMEOUT CHECK_STRESS_SECS STRESS_SECS STRESS_FAIL_PCT STRESS_FREE_MB \
		 MATRIX_TIMEOUT BENCH_LAYOUTS NET_RUNS DEBUG_PKTGEN_COUNT NET_PKTGEN_COUNT JOBS TIMEOUT; do
		[ -z "${!v:-}" ] || need_uint "$v" "${!v}"
	done
	[ "${BENCH_LAYOUTS:-1}" -ge 1 ] || die "BENCH_LAYOUTS=$BENCH_LAYOUTS: at least one layout seed"
	need_one_of BENCH_REPEAT "${BENCH_REPEAT:-0}" 0 1
	[ "${NET_RUNS:-1}" -ge 1 ] || die "NET_RUNS=$NET_RUNS: at least one boot"
}
check_settings
