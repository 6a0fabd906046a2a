package shellscan_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// Variables that only choose among what a program already does (a build
// target, a locale, colours, a log level) may be set for an allowed
// line, by a prefix, env or export, when their values are plain words.
func TestInertEnvironmentIsUnderstood(t *testing.T) {
	for _, line := range []string{
		"GOOS=linux GOARCH=arm64 go build ./...",
		"CGO_ENABLED=0 go build -o app .",
		"env GOOS=windows GOARCH=amd64 go vet ./...",
		"env CGO_ENABLED=0 -- go build ./...",
		"NODE_ENV=production npm run build",
		"export NODE_ENV=production && npm test",
		"export CI=true FORCE_COLOR=0; npm test",
		"RUST_BACKTRACE=1 RUST_LOG=debug,hyper=info cargo test",
		"LC_ALL=C sort -u words.txt",
		"LANG=C.UTF-8 ls",
		"TZ=UTC date",
		"NO_COLOR=1 go test ./...",
		"GOMAXPROCS=2 GOGC=off go test -run TestX ./pkg",
		"PYTHONUNBUFFERED=1 python3 x.py",
		`GOOS="linux" GOARCH='arm64' go build ./...`,
		"LANG=C; ls",
		"DEBUG= ls",
		"LC_ALL=POSIX ls", "LANG=en_US.utf8 ls", "LC_CTYPE=C.utf-8 ls", "LC_ALL= ls",
		"env LC_ALL=en_US.UTF-8 sort x", "export LC_MESSAGES=C; ls",
	} {
		if a := shellscan.Analyze(line, opts); a.Opaque {
			t.Errorf("%q is opaque: %s", line, a.Reason())
		}
	}
	for _, line := range []string{
		// Not on the list: each may name a program, options, a file or
		// code.
		"GOFLAGS=-toolexec=./x go build ./...", "CC=./x go build ./...", "PAGER=./x git log",
		"PYTHONPATH=. python3 x.py", "NODE_OPTIONS=--require=./x.js npm test", "GOTOOLCHAIN=go1.99 go build",
		"LD_PRELOAD=x.so ls", "PATH=. ls", "HOME=. git status", "IFS=/ ls", "X=1 ls",
		"export GIT_DIR=x && git status", "env -i GOOS=linux go build", "env -u HOME GOOS=linux go build",
		"env GOOS=linux PAGER=x git log",
		// On the list, with values that are more than a word: a path,
		// an expansion, a glob, a space, a tilde, an appended value.
		"LC_ALL=/tmp/x ls", "TZ=:/etc/x date", "LANG=$X ls", "GOOS=$(echo linux) go build", "GOOS=`x` go build",
		"DEBUG=* npm test", "DEBUG='a b' npm test", "LANG=C:~/x ls", "GOOS+=x go build", `GOOS=li\nux go build`,
		"env GOOS=~/x go build", "env LANG=$X ls", "export GOOS=$X; go build", "export -n GOOS; go build",
		"readonly GOOS=linux; go build", "declare GOOS=linux; go build", "local GOOS=linux",
		// A locale whose character set may hold ASCII bytes inside a
		// character, or that names none (zh_TW is BIG5).
		"LC_ALL=zh_TW.BIG5 ls", "LANG=zh_TW ls", "LC_CTYPE=zh_CN.GBK ls", "LC_ALL=zh_CN.GB18030 ls",
		"LANG=ja_JP.SJIS ls", "env LC_ALL=zh_TW.BIG5 ls", "export LANG=zh_HK.BIG5-HKSCS; ls",
		"LC_ALL=en_US.UTF-8.BIG5 ls", "LC_COLLATE=zh_TW ls", "LANG=C.UTF8x ls",
		"GOOS[0]=linux go build", "GOOS=(linux) go build", "GOOS=x; $GOOS", `GOOS=$'\x2f' go build`,
	} {
		if a := shellscan.Analyze(line, opts); !a.Opaque {
			t.Errorf("%q is not opaque", line)
		}
	}
}

// read with plain lowercase names takes data the line does not know, as a
// for loop's variable does; IFS may be set for it to blanks and
// separators. Everything else about read stays opaque.
func TestPlainReadIsUnderstood(t *testing.T) {
	for _, line := range []string{
		"while read -r l; do echo \"$l\"; done < notes.txt",
		"while IFS= read -r line; do echo \"$line\"; done < README",
		"cat x.csv | while IFS=, read -r a b c; do echo \"$b\"; done",
		"read -r first < README && echo \"$first\"",
		"read -rs x1 x2 <<< 'a b'",
		"IFS=' :' read -r a b <<< 'x:y'",
	} {
		if a := shellscan.Analyze(line, opts); a.Opaque {
			t.Errorf("%q is opaque: %s", line, a.Reason())
		}
	}
	for _, line := range []string{
		"read x", "read -s x", "read PATH", "read -r", "read -r REPLY", "read -a arr", "read -r 'a[$(rm -f c)]'", "read -r a[0]",
		"read -p x y", "read -d x y", "read -r x -r", "read -u 3 x", "read -r $x", "read -r \"x\"", "\"read\" -r x",
		"./read -r x", "/usr/bin/read -r x", "IFS=/ read -r a b", "IFS=$'\\t' read -r a", "LANG=C IFS= read -r a",
		"PATH=/x read -r a", "IFS=x read -r a", "read -r x; (( x ))", "read -r x; echo ${!x}", "read -r x; $x",
		"read -r x; eval \"$x\"", "read -r ifs_ && IFS=$ifs_ ls", "read -r line; [[ $line -eq 1 ]]",
	} {
		if a := shellscan.Analyze(line, opts); !a.Opaque {
			t.Errorf("%q is not opaque", line)
		}
	}
}
