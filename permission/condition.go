package permission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/glob"
)

// condOp is the operator of a Condition.
type condOp uint8

const (
	opNone condOp = iota
	opEquals
	opIn
	opRegex
	opGlob
	opStartsWith
	opContains
	opNot
)

// opNames are the operators' JSON keys.
var opNames = [...]string{
	opEquals:     "equals",
	opIn:         "in",
	opRegex:      "regex",
	opGlob:       "glob",
	opStartsWith: "startsWith",
	opContains:   "contains",
	opNot:        "not",
}

// A Condition tests one field of a call's input. Build one with [Equals],
// [In], [Regex], [Glob], [StartsWith], [Contains] or [Not]; the zero
// Condition is invalid and makes [New] fail. Conditions are immutable
// values, safe to share.
//
// A missing field matches no condition at all, [Not] included. The string
// operators (regex, glob, startsWith, contains) match only string values,
// and Not of a string operator on a value of another type is false too, so
// a negated condition fails closed.
type Condition struct {
	op    condOp
	value any        // equals: a normalized JSON value; in: []any of them
	str   string     // regex, glob, startsWith, contains
	not   *Condition // not
	err   error      // a value Equals or In could not represent as JSON
}

// Equals matches a value that deep-equals v, compared as JSON: object key
// order does not matter and numbers compare by value (1 equals 1.0). v must
// marshal to JSON; otherwise [New] reports the error.
func Equals(v any) Condition {
	n, err := normalize(v)
	return Condition{op: opEquals, value: n, err: err}
}

// In matches a value that deep-equals any of vs, compared as by [Equals].
func In(vs ...any) Condition {
	list := make([]any, 0, len(vs))
	var first error
	for _, v := range vs {
		n, err := normalize(v)
		if err != nil && first == nil {
			first = err
		}
		list = append(list, n)
	}
	return Condition{op: opIn, value: list, err: first}
}

// Regex matches a string value that contains a match of the regular
// expression pattern, in Go's RE2 syntax, unanchored (like JavaScript's
// RegExp.test without flags). Anchor with ^ and $ to match the whole value.
// Patterns RE2 does not support, such as lookarounds, make [New] fail.
func Regex(pattern string) Condition { return Condition{op: opRegex, str: pattern} }

// Glob matches a string value against a glob anchored to the whole value:
// * matches any run of characters except '/', ** as a whole path segment
// any number of segments (so "dir/**" matches dir itself and everything
// below it), ? one character except '/', [abc] and [!abc] one character of
// a set, {a,b} either alternative, and \ escapes the next character. Dot
// files are not special. A pattern starting with '!' is rejected; use
// [Not]. So is one with an unescaped '(', ')' or '|' outside [...]: the
// TypeScript SDK reads those as groups and extglobs (@(a|b), +(a)), which
// are not supported here.
func Glob(pattern string) Condition { return Condition{op: opGlob, str: pattern} }

// StartsWith matches a string value that starts with prefix. On the
// command of a bash call it matches on token boundaries: "ls" matches
// "ls" and "ls -la" but not "lsof", and "cat /etc" matches "cat /etc x"
// but not "cat /etc/passwd" or "cat /etcx"; a prefix ending in '/' or a
// blank, such as "curl https://api.example.com/", matches whatever follows
// it.
func StartsWith(prefix string) Condition { return Condition{op: opStartsWith, str: prefix} }

// Contains matches a string value that contains s.
func Contains(s string) Condition { return Condition{op: opContains, str: s} }

// Not matches a value that c can test and that c does not match. A missing
// field, or a non-string value under a string operator, matches neither c
// nor Not(c).
func Not(c Condition) Condition { return Condition{op: opNot, not: &c} }

// String returns the condition's JSON form, such as {"glob":"src/**"}.
func (c Condition) String() string {
	b, err := c.MarshalJSON()
	if err != nil {
		return "{invalid condition}"
	}
	return string(b)
}

// MarshalJSON implements [json.Marshaler] with the rule-file form of the
// condition: an object with exactly one operator key.
func (c Condition) MarshalJSON() ([]byte, error) {
	if err := c.validate(0); err != nil {
		return nil, err
	}
	var operand any
	switch c.op {
	case opEquals, opIn:
		operand = c.value
	case opNot:
		operand = *c.not
	default:
		operand = c.str
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{opNames[c.op]: operand}); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// maxCondDepth bounds the nesting of Not.
const maxCondDepth = 32

// validate checks the condition's structure (not its patterns).
func (c Condition) validate(depth int) error {
	if depth > maxCondDepth {
		return errors.New("conditions nest too deeply")
	}
	if c.err != nil {
		return c.err
	}
	switch c.op {
	case opEquals, opRegex, opGlob, opStartsWith, opContains:
		return nil
	case opIn:
		if _, ok := c.value.([]any); !ok {
			return errors.New("in needs a list")
		}
		return nil
	case opNot:
		if c.not == nil {
			return errors.New("not needs a condition")
		}
		return c.not.validate(depth + 1)
	}
	return errors.New("empty condition")
}

// equal reports whether two conditions are the same.
func (c Condition) equal(o Condition) bool {
	if c.op != o.op || c.str != o.str {
		return false
	}
	switch c.op {
	case opEquals, opIn:
		return jsonEqual(c.value, o.value)
	case opNot:
		return c.not.equal(*o.not)
	}
	return true
}

// normalize turns a Go value into the form the JSON decoder gives:
// map[string]any, []any, string, json.Number, bool or nil.
func normalize(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool, json.Number:
		return x, nil
	case json.RawMessage:
		return decodeValue(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("condition value: %w", err)
	}
	return decodeValue(b)
}

// decodeValue decodes one JSON value keeping numbers as json.Number.
func decodeValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

// jsonEqual compares two normalized JSON values structurally.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && numberEqual(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// numberEqual compares two JSON numbers exactly.
func numberEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	// Exponents this large are not worth the work; compare as text.
	if len(a) > 64 || len(b) > 64 {
		return false
	}
	var x, y big.Rat
	if _, ok := x.SetString(string(a)); !ok {
		return false
	}
	if _, ok := y.SetString(string(b)); !ok {
		return false
	}
	return x.Cmp(&y) == 0
}

// lookup returns input[dotPath]: object members by key and array elements
// by decimal index, one dot-separated segment at a time.
func lookup(input any, segs []string) (any, bool) {
	v := input
	for _, s := range segs {
		switch x := v.(type) {
		case map[string]any:
			w, ok := x[s]
			if !ok {
				return nil, false
			}
			v = w
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(x) || strconv.Itoa(i) != s {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// A matcher is a compiled condition.
type matcher struct {
	op     condOp
	value  any
	str    string
	re     *regexp.Regexp // regex
	pat    *glob.Pattern  // glob
	not    *matcher
	tokens bool // startsWith on token boundaries
}

// compileCondition compiles c for the field key. expand rewrites ~, $HOME
// and $PWD in the string operands of path and command conditions. command
// says c tests the bash command, whose operands are squeezed as the
// command is. allow says c belongs to an allow rule.
//
// On a bash command, startsWith matches on a token boundary where that
// makes the rule match less, and as a plain prefix where a plain prefix
// makes it match more: "git push" in an allow rule does not allow
// "git pushx", while "rm -r" in a deny rule denies "rm -rf" (a string
// prefix). Inside not, the two swap.
func compileCondition(c Condition, expand func(s string, glob bool) (string, error), command, allow bool) (*matcher, error) {
	if err := c.validate(0); err != nil {
		return nil, err
	}
	return compileValid(c, expand, command, command && allow)
}

func compileValid(c Condition, expand func(s string, glob bool) (string, error), command, tokens bool) (*matcher, error) {
	m := &matcher{op: c.op, value: c.value, str: c.str, tokens: tokens}
	var err error
	switch c.op {
	case opEquals:
		if s, ok := c.value.(string); ok && expand != nil {
			if m.value, err = expand(s, false); err != nil {
				return nil, err
			}
		}
	case opIn:
		if expand != nil {
			list := append([]any(nil), c.value.([]any)...)
			for i, v := range list {
				if s, ok := v.(string); ok {
					if list[i], err = expand(s, false); err != nil {
						return nil, err
					}
				}
			}
			m.value = list
		}
	case opRegex:
		m.re, err = regexp.Compile(c.str)
		if err != nil {
			// The pattern itself is not repeated: it may hold a secret.
			return nil, fmt.Errorf("invalid regex: %s", regexCode(err))
		}
	case opGlob:
		s := c.str
		if expand != nil {
			if s, err = expand(s, true); err != nil {
				return nil, err
			}
		}
		m.str = s
		if m.pat, err = compileGlob(s); err != nil {
			return nil, err
		}
	case opStartsWith, opContains:
		if expand != nil {
			if m.str, err = expand(c.str, false); err != nil {
				return nil, err
			}
		}
		if command {
			m.str = squeezeSpaces(m.str)
		}
	case opNot:
		if m.not, err = compileValid(*c.not, expand, command, command && !tokens); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// regexCode returns the kind of a regexp syntax error without the
// expression it quotes.
func regexCode(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "error parsing regexp: ")
	if i := strings.Index(msg, ": `"); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

// match reports whether the field value v (present when ok) matches.
func (m *matcher) match(v any, ok bool) bool {
	if !ok {
		return false
	}
	switch m.op {
	case opEquals:
		return jsonEqual(m.value, v)
	case opIn:
		for _, w := range m.value.([]any) {
			if jsonEqual(w, v) {
				return true
			}
		}
		return false
	case opNot:
		return m.not.evaluable(v) && !m.not.match(v, true)
	}
	s, isString := v.(string)
	if !isString {
		return false
	}
	switch m.op {
	case opRegex:
		return m.re.MatchString(s)
	case opGlob:
		return m.pat.Match(s)
	case opStartsWith:
		if m.tokens {
			return tokenPrefix(s, m.str)
		}
		return strings.HasPrefix(s, m.str)
	case opContains:
		return strings.Contains(s, m.str)
	}
	return false
}

// matchSpellings matches the spellings of one field (see [spellings]): a
// positive condition matches when it matches any of values; Not(c) matches
// when c matches none of trusted, the canonical spellings.
func (m *matcher) matchSpellings(values, trusted []string) bool {
	if m.op == opNot {
		return len(trusted) > 0 && m.not.evaluable("") && !m.not.matchSpellings(trusted, trusted)
	}
	for _, s := range values {
		if m.match(s, true) {
			return true
		}
	}
	return false
}

// matchGuessed is matchSpellings for the commands a command the analysis
// does not model may run, as guessed from its words (see
// [shellscan.Command]): startsWith matches them only on a token boundary,
// since the word a guess starts from may as well be a file name
// (nuke-report.txt) as a program; a negation sees only trusted.
func (m *matcher) matchGuessed(values, trusted []string) bool {
	if m.op == opNot {
		return m.matchSpellings(nil, trusted)
	}
	for _, s := range values {
		if m.op == opStartsWith {
			if tokenPrefix(s, m.str) {
				return true
			}
		} else if m.match(s, true) {
			return true
		}
	}
	return false
}

// evaluable reports whether m can test v at all.
func (m *matcher) evaluable(v any) bool {
	switch m.op {
	case opEquals, opIn:
		return true
	case opNot:
		return m.not.evaluable(v)
	}
	_, ok := v.(string)
	return ok
}

// tokenPrefix reports whether the command s starts with prefix on a token
// boundary: the prefix is followed by a blank or the end, or it ends with a
// blank or '/' (a directory or URL path, continued below it). Both have
// single spaces between tokens.
func tokenPrefix(s, prefix string) bool {
	if !strings.HasPrefix(s, prefix) {
		return false
	}
	if len(s) == len(prefix) || prefix == "" || strings.HasSuffix(prefix, " ") || strings.HasSuffix(prefix, "/") {
		return true
	}
	return s[len(prefix)] == ' '
}

// squeezeSpaces trims s and collapses runs of blanks to one space, the form
// of a command the bash analysis produces.
func squeezeSpaces(s string) string {
	trailing := strings.HasSuffix(s, " ")
	out := strings.Join(strings.Fields(s), " ")
	if trailing && out != "" {
		out += " "
	}
	return out
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
