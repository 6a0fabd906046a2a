package shellscan

import (
	"slices"
	"testing"
)

// go test . named the package in the working directory, and "allow bash"
// asked, because "." holds .git and an unmodelled command's operands may
// be files it writes. go test, vet, list and build -o are now modelled:
// package operands are read and their directories are where the code is
// built or run; the flags that write say what they write.
func TestGoSubcommandsAreModelled(t *testing.T) {
	checkModelled(t, map[string][]string{
		"go test .": {"reads .", "reads . +runs"},
		"go test":   {"reads . +runs"},
		"go test -race -count=1 -run 'A|B' ./... ./x.go": {"reads ./...", "reads ./x.go", "reads . +runs", "reads . +runs"},
		"go vet -tags=x -json .":                         {"reads .", "reads . +runs"},
		"go list -f '{{.Dir}}' -deps ./sub/...":          {"reads ./sub/...", "reads ./sub +runs"},
		"go build -o bin/x ./cmd/x":                      {"writes bin/x +tree", "writes bin/x.h", "reads ./cmd/x", "reads ./cmd/x +runs"},
		"go test -cpuprofile c.prof -outputdir=out .":    {"writes c.prof", "writes out/c.prof", "writes out +tree", "writes pkg.test", "reads .", "reads . +runs"},
		"go test -coverprofile=/abs/c.out -outputdir out -c -o t.test .": {"writes /abs/c.out", "writes out +tree", "writes t.test +tree",
			"writes t.h", "reads .", "reads . +runs"},
		"go list -modfile=alt.mod -m all":                  {"writes alt.mod +tree", "writes alt.sum", "reads all", "reads all +runs"},
		"go build -buildvcs -o x.so -buildmode=c-shared .": {"writes x.so +tree", "writes x.h", "reads .", "reads . +runs"},
		"go run .":                              {"reads .", "reads . +runs"},
		"go run -race ./cmd/x -v --out=build/y": {"reads ./cmd/x", "reads ./cmd/x +runs", "reads build/y +unknown"},
		"go run a.go b.go c.txt":                {"reads a.go", "reads b.go", "reads . +runs", "reads . +runs", "reads c.txt +unknown"},
		"go fmt":                                {"writes *.go"},
		"go fmt -n ./sub x.go":                  {"writes sub/*.go", "writes x.go"},
		"gofmt -l -s .":                         {"reads . +tree"},
		"gofmt -r 'a -> b' -d x.go":             {"reads x.go +tree"},
		// go -C sub runs in sub, as after cd sub, whose code it runs
		// (redteam130: go -C tools generate ran the tools/gen.go the
		// line wrote).
		"go -C sub test .":   {"reads /w/sub +unknown", "reads .", "reads . +runs"},
		"go -C=sub generate": {"reads /w/sub +unknown", "reads . +runs"},
	})
	// What the linker is told is checked as an unmodelled command's
	// words, nested values included.
	a := analyzeBash("go test -ldflags=-o=x .", "/home/u", "/w")
	if !slices.ContainsFunc(a.accesses, func(x access) bool { return acc(x) == "reads x +unknown" }) {
		t.Errorf("go test -ldflags=-o=x: x is not a path it may write: %v", a.accesses)
	}
	// go run of a package named by import path runs code where the
	// module graph puts it (a replace may name a directory outside the
	// workdir), as go test's does; at a version it is fetched.
	for _, line := range []string{"go run golang.org/x/tools/cmd/stringer@latest -type=T", "go run example.com/lib/cmd/x", "go run std"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque: %v", line, a.accesses)
		}
	}
	// Left to the rule for commands the analysis does not model: a
	// default output in the working directory, a flag not modelled, a
	// word known only when it runs.
	checkUnmodelled(t, []string{
		"go build .", "go test -c .", "go vet -printf.funcs=x .", "go test . -args -v",
		"go test -test.cpuprofile=x .", "go run", "go fmt ./...", "go fmt -ldflags=x .", "go test -o $X .", "gofmt -w .", "gofmt -cpuprofile p x.go",
		"go install ./cmd/x", "go test -run -o .",
	})
}

// An empty output flag is no output flag to the go command: go build -o=
// x.go writes x into the working directory (cd .git/hooks && go build
// -o= /w/pre-commit.go wrote a hook), and go test -c -o= writes
// pkg.test there. go test -cpuprofile (and -memprofile, -blockprofile,
// -mutexprofile) keeps the test binary in the working directory. go test
// /... names every package under the root.
func TestGoOutputsInTheWorkingDirectory(t *testing.T) {
	for _, line := range []string{
		"go build -o= /w/pre-commit.go", "go build -o '' /w/x.go", "go test -c -o= /w", "go test -c -o '' .",
		// The last -o counts; -c=1 and -c=T are -c (strconv.ParseBool).
		"go build -o /w/bin/m -o= /w/pre-commit.go", "go test -c=1 /w", "go test -c=T .", "go test -c=false -c .",
	} {
		a := analyzeBash(line, "/home/u", "/w")
		var unknown bool
		for _, x := range a.accesses {
			unknown = unknown || x.unknown
		}
		if !unknown && len(a.reasons) == 0 {
			t.Errorf("%q: modelled (accesses %v), want it left to the unmodelled rule", line, a.accesses)
		}
	}
	tests := []struct {
		line string
		want []string
	}{
		{"go test -cpuprofile=/w/c.out /w", []string{"writes /w/c.out", "writes pkg.test", "reads /w", "reads /w +runs"}},
		{"go test -memprofile m.out -o t.test .", []string{"writes m.out", "writes t.test +tree", "writes t.h", "reads .", "reads . +runs"}},
		{"go test -trace t.out -coverprofile= .", []string{"writes t.out", "reads .", "reads . +runs"}},
		{"go test /...", []string{"reads /...", "reads / +runs"}},
		{"go build -o /dev/null ./...", []string{"writes /dev/null +tree", "reads ./...", "reads . +runs"}},
	}
	for _, tt := range tests {
		a := analyzeBash(tt.line, "/home/u", "/w")
		var got []string
		for _, x := range a.accesses {
			got = append(got, acc(x))
		}
		slices.Sort(got)
		slices.Sort(tt.want)
		if len(a.reasons) > 0 || !slices.Equal(got, tt.want) {
			t.Errorf("%q: reasons %q, accesses %q; want none and %q", tt.line, a.reasons, got, tt.want)
		}
	}
}

// go test runs the tests of the packages it is given where they lie: a
// package named by import path or a pattern of import paths lies where
// the module graph puts it (the module cache, a directory a replace
// names, GOROOT), outside the workdir. Such a line is opaque; directories
// and files are checked where they lie.
func TestGoTestOfImportPathsIsOpaque(t *testing.T) {
	for _, line := range []string{
		"go test example.com/lib", "go test -count=1 example.com/...", "go test std", "go test all",
		"go test ...", "go test -run X net/http", "go test . cmd/go", "go1.22 test golang.org/x/tools/...",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q: not opaque (accesses %v)", line, a.accesses)
		}
	}
	for _, line := range []string{"go test ./...", "go test . ../w/x", "go test /w/...", "go test x_test.go", "go vet std", "go list -m all", "go test -c -o t.test std"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q: opaque: %q", line, a.reasons)
		}
	}
}

// go test does not know go list's flags: it passes such a flag to the
// test binary with the words after it, and tests the package in the
// working directory (go test -e /w/x tests "."), so the model's package
// directories would be the wrong ones; the line is left to the
// unmodelled rule. -ldflags=-extar=prog names the program the linker
// archives with (-buildmode=c-archive), as -extld names the linker.
func TestGoTestListFlagsAndExtar(t *testing.T) {
	for _, line := range []string{"go test -e /w/x", "go test -deps .", "go test -m ./...", "go test -f x ."} {
		a := analyzeBash(line, "/home/u", "/w")
		for _, x := range a.accesses {
			if x.runs {
				t.Errorf("%q: modelled (accesses %v), want it left to the unmodelled rule", line, a.accesses)
				break
			}
		}
	}
	for _, line := range []string{"go build -buildmode=c-archive -o x.a -ldflags=-extar=prog .", "go build -ldflags '-extar prog' -o x ."} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q: not opaque (accesses %v)", line, a.accesses)
		}
	}
}

// go generate runs the commands of the //go:generate lines of its
// packages' Go files: project code, as a Makefile's recipes are, unless
// the line wrote one of those files, or the packages are named by import
// path and lie outside the workdir.
func TestGoGenerateRunsTheDirectivesOfItsPackages(t *testing.T) {
	for _, line := range []string{
		`printf 'package main\n//go:generate rm -f c\nfunc main(){}\n' > x.go && go generate x.go`,
		`echo '//go:generate sh -c "rm -f c"' >> x.go && go generate`,
		`mkdir -p p && echo 'package p' > p/p.go && go generate ./...`,
		"go generate example.com/lib", "go generate -run X std", "go generate -toolexec=x ./...",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q: not opaque (accesses %v)", line, a.accesses)
		}
	}
	for _, line := range []string{"go generate ./...", "go generate", "go generate -run stringer -x ./internal/...", "go generate x.go"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q: opaque: %q", line, a.reasons)
		}
	}
}
