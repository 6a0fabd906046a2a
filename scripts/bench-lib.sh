# bench-lib.sh: shared by scripts/bench-migrate.sh and scripts/bench-verify.sh
# (source it; it is not run on its own).
#
#	bench_workdir NAME       makes a temp dir NAME.XXXXXX under BENCH_DIR (default
#	                         TMPDIR), sets $work and bench_tmp to it and removes it
#	                         at exit
#	bench_bins BIN...        sets the array bins to the BINs, or to a build of this
#	                         tree in $work when none is given
#	bench_build DIR          builds ./cmd/lite-agent of this tree into DIR/lite-agent
#	bench_home BIN HOME WD S E
#	                         writes a plaintext home HOME for project directory WD
#	                         holding S session logs of E events each
#	bench_time CMD...        runs CMD (its output discarded) and prints its wall
#	                         time and its processor time (user and system, all
#	                         threads and children) in milliseconds
#	bench_median N...        prints the median of its arguments
#	bench_ratio A B          prints A/B with two decimals

bench_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench_tmp=${TMPDIR:-/tmp} # bench_workdir points it at the script's temp dir

bench_workdir() {
	work="$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/$1.XXXXXX")"
	trap 'rm -rf "$work"' EXIT
	bench_tmp=$work
}

bench_bins() {
	bins=("$@")
	if [[ ${#bins[@]} -eq 0 ]]; then
		bench_build "$work"
		bins=("$work/lite-agent")
	fi
}

bench_build() {
	(cd "$bench_root" && go build -o "$1/lite-agent" ./cmd/lite-agent)
}

# bench_home writes the records as the session store writes them: one JSON
# line per event, cycling through a user prompt, an assistant reply with a
# tool call and a tool result, a few hundred bytes each (the shape of
# migrate's BenchmarkMigratePlaintextToAEAD), of words drawn at random (a
# fixed seed) from a small vocabulary, so that no two records are alike and
# a compressor meets text rather than one repeated phrase.
bench_home() {
	local bin=$1 home=$2 wd=$3 sessions=$4 events=$5 dir
	mkdir -p "$wd"
	dir="$("$bin" --home "$home" --workdir "$wd" paths --json | jq -r .sessionsDir)"
	mkdir -p "$dir"
	awk -v dir="$dir" -v sessions="$sessions" -v events="$events" '
	function words(n,    out, k) {
		out = ""
		for (k = 0; k < n; k++) out = out vocab[int(rand() * nv) + 1] " "
		return out
	}
	BEGIN {
		srand(22)
		nv = split("the agent read file main.go and found that function handler returns an error when " \
			"request body is empty so it proposes a patch adding check before decoding together with " \
			"test case covering nil input plus logging of id duration status code go build ./... ok FAIL", vocab, " ")
		for (s = 0; s < sessions; s++) {
			sid = sprintf("s%04d", s)
			f = dir "/" sid ".jsonl"
			for (i = 1; i <= events; i++) {
				parent = (i == 1) ? "null" : i - 1
				head = "{\"seq\":" i ",\"sessionId\":\"" sid "\",\"parentSeq\":" parent ",\"ts\":\"2026-07-22T12:00:00.000Z\",\"event\":"
				t = sprintf("%d/%d %s", s, i, words(36))
				if (i % 3 == 1) {
					ev = "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"" t "\"}}"
				} else if (i % 3 == 2) {
					ev = "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"" t "\"},{\"type\":\"tool_call\",\"id\":\"c" i "\",\"name\":\"bash\",\"input\":{\"command\":\"ls -la " i "\"}}]}}"
				} else {
					ev = "{\"type\":\"tool_result\",\"result\":{\"type\":\"tool_result\",\"id\":\"c" i - 1 "\",\"content\":\"" t t "\"},\"turn\":" i "}"
				}
				print head ev "}" > f
			}
			close(f)
		}
	}'
}

bench_time() {
	local TIMEFORMAT='%R %U %S'
	if ! { time "$@" >/dev/null 2>"$bench_tmp/stderr"; } 2>"$bench_tmp/time"; then
		echo "bench: $* failed:" >&2
		cat "$bench_tmp/stderr" >&2
		return 1
	fi
	awk '{ printf "%d %d", $1 * 1000, ($2 + $3) * 1000 }' "$bench_tmp/time"
}

bench_median() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}
