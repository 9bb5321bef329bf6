#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make clean: removes the build output of $BASE (kernels, logs, worktrees),
# keeping its tree and, for a fetched base, its source tarball.
. "$(dirname "$0")/lib.sh"

rm -rf "$BUILD"/out "$BUILD"/check "$BUILD"/check-net "$BUILD"/stress \
	"$BUILD"/bench "$BUILD"/bench-* "$BUILD"/bench.lock \
	"$BUILD"/matrix "$BUILD"/mutants "$BUILD"/wt-*
git -C "$TREE" worktree prune 2>/dev/null || true
log "cleaned $BUILD (BASE=$BASE)"
