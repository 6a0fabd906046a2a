package shellscan

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// benchLines are command lines of growing size.
var benchLines = map[string]string{
	"short":  "git status",
	"chain":  "git add -A && git commit -m \"$(date)\" && git push origin main | tee log.txt",
	"nested": `bash -c "cd src && find . -name '*.go' -exec grep -l TODO {} \; | xargs wc -l > /tmp/out" && eval "echo done"`,
}

// BenchmarkParseOnly is the raw operation the analysis builds on: parsing
// the line with mvdan.cc/sh.
func BenchmarkParseOnly(b *testing.B) {
	for name, line := range benchLines {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAnalyze(b *testing.B) {
	for name, line := range benchLines {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Analyze(line, Options{Home: "/home/u", Workdir: "/w"})
			}
		})
	}
}
