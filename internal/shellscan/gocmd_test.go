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
		"go test -cpuprofile c.prof -outputdir=out .":    {"writes c.prof", "writes out/c.prof", "writes out +tree", "reads .", "reads . +runs"},
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
	})
	// What the linker is told is checked as an unmodelled command's
	// words, nested values included.
	a := analyzeBash("go test -ldflags=-o=x .", "/home/u", "/w")
	if !slices.ContainsFunc(a.accesses, func(x access) bool { return acc(x) == "reads x +unknown" }) {
		t.Errorf("go test -ldflags=-o=x: x is not a path it may write: %v", a.accesses)
	}
	if a := analyzeBash("go run golang.org/x/tools/cmd/stringer@latest -type=T", "/home/u", "/w"); len(a.reasons) == 0 {
		t.Errorf("go run of a module at a version is not opaque: %v", a.accesses)
	}
	// Left to the rule for commands the analysis does not model: a
	// default output in the working directory, a flag not modelled, a
	// word known only when it runs.
	checkUnmodelled(t, []string{
		"go build .", "go test -c .", "go -C sub test .", "go vet -printf.funcs=x .", "go test . -args -v",
		"go test -test.cpuprofile=x .", "go run", "go fmt ./...", "go fmt -ldflags=x .", "go test -o $X .", "gofmt -w .", "gofmt -cpuprofile p x.go",
		"go generate ./...", "go install ./cmd/x", "go test -run -o .",
	})
}
