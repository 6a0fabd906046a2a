package shellscan

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// RedirectsOpenAtStart reports whether every redirection of line is
// opened as soon as the line starts: the line is one simple command, or
// one pipeline of simple commands (whose commands bash starts together),
// with no command or process substitution anywhere (which would run, and
// open what it redirects to, when bash gets to it). A line run in the
// background outlives its call; only the files it opens at once are
// opened before a later call can change where their paths lead.
func RedirectsOpenAtStart(line string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	st := f.Stmts[0]
	if st.Background || st.Coprocess || !simplePipeline(st.Cmd) {
		return false
	}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			ok = false
		}
		return ok
	})
	return ok
}

// simplePipeline reports whether cmd is a simple command or a pipeline of
// them.
func simplePipeline(cmd syntax.Command) bool {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		return true
	case *syntax.BinaryCmd:
		if c.Op != syntax.Pipe && c.Op != syntax.PipeAll {
			return false
		}
		return simplePipeline(c.X.Cmd) && simplePipeline(c.Y.Cmd) && !c.X.Background && !c.Y.Background
	}
	return false
}
