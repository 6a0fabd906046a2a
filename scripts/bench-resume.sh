#!/usr/bin/env bash
# bench-resume.sh: whole-process resume benchmark (issue 20).
#
# For each size (default 10000 100000 300000 events) it builds, in a
# temporary directory, a plaintext session log of alternating user and
# assistant events, and a compacted copy (the same log, then
# `lite-agent sessions compact`, which commits a context view at its end),
# and measures `lite-agent run --resume ID next` against a local scripted
# model server (scripts/bench-resume/bench.js serve): wall time and peak RSS
# from /usr/bin/time -v, the median of RUNS runs (default 3), each on a
# fresh copy of the log. Beside it, the TypeScript reference's full read is
# approximated by a Node.js reader doing what reference-behavior.md §3.3/§3.8
# say its read does (read the whole file, split lines, JSON.parse, validate
# each record): there is no TypeScript SDK here to run.
#
# Usage: scripts/bench-resume.sh [SIZE...]    (env RUNS, KEEP=1 keeps the data)
# Needs go, node and /usr/bin/time (GNU time).
set -euo pipefail

cd "$(dirname "$0")/.."
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(10000 100000 300000)
runs=${RUNS:-3}
for tool in go node /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "bench-resume: $tool is required" >&2; exit 1; }
done

tmp=$(mktemp -d)
server=
cleanup() {
	[[ -n "$server" ]] && kill "$server" 2>/dev/null || true
	if [[ -n "${KEEP:-}" ]]; then echo "data kept in $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

go build -o "$tmp/lite-agent" ./cmd/lite-agent
bench=scripts/bench-resume/bench.js
node "$bench" serve "$tmp/port" &
server=$!
for _ in $(seq 100); do [[ -s "$tmp/port" ]] && break; sleep 0.05; done
export ANTHROPIC_API_KEY=bench ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$tmp/port")"
export HOME="$tmp/user" LITE_AGENT_HOME=
mkdir -p "$tmp/work" "$HOME"
la=("$tmp/lite-agent" --home "$tmp/home" --workdir "$tmp/work")
sessions=$("${la[@]}" paths --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).sessionsDir))')
mkdir -p "$sessions"

# measure LABEL CMD...: the median wall seconds, CPU seconds (user + system)
# and peak RSS of RUNS runs of CMD, each after restoring the pristine logs.
# On a shared machine the CPU time is the steadier figure.
measure() {
	local label=$1; shift
	local walls=() cpus=() rsss=()
	for _ in $(seq "$runs"); do
		cp -p "$tmp"/pristine/*.jsonl "$sessions"/
		/usr/bin/time -v -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
		walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$tmp/time")")
		cpus+=("$(awk -F': ' '/User time|System time/ {s+=$2} END {print s}' "$tmp/time")")
		rsss+=("$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time")")
	done
	printf '%-28s %8.3f s %8.3f s %8.1f MiB\n' "$label" "$(median "${walls[@]}")" "$(median "${cpus[@]}")" \
		"$(echo "$(median "${rsss[@]}") / 1024" | bc -l)"
}

median() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }

mkdir -p "$tmp/pristine"
printf '%-28s %10s %10s %12s\n' "case" "wall" "CPU" "peak RSS"
for n in "${sizes[@]}"; do
	rm -f "$tmp"/pristine/* "$sessions"/*
	node "$bench" gen "$tmp/pristine/raw$n.jsonl" "raw$n" "$n"
	cp "$tmp/pristine/raw$n.jsonl" "$tmp/pristine/view$n.jsonl"
	sed -i "s/\"sessionId\":\"raw$n\"/\"sessionId\":\"view$n\"/" "$tmp/pristine/view$n.jsonl"
	cp -p "$tmp"/pristine/*.jsonl "$sessions"/
	"${la[@]}" sessions compact "view$n" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	cp -p "$sessions/view$n.jsonl" "$tmp/pristine/"
	size=$(du -m "$tmp/pristine/raw$n.jsonl" | cut -f1)
	echo "# $n events ($size MiB log)"
	measure "go resume, uncompacted" "${la[@]}" run --resume "raw$n" next
	measure "go resume, compacted" "${la[@]}" run --resume "view$n" next
	measure "node full read (TS-like)" node "$bench" read "$tmp/pristine/raw$n.jsonl" "raw$n"
done
