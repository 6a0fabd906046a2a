#!/usr/bin/env bash
# bench-verify.sh: times `lite-agent verify` of a zstd home against the same
# home in plaintext, both as whole processes, side by side in one run, and
# prints the median of each and their ratio (issue 22's target: 2 or less),
# for wall time and for processor time (user and system), which other work
# on a busy machine inflates less.
#
#	scripts/bench-verify.sh                  # this tree's lite-agent
#	scripts/bench-verify.sh BIN...           # each binary, interleaved
#
# ROUNDS (default 5), SESSIONS (1000) and EVENTS (100 per session) size the
# home, generated in plaintext under BENCH_DIR (default: a new temp dir) and
# migrated to zstd by the first binary, so that every binary reads the same
# records; it is removed at the end. Each round runs every side once, in an
# order that rotates from round to round.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"

rounds=${ROUNDS:-5}
bench_workdir bench-verify
bench_bins "$@"

bench_home "${bins[0]}" "$work/plain" "$work/wd" "${SESSIONS:-1000}" "${EVENTS:-100}"
"${bins[0]}" --home "$work/plain" --workdir "$work/wd" migrate --to-home "$work/zstd" --to-codec zstd >/dev/null 2>&1
echo "plaintext home: $(du -sh "$work/plain" | cut -f1), zstd home: $(du -sh "$work/zstd" | cut -f1)"

# sides[i] is "BIN CODEC".
sides=()
for b in "${bins[@]}"; do
	sides+=("$b none" "$b zstd")
done
declare -A wall cpu
run() {
	local home=$work/plain
	[[ $2 == zstd ]] && home=$work/zstd
	"$1" --home "$home" --workdir "$work/wd" --codec "$2" verify
}
# Untimed: from here on the page cache holds both homes.
for side in "${sides[@]}"; do
	run $side >/dev/null
done
for ((r = 1; r <= rounds; r++)); do
	line="round $r (wall/cpu ms):"
	for ((k = 0; k < ${#sides[@]}; k++)); do
		i=$(((k + r) % ${#sides[@]}))
		read -r bin codec <<<"${sides[$i]}"
		t=$(bench_time run "$bin" "$codec")
		read -r w c <<<"$t"
		wall[$i]+="$w "
		cpu[$i]+="$c "
		line+=" $(basename "$bin")/$codec=$w/$c"
	done
	echo "$line"
done
for ((i = 0; i < ${#sides[@]}; i += 2)); do
	pw=$(bench_median ${wall[$i]})
	pc=$(bench_median ${cpu[$i]})
	zw=$(bench_median ${wall[$((i + 1))]})
	zc=$(bench_median ${cpu[$((i + 1))]})
	echo "median verify ${sides[$i]% *}: plaintext wall ${pw} ms, cpu ${pc} ms; zstd wall ${zw} ms = $(bench_ratio "$zw" "$pw")x, cpu ${zc} ms = $(bench_ratio "$zc" "$pc")x plaintext"
done
