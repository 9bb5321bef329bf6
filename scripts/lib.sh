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
export ARCH=x86_64

die() { echo "error: $*" >&2; exit 1; }
log() { echo "==> $*" >&2; }

# The Debian version of the base, e.g. 6.12.117-1~deb12u1.
base_version() { dpkg-query -W -f='${Version}' "$BASE_PKG"; }

# Build directory of a configuration name, or an absolute path as given.
out_dir() { case "$1" in /*) echo "$1" ;; *) echo "$BUILD/out/$1" ;; esac; }
