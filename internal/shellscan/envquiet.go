package shellscan

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// markQuietEnv records, for n, an env call whose output provably carries
// no value of the environment, which envPrinter then does not count as
// printing it: env alone (no option, assignment or command) whose only
// redirection sends its output to /dev/null (env > /dev/null), or env
// alone piped into a consumer that prints counts only (env | wc -l, env |
// grep -c PATH; see countsOnly). Anything else (env | sort, env | grep
// PATH, env | wc --files0-from=-, whose errors name each line, env > f)
// still prints or keeps the values.
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
		counts, grep := countsOnly(n.Y)
		if !counts {
			return
		}
		c = bareEnv(n.X)
		if c != nil && grep {
			// A count of the lines matching a pattern tells whether
			// some value holds it: one such count a line, so that a
			// value is not spelled out by a line of guesses (env |
			// grep -c ghp_a; env | grep -c ghp_b; …).
			if an.quietGrep {
				return
			}
			an.quietGrep = true
		}
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
// counting options alone (-l, -c, -w, -m, -L and their long names), or
// grep -c (--count) with a pattern of letters, digits and underscores
// alone (a name: no anchor, class, wildcard or "=", with which env |
// grep -c ^GITHUB_TOKEN=g tells a value's first letter) and options that
// change only what matches (-i, -v, -w, -x, -E, -F), no file and no -e or
// -f; grep reports it is grep's.
func countsOnly(s *syntax.Stmt) (counts, grep bool) {
	if s == nil || len(s.Redirs) != 0 || s.Negated || s.Background || s.Coprocess {
		return false, false
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) != 0 || len(c.Args) == 0 {
		return false, false
	}
	var args []string
	for _, w := range c.Args {
		t := w.Lit()
		if t == "" {
			return false, false // quoted, expanded or empty: not a plain word
		}
		args = append(args, t)
	}
	switch args[0] {
	case "wc":
		if len(args) == 1 {
			return false, false // all counts, still numbers, but keep it plain
		}
		for _, a := range args[1:] {
			switch {
			case a == "--lines" || a == "--bytes" || a == "--chars" || a == "--words" || a == "--max-line-length":
			case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "lcwmL") == "":
			default:
				return false, false
			}
		}
		return true, false
	case "grep":
		count, patterns := false, 0
		for _, a := range args[1:] {
			switch {
			case a == "--count":
				count = true
			case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "civwxEF") == "":
				count = count || strings.Contains(a, "c")
			case a[0] != '-' && strings.Trim(a, nameChars) == "":
				patterns++
			default:
				return false, false
			}
		}
		return count && patterns == 1, true
	}
	return false, false
}

// nameChars are the characters of a pattern countsOnly takes for a name.
const nameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
