package shellscan

import (
	"bufio"
	"io"
	"os"
	"path"
	"strings"
)

// maxGoModRead bounds what goFileClause reads of a file.
const maxGoModRead = 64 << 10

// goDefaultOutputs records, as executable files the line writes, the
// program go build writes without -o (and the test binary of go test -c):
// it is named after the last element of the package's import path that
// is no major version (go build cmd/pack writes ./pack; go build in a
// module's root, after the module's path) or after the first file (go
// build m.go writes ./m), with .test after it for go test -c (after the
// files' package for go test -c x_test.go), in the working directory. Handed to a command the analysis does not model
// (hyperfine './pack c c'), such a file is a program the line wrote, as
// one it names with -o is (gatecred67: real hyperfine ran the pack that
// go build made of the standard library's cmd/pack, which wrote an
// archive over the canary). Several packages (go build ./...) write
// nothing.
func (an *analyzer) goDefaultOutputs(sub string, ops []word, what string) {
	if len(ops) == 0 {
		ops = []word{{text: "."}}
	}
	for _, op := range ops {
		if op.dynamic || op.special || op.pattern || strings.Contains(op.text, "...") {
			return
		}
	}
	var names []string
	switch first := ops[0].text; {
	case strings.HasSuffix(first, ".go"):
		names = append(names, strings.TrimSuffix(path.Base(first), ".go"))
		if sub == "test" {
			// go test -c x_test.go names the binary after the files'
			// package.
			names = nil
			for _, c := range an.a.cwds {
				if p := an.resolve(c, first); path.IsAbs(p) {
					names = append(names, goFileClause(p, "package"))
				}
			}
		}
	case len(ops) > 1:
		return
	case goLocalPackage(first):
		for _, c := range an.a.cwds {
			dir := an.resolve(c, first)
			if !path.IsAbs(dir) {
				continue
			}
			names = append(names, path.Base(dir))
			if m := goModuleName(dir); m != "" {
				names = append(names, goProgramName(m))
			}
		}
	default:
		names = append(names, goProgramName(first))
	}
	from := len(an.a.accesses)
	for _, n := range names {
		if n == "" || n == "." || n == "/" {
			continue
		}
		if sub == "test" {
			n += ".test"
		}
		an.addAccess(word{text: n}, modeWrite, what, false)
	}
	built := an.goBuiltHere(ops)
	for i := from; i < len(an.a.accesses); i++ {
		an.a.accesses[i].executable = true
		an.a.accesses[i].built = built
	}
}

// goProgramName returns the last element of the import path p that is no
// major version suffix (example.com/tool/v2 names tool), which go build
// names the program after.
func goProgramName(p string) string {
	elems := strings.Split(strings.Trim(p, "/"), "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	return last
}

// goModuleName returns the module path the go.mod file in dir declares;
// "" when there is none or it cannot be read.
func goModuleName(dir string) string {
	return goFileClause(path.Join(dir, "go.mod"), "module")
}

// goFileClause returns the operand of the first line of the file p that
// begins with the keyword (a go.mod's module, a Go file's package); ""
// when there is none or the file cannot be read.
func goFileClause(p, keyword string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxGoModRead))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == keyword {
			return strings.Trim(fields[1], `"`+"`;")
		}
	}
	return ""
}
