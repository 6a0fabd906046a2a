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
#
# With DIRECT_IO=1 the loop device reads and writes its image with
# O_DIRECT (losetup --direct-io): the image's own file system then keeps
# no second copy of every block in its page cache, and writing back the
# benchmark's file system costs the processors no extra memory copy, as
# with a real disk. Without it (the default), that copy runs in kernel
# threads on the same processors, after `cp -r` has finished but while a
# migration still computes.
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
	if [[ -n ${dev:-} ]]; then
		losetup -d "$dev"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$mnt"
truncate -s "${SIZE:-6G}" "$img"
mkfs.ext4 -q -F -O ^has_journal "$img"
if [[ ${DIRECT_IO:-} == 1 ]]; then
	dev="$(losetup --find --show --direct-io=on "$img")"
	mount -o discard "$dev" "$mnt"
else
	mount -o loop,discard "$img" "$mnt"
fi
BENCH_DIR="$mnt" "$@"
