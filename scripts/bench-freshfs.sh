#!/usr/bin/env bash
# bench-freshfs.sh: runs a benchmark script on a file system of its own,
# made fresh for the run, so that what earlier work left behind on the
# machine's disk does not weigh on one side more than the other. On ext4,
# creating many files soon after many were removed is much slower (the
# inode allocator skips inodes freed in the last minutes), which made
# `cp -r && sync -f` alone range over 234-440 ms in one run of
# bench-migrate.sh on a shared root file system.
#
#	sudo scripts/bench-freshfs.sh scripts/bench-migrate.sh BIN...
#	sudo scripts/bench-freshfs.sh scripts/bench-verify.sh BIN...
#
# It needs root (mkfs, mount -o loop). The file system is ext4 without a
# journal, mounted with discard, in an image of SIZE (default 6G) under
# TMPDIR; BENCH_DIR points the script at it. Everything is removed at
# the end.
set -euo pipefail
if (($# == 0)); then
	echo "usage: $0 BENCHMARK-SCRIPT [ARG...]" >&2
	exit 2
fi
if ((EUID != 0)); then
	echo "$0: needs root to make and mount a loop file system" >&2
	exit 2
fi
tmp="$(mktemp -d "${TMPDIR:-/tmp}/bench-freshfs.XXXXXX")"
mnt="$tmp/mnt"
img="$tmp/fs.img"
cleanup() {
	if mountpoint -q "$mnt"; then
		umount "$mnt"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$mnt"
truncate -s "${SIZE:-6G}" "$img"
mkfs.ext4 -q -F -O ^has_journal "$img"
mount -o loop,discard "$img" "$mnt"
BENCH_DIR="$mnt" "$@"
