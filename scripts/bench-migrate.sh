#!/usr/bin/env bash
# bench-migrate.sh: times `lite-agent migrate` of a plaintext project of
# 1,000 sessions / 100,000 events to XChaCha20-Poly1305 against
# `cp -r SRC DEST && sync -f DEST` of the same project directory, both as
# whole processes, side by side in one run, and prints the median of each
# and their ratio (issue 22's target: 1.5 or less), for wall time and for
# processor time (user and system), which other work on a busy machine
# inflates less.
#
#	scripts/bench-migrate.sh                 # this tree's lite-agent
#	scripts/bench-migrate.sh BIN...          # each binary, interleaved
#
# ROUNDS (default 5), SESSIONS (1000) and EVENTS (100 per session) size the
# run; the home is generated under BENCH_DIR (default: a new temp dir),
# removed at the end. Each round runs every side once, in an order that
# rotates from round to round, with an untimed sync before each side so
# that a side's syncs write back only its own files. Every destination is
# kept until the end: creating many files soon after many were removed is
# slower on ext4, which would favour whichever side ran first.
#
# It also prints the load average before and after the rounds (on a shared
# machine the wall times mean little under load; compare processor times
# then) and the bytes each side wrote in its first round: the encrypted
# destination is about half as large again as the plaintext source
# (base64 of nonce, ciphertext and tag, and the envelope), which bounds
# how close to the copy the migration can come once the disk is the
# bottleneck.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"

rounds=${ROUNDS:-5}
bench_workdir bench-migrate
bench_bins "$@"
export BENCH_MIGRATE_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

bench_home "${bins[0]}" "$work/src" "$work/wd" "${SESSIONS:-1000}" "${EVENTS:-100}"
project="$("${bins[0]}" --home "$work/src" --workdir "$work/wd" paths --json | jq -r '.sessionsDir | sub("/sessions$"; "")')"
echo "source: $(du -sh "$project" | cut -f1) in $(find "$project" -type f | wc -l) files"

loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }
echo "load average before: $(loadavg)"
sides=(cp "${bins[@]}")
# label names a side in the rounds' lines: its file name, with its
# directory's when two binaries share a name (before/lite-agent).
label() {
	local n=0 b
	for b in "${bins[@]}"; do
		[[ $(basename "$b") == $(basename "$1") ]] && n=$((n + 1))
	done
	if ((n > 1)); then
		echo "$(basename "$(dirname "$1")")/$(basename "$1")"
	else
		basename "$1"
	fi
}
declare -A wall cpu
copy() { cp -r "$project" "$1" && sync -f "$1"; }
for ((r = 1; r <= rounds; r++)); do
	line="round $r (wall/cpu ms):"
	for ((k = 0; k < ${#sides[@]}; k++)); do
		i=$(((k + r) % ${#sides[@]}))
		side=${sides[$i]}
		dest="$work/dst-$r-$i"
		sync
		if [[ $side == cp ]]; then
			t=$(bench_time copy "$dest")
		else
			t=$(bench_time "$side" --home "$work/src" --workdir "$work/wd" migrate --to-home "$dest" \
				--to-codec xchacha20poly1305 --to-key-env BENCH_MIGRATE_KEY)
		fi
		read -r w c <<<"$t"
		wall[$i]+="$w "
		cpu[$i]+="$c "
		line+=" $(label "$side")=$w/$c"
	done
	echo "$line"
done
sync
echo "load average after: $(loadavg)"
src_bytes=$(du -sb "$project" | cut -f1)
for ((i = 0; i < ${#sides[@]}; i++)); do
	b=$(du -sb "$work/dst-1-$i" | cut -f1)
	echo "bytes written in round 1 by $(label "${sides[$i]}"): $b = $(bench_ratio "$b" "$src_bytes")x the source"
done
cpw=$(bench_median ${wall[0]})
cpc=$(bench_median ${cpu[0]})
echo "median cp -r && sync -f: wall ${cpw} ms, cpu ${cpc} ms"
for ((i = 1; i < ${#sides[@]}; i++)); do
	w=$(bench_median ${wall[$i]})
	c=$(bench_median ${cpu[$i]})
	echo "median migrate ${sides[$i]}: wall ${w} ms = $(bench_ratio "$w" "$cpw")x cp, cpu ${c} ms = $(bench_ratio "$c" "$cpc")x cp"
done
