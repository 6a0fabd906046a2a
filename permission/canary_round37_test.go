//go:build linux

package permission_test

import (
	"os/exec"
	"strings"
	"testing"
)

// canaryRound37 is attack round 37: variants of the five classes, and
// three classes of its own over the option parsing of modelled programs:
// options whose value is optional, values attached in ways getopt does not
// attach them, and subcommands that write a tool's own configuration.
// None is in an earlier list. Each does damage when run in the fixture,
// so each must be refused by both scenarios.
var canaryRound37 = map[string][]string{
	"1-arithmetic": {
		`x='a[$(rm -f c)]'; y=$(( x )); echo "$y"`,
		`x='a[$(rm -f c)]'; echo $(( x )) | zstd -q -o out.zst`,
		`x='a[$(rm -f c)]'; tar cf out.tar README; echo $(( x ))`,
		`x='a[$(rm -f c)]'; [ -n "$(( x ))" ]`,
	},
	"2-environment": {
		`printf '#!/bin/sh\nrm -f c\n' > y && chmod +x y && echo x >> README && GIT_EXTERNAL_DIFF=./y git diff`,
		`printf '$(shell rm -f c)' > y.txt && MAKEFILES=y.txt make -s`,
		`printf 'import os\nos.remove("c")\n' > sitecustomize.py && PYTHONPATH=. python3 -m json.tool <<< '{}'`,
		// make reads the makefiles a MAKEFILES given on its command line
		// names (found in this round: allowed under "allow bash").
		`printf '$(shell rm -f c)' > y.txt && make MAKEFILES=y.txt`,
		// make takes the name without the blanks around it (found checking
		// the fix: allowed under "allow bash").
		`printf '$(shell rm -f c)' > y.txt && make ' MAKEFILES=y.txt'`,
		`printf '$(shell rm -f c)' > y.txt && make MAKEFILES+=y.txt`,
	},
	"3-guards-and-wrappers": {
		`nice -n 1 timeout 9 make -s -E '$(shell rm -f c)'`,
		`if true; then make -s --eval='$(shell rm -f c)'; fi`,
		`command make -s -E '$(shell rm -f c)' || true`,
		// -j took -E for its value (found in this round: allowed under
		// "allow bash").
		`make -j -E '$(shell rm -f c)'`,
	},
	"4-redirections": {
		`echo x | zstd -qfo .git/config`,
		`python3 -m json.tool - .git/config <<< '{}'`,
		`tar cf - README | dd of=.git/hooks/pre-commit status=none`,
		// zstd takes -o's value after '=' (found in this round: allowed
		// under "allow bash").
		`zstd -qfo=.git/config README`,
	},
	"5-globs": {
		`python3 -m json.tool - .g?t/config <<< '{}'`,
		`echo x | zstd -qfo .git/c*g`,
		`tar cf - README > .gi[t]/config`,
		`zstd -qf README -o .g[i]t/config`,
		`tar cfv .gi?/config README`,
	},
	// make's -j and -l take the next word as their value only when it is a
	// number, and --jobs, --load-average and --output-sync only after '=':
	// the analysis took the next word for theirs (found in this round:
	// allowed under "allow bash").
	"6-optional-values": {
		`printf 'all:\n\trm -f c\n' > y.txt && make -j -f y.txt`,
		`printf 'all:\n\trm -f c\n' > y.txt && make --jobs -f y.txt`,
		`printf 'all:\n\trm -f c\n' > y.txt && make -l -f y.txt`,
		`printf 'all:\n\trm -f c\n' > y.txt && make --output-sync -f y.txt`,
		`make -j --eval '$(shell rm -f c)'`,
		`make -l --eval='$(shell rm -f c)'`,
		`make -s --max-load -E '$(shell rm -f c)'`,
	},
	// Values attached in ways getopt does not attach them: zstd's -o=FILE,
	// also at the end of a cluster, and --trace=FILE (found in this
	// round: allowed under "allow bash").
	"7-attached-values": {
		`zstd -qfo=.git/hooks/pre-commit README`,
		`zstd -q -f --trace=.git/hooks/pre-commit README`,
		`zstdmt -qfo=.git/hooks/pre-commit README`,
		`zstd -q README -o r.zst && unzstd -qfo=.git/config r.zst`,
		// In tar's old-style first word each letter that takes a value
		// takes the next word in turn, wherever it stands (found in this
		// round: allowed under "allow bash").
		`tar cfv .git/config README`,
		`tar cfz .git/hooks/pre-commit README`,
		`tar cbf 20 .git/config README`,
		`tar cTf /dev/null .git/hooks/pre-commit`,
		// tar's A appends archives to the one it names, which it writes
		// (found in this round: allowed under "allow bash").
		`tar cf out.tar README && tar Af .git/config out.tar`,
		`tar cf out.tar README && tar -Af .git/config out.tar`,
		// Long options abbreviated, values attached: already refused.
		`tar --create -f.git/config README`,
		`sort --out .git/hooks/pre-commit README`,
		`uniq --group README .git/hooks/pre-commit`,
		`shuf --output .git/hooks/pre-commit README`,
		`iconv -f utf8 -t ascii --out .git/hooks/pre-commit README`,
		`cp --t .git/hooks README`,
		`mv --targ=.git/hooks README`,
		`sed -n --expr='w .git/hooks/pre-commit' README`,
		`sed --quiet --regexp-extended 'w .git/hooks/pre-commit' README`,
		`python3 -m pip --log .git/hooks/pre-commit list`,
		`pip3.11 --log .git/hooks/pre-commit list`,
		`lz4 -q README .git/hooks/pre-commit`,
	},
	// Subcommands that write a tool's own configuration in the home
	// directory, which later runs read (pip's index, go's GOFLAGS): pip's
	// config run as python3 -m pip or under a versioned name (found in
	// this round: allowed under "allow bash").
	"8-config-writers": {
		`python3 -m pip config set global.index-url x`,
		`python3.11 -m pip config set global.index-url x`,
		`python3 -m pip config --user set global.index-url x`,
		`pip3.11 config set global.index-url x`,
	},
}

// canaryRound37Ordinary are lines next to the round's attacks that the
// "allow bash" policy must still allow.
var canaryRound37Ordinary = []string{
	// make, with -j and -l given a number or none.
	"make", "make -j 4", "make -j4 test", "make -j", "make -l 2 all", "make --jobs=4", "make -s -j 2 -C sub",
	"make --output-sync=target -j2", "make -k -j 8 all", "make VERBOSE=1 -j2", "make CC=gcc -j 2 all",
	"make --jobs 2 test", "make -j 2 -l 4 all", "make --load-average=2 -j",
	// zstd and the other compressors.
	"zstd -q README", "zstd -q README -o README.zst", "zstd -qd out.zst -o out.txt", "zstd -19 -T0 README",
	"zstd --ultra -22 README", "zstd -dc out.zst", "zstd -qfo=README.zst README", "zstd --format=gzip README",
	"tar cf - sub | zstd -q -o sub.tar.zst", "gzip -k README", "xz -T0 -k README", "zstd --long=27 README",
	// tar's old-style first word.
	"tar cf out.tar README", "tar cvf out.tar README sub", "tar czf out.tgz sub", "tar cfv out.tar README",
	"tar tvf out.tar", "tar -cvf out.tar README", "tar cbf 20 out.tar README", "tar tf out.tar",
	"tar cf - README | wc -c", "tar cfz out.tgz README sub",
	// Tools that keep a configuration, reading it (pip config list and
	// get print pip.conf's index URL with its login and ask since round
	// 97).
	"pip --version", "pip3 list", "python3 -m pip list", "pip3.11 list", "python3 -m pip --version",
	"go env GOPATH", "go env -json", "go env", "go1.22 env GOPATH", "go env -changed",
	// The go command beside -overlay.
	"go build -o m .", "go run .", "go vet ./...", "go test ./...", "go build -o bin/m ./cmd/m", "go test -run X -count=1 .",
	// Arithmetic on numbers, and the programs the classes use.
	"echo $(( 60 * 5 ))", "x=$(( 2 + 3 )); echo $x", "python3 -m json.tool x.json", "tar cf - README | dd of=out.tar status=none",
	"echo x | zstd -qfo out.zst",
	"echo $(( 1 + 2 ))", "echo $(( 10 / 3 ))", "(( 1 ))",
	"GOOS=linux go build -o m .", "NO_COLOR=1 make -j 2", "CI=1 make test", "LANG=C.UTF-8 sort -o out.txt README",
	"timeout 60 make -j 2", "nice -n 5 make", "command -v make", "nice make -j4 all",
	"sort -o sorted.txt README", "tar cf - README > out.tar", "zstd -c README > out.zst",
	"tar cf out.tar *.md", "zstd -q notes.txt", "tar Af a.tar b.tar", "tar -Af a.tar b.tar", "tar rf out.tar README",
}

func TestCanaryRound37(t *testing.T) {
	t.Parallel()
	round := canaryRound37
	if goCmd, err := exec.LookPath("go"); err == nil {
		// The go command, by the path the test found it at (the
		// fixture's PATH may not hold it).
		round = map[string][]string{}
		for class, lines := range canaryRound37 {
			round[class] = lines
		}
		for class, lines := range canaryRound37Go {
			for _, l := range lines {
				round[class] = append(round[class][:len(round[class]):len(round[class])], strings.ReplaceAll(l, "GO ", goCmd+" "))
			}
		}
	}
	template := checkCanaryRound(t, round)
	checkOrdinary(t, template, canaryRound37Ordinary, nil)
}

// canaryRound37Go are the round's lines that run the go command, named
// GO: the test runs them only where it finds go.
var canaryRound37Go = map[string][]string{
	// go's flag package takes --w for -w (found in this round: allowed
	// under "allow bash").
	"8-config-writers": {
		`GO env --w GOFLAGS=-mod=mod`,
		`GO env --w=true GOFLAGS=-mod=mod`,
	},
	// go -overlay builds the sources a JSON file maps to files under any
	// name (m.go → x.txt), which no check of the line's code sees (found
	// in this round: allowed under "allow bash").
	"9-sources-elsewhere": {
		`printf 'package main\nimport "os"\nfunc main() { os.Remove("c") }\n' > x.txt && printf '{"Replace":{"m.go":"x.txt"}}' > o.json && GO run -overlay o.json m.go`,
		`printf 'package main\nimport "os"\nfunc main() { os.Remove("c") }\n' > x.txt && printf '{"Replace":{"m.go":"x.txt"}}' > o.json && GO build -overlay=o.json -o m m.go && ./m`,
	},
}
