#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Installs from Debian's packages what the harness needs, once, and the
# packages named as arguments (make matrix's cross compiler).
. "$(dirname "$0")/lib.sh"

PKGS="linux-source-6.12 build-essential flex bison bc libelf-dev libssl-dev
      dwarves qemu-system-x86 ccache sparse cpio kmod xz-utils busybox-static
      python3 python3-matplotlib git rsync $*"

missing=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $PKGS 2>/dev/null |
	  awk '$2 != "installed" { print $1 }' || true)
# dpkg-query omits packages it has never heard of: count those too.
for p in $PKGS; do
	dpkg-query -W "$p" >/dev/null 2>&1 || missing="$missing $p"
done
missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ -n "${missing// /}" ]; then
	log "installing: $missing"
	[ "$(id -u)" = 0 ] || die "need root to install: $missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
log "base: $BASE_PKG $(base_version)"
