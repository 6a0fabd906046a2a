#!/usr/bin/env bash
# bench-startup.sh: times the start-up of lite-agent, the cost every command
# pays before it does anything, as whole processes side by side in one run:
# `lite-agent --help` and `lite-agent --home EMPTY sessions list`. It prints
# for each binary the median wall time, processor time (user and system) and
# minor page faults, and the ratio of each to the first binary's.
#
#	scripts/bench-startup.sh                 # BASE's lite-agent (default main), then this tree's
#	scripts/bench-startup.sh BIN...          # each binary, interleaved
#
# ROUNDS (default 30): each round runs every binary once per command, in an
# order that rotates from round to round. The binaries are copied into the
# temp dir first: how a file came into the page cache (written by the
# linker, or read back after eviction) changes the page faults of its start
# by 10 % or more, so binaries are compared only as copies made alike.
# Needs /usr/bin/time (GNU time) for the fault counts.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/bench-lib.sh"

rounds=${ROUNDS:-30}
bench_workdir bench-startup

srcs=("$@")
if [[ ${#srcs[@]} -eq 0 ]]; then
	base=${BASE:-main}
	mkdir -p "$work/base-src"
	git -C "$bench_root" archive "$base" | tar -x -C "$work/base-src"
	(cd "$work/base-src" && go build -o "$work/base-lite-agent" ./cmd/lite-agent)
	bench_build "$work"
	mv "$work/lite-agent" "$work/tree-lite-agent"
	srcs=("$work/base-lite-agent" "$work/tree-lite-agent")
	echo "binaries: $base, this tree"
fi
bins=()
for ((i = 0; i < ${#srcs[@]}; i++)); do
	bins+=("$work/bin$i")
	cp "${srcs[$i]}" "${bins[$i]}"
	echo "bin$i: ${srcs[$i]} ($(stat -c %s "${srcs[$i]}") bytes)"
done
mkdir -p "$work/home" "$work/wd"

# start BIN CMD runs one command of BIN; CMD is help or list.
start() {
	local args=(--help)
	[[ $2 == list ]] && args=(--home "$work/home" --workdir "$work/wd" sessions list)
	/usr/bin/time -f %R -o "$work/faults" "$1" "${args[@]}"
}

for cmd in help list; do
	declare -A wall=() cpu=() faults=()
	for b in "${bins[@]}"; do
		start "$b" "$cmd" >/dev/null # untimed: every binary is in the page cache
	done
	for ((r = 1; r <= rounds; r++)); do
		for ((k = 0; k < ${#bins[@]}; k++)); do
			i=$(((k + r) % ${#bins[@]}))
			read -r w c <<<"$(bench_time start "${bins[$i]}" "$cmd")"
			wall[$i]+="$w "
			cpu[$i]+="$c "
			faults[$i]+="$(tail -1 "$work/faults") "
		done
	done
	for ((i = 0; i < ${#bins[@]}; i++)); do
		mw=$(bench_median ${wall[$i]})
		mc=$(bench_median ${cpu[$i]})
		mf=$(bench_median ${faults[$i]})
		if ((i == 0)); then
			w0=$mw c0=$mc f0=$mf
		fi
		echo "$cmd bin$i: median wall $mw ms ($(bench_ratio "$mw" "$w0")x), cpu $mc ms ($(bench_ratio "$mc" "$c0")x), minor faults $mf ($(bench_ratio "$mf" "$f0")x)"
	done
	unset wall cpu faults
done
