package shellscan

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// markQuietEnv records, for n, an env call whose output provably carries
// no value of the environment, which envPrinter then does not count as
// printing it: env alone (no option, assignment or command) whose only
// redirection sends its output to /dev/null (env > /dev/null), or env
// alone piped into a consumer that prints counts only (env | wc -l; see
// countsOnly). Anything else (env | sort, env | grep PATH, env | wc
// --files0-from=-, whose errors name each line, env > f) still prints or
// keeps the values, and so does env | grep -c PAT: a count of the lines
// matching a pattern says whether some value holds it, one guess a call
// (env | grep -c ghp_a spells a token out a letter at a time).
func (an *analyzer) markQuietEnv(n syntax.Node) {
	var c *syntax.CallExpr
	switch n := n.(type) {
	case *syntax.Stmt:
		if len(n.Redirs) != 1 || n.Negated || n.Background || n.Coprocess {
			return
		}
		r := n.Redirs[0]
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.AppOut, syntax.RdrAll, syntax.AppAll:
		default:
			return
		}
		if r.N != nil && r.N.Value != "1" || r.Word == nil || r.Word.Lit() != "/dev/null" {
			return
		}
		c = bareEnv(n)
	case *syntax.BinaryCmd:
		if n.Op != syntax.Pipe && n.Op != syntax.PipeAll || n.X == nil || len(n.X.Redirs) != 0 {
			return // env > f | wc -l keeps the values in f
		}
		if !countsOnly(n.Y) {
			return
		}
		c = bareEnv(n.X)
	}
	if c == nil {
		return
	}
	if an.quietEnv == nil {
		an.quietEnv = map[*syntax.CallExpr]bool{}
	}
	an.quietEnv[c] = true
}

// bareEnv returns the call of s if it is env alone, spelled as a plain
// word, with no assignment prefix; nil otherwise.
func bareEnv(s *syntax.Stmt) *syntax.CallExpr {
	if s == nil || s.Negated || s.Background || s.Coprocess {
		return nil
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) != 0 || len(c.Args) != 1 || c.Args[0].Lit() != "env" {
		return nil
	}
	return c
}

// countsOnly reports whether s is a command, without redirections, that
// prints only counts of what it reads on its standard input: wc with
// counting options alone (-l, -c, -w, -m, -L and their long names).
func countsOnly(s *syntax.Stmt) bool {
	if s == nil || len(s.Redirs) != 0 || s.Negated || s.Background || s.Coprocess {
		return false
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) != 0 || len(c.Args) < 2 || c.Args[0].Lit() != "wc" {
		return false // wc alone: all counts, still numbers, but keep it plain
	}
	for _, w := range c.Args[1:] {
		switch a := w.Lit(); {
		case a == "--lines" || a == "--bytes" || a == "--chars" || a == "--words" || a == "--max-line-length":
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "lcwmL") == "":
		default:
			return false // quoted, expanded or another option
		}
	}
	return true
}
