package shellscan

import (
	"path"
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

// FilesOpenedAtStart returns, for a line whose redirections are opened as
// soon as it starts (see [RedirectsOpenAtStart]), how often each path
// appears as the target of a redirection of the line's own commands or
// as an operand of a tee among them (tee opens its files when it starts,
// which in such a line is when the line starts), the path as written with
// its quotes removed; ok is false for other lines. Only those are opened
// at once: a command string the line's command runs (sh -c 'sleep 2; echo
// x > f') redirects when it gets there, and so does tee in it. A path
// with expansions is left out.
func FilesOpenedAtStart(line string) (files map[string]int, ok bool) {
	if !RedirectsOpenAtStart(line) {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	files = map[string]int{}
	var stmt func(st *syntax.Stmt)
	stmt = func(st *syntax.Stmt) {
		switch c := st.Cmd.(type) {
		case *syntax.BinaryCmd:
			stmt(c.X)
			stmt(c.Y)
			return
		case *syntax.CallExpr:
			if len(c.Args) > 0 {
				if name, ok := literalWord(c.Args[0]); ok && path.Base(name) == "tee" {
					for _, a := range c.Args[1:] {
						if s, ok := literalWord(a); ok && !strings.HasPrefix(s, "-") {
							files[s]++
						}
					}
				}
			}
		}
		for _, r := range st.Redirs {
			switch r.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.DplOut:
				s, ok := literalWord(r.Word)
				if ok && r.Op == syntax.DplOut && (s == "-" || strings.Trim(s, "0123456789") == "") {
					ok = false // 2>&1 and >&- copy or close a descriptor
				}
				if ok {
					files[s]++
				}
			}
		}
	}
	stmt(f.Stmts[0])
	return files, true
}

// literalWord returns w's text with its quotes removed when it holds no
// expansion (nor a $"…" string, translated when it runs).
func literalWord(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false // $"…" is translated when it runs
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
