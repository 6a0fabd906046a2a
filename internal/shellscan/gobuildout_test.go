package shellscan

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGoBuiltProgramHanded checks that the program go build or go test -c
// writes, named with -o or by go's default (after the import path's last
// element that is no major version, the module's path in its root, the
// first file, the test files' package), handed to a command the analysis
// does not model or run by name, is a program the line wrote
// (gatecred67: hyperfine './t c c' ran the pack go build made of
// cmd/pack, which wrote over the canary); and that other names, and
// builds of several packages, which write nothing, stay ordinary.
func TestGoBuiltProgramHanded(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":        "module example.com/tool/v2\n\ngo 1.22\n",
		"m.go":          "package main\n",
		"x_test.go":     "// a test\npackage widget\n",
		"cmd/run/m.go":  "package main\n",
		"proj2/go.mod":  "module example.com/other\n",
		"proj2/main.go": "package main\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range []string{
		`go build -o t cmd/pack && hyperfine -N -r1 './t c c'`,
		`go build -o t . && hyperfine ./t`,
		`go build -o=t cmd/pack && mytool t`,
		`go build -o bin/ cmd/pack && hyperfine 'bin/pack c c'`,
		`go test -c -o t cmd/pack && hyperfine './t c'`,
		`go build cmd/pack && hyperfine -N -r1 './pack c c'`,
		`go build cmd/pack && ./pack c c`,
		`go build golang.org/x/tools/cmd/stringer && mytool ./stringer`,
		`go build example.com/cli/v3 && mytool ./cli`,
		`go build && mytool ./tool`,
		`go build . && mytool ./tool`,
		`go build ./cmd/run && mytool ./run`,
		`cd proj2 && go build && mytool ./other`,
		`go build m.go && mytool ./m`,
		`go test -c && mytool ./tool.test`,
		`go test -c cmd/pack && ./pack.test`,
		`go test -c x_test.go && mytool ./widget.test`,
		`go build -trimpath cmd/pack && hyperfine -P n 1 1 './pac{n}'`,
		// The flags' end, and -C, which builds in another directory.
		`go build -o t -- cmd/pack && mytool ./t`, `go build -- cmd/pack && mytool ./pack`,
		`go build -C cmd/run && mytool cmd/run/run`, `go build -C cmd/run -o t . && mytool cmd/run/t`,
		`go test -C cmd/run -c . && mytool cmd/run/run.test`,
	} {
		if a := analyzeBash(line, "/home/u", dir); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque (units %v)", line, a.units)
		}
	}
	for _, line := range []string{
		`go build ./...`, `go build`, `go build -o bin/app ./cmd/run`, `go build ./... && mytool ./tool`,
		`go build cmd/pack && mytool ./other`, `go build -o t . && mytool ./u`, `go vet ./... && go test ./...`,
		`go build -o /dev/null . && git status`, `go build && ls -la`, `go test -C cmd/run ./...`, `go vet -C cmd/run .`,
		`go build -o t -- cmd/pack && mytool ./u`,
		// Run by name, a program built of the workdir's own package is
		// the project's, as go run . runs it (review67g).
		`go build && ./tool`, `go build -o app . && ./app --help`, `go build -o bin/app ./cmd/run && ./bin/app`,
	} {
		if a := analyzeBash(line, "/home/u", dir); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %v", line, a.reasons)
		}
	}
	for p, want := range map[string]string{"example.com/tool/v2": "tool", "cmd/pack": "pack", "v2": "v2", "x/v": "v", "a/b/": "b"} {
		if got := goProgramName(p); got != want {
			t.Errorf("goProgramName(%q) = %q, want %q", p, got, want)
		}
	}
}
