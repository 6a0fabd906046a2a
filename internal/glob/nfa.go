package glob

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// A pattern runs as a Thompson automaton: Match keeps the set of states
// the name read so far may be in, and advances every state of the set by
// one character at a time. The set never holds more states than the
// program has, so a match takes time proportional to the length of the
// name times the size of the pattern, with no backtracking.

// The operations of a program's instructions.
type opcode uint8

const (
	opRune    opcode = iota // consume r
	opSegRune               // consume any character but '/'
	opAnyRune               // consume any character
	opClass                 // consume a character of cls
	opSplit                 // go on at every state of alts, consuming nothing
	opMatch                 // the whole name matched
)

type inst struct {
	op   opcode
	r    rune
	cls  *charClass
	next int   // the state after a consuming instruction
	alts []int // opSplit
}

// A charClass is a bracket expression.
type charClass struct {
	negate bool
	items  []classItem
}

func (c *charClass) has(r rune) bool {
	for _, it := range c.items {
		if it.lo <= r && r <= it.hi {
			return !c.negate
		}
	}
	return c.negate
}

// A token is a node lowered to what it matches in context: a "**" segment
// becomes one of the globstar forms, a "*" the segment star.
type tokKind uint8

const (
	tokRune         tokKind = iota // r
	tokSegRune                     // "?": one character but '/'
	tokClass                       // cls
	tokSegStar                     // any run of characters but '/'
	tokAnyStar                     // any run of characters
	tokOptStarSlash                // "**/": nothing, or anything ending in '/'
	tokOptSlashStar                // "/**" at the end: nothing, or '/' and anything
	tokGroup                       // one of alts
)

type token struct {
	kind tokKind
	r    rune
	cls  *charClass
	alts [][]token
}

// lower turns seq into tokens. segStart reports that seq begins a path
// segment (at the start of the pattern or after a "/"), segEnd that it
// ends one (at the end of the pattern or before a "/").
func lower(seq []node, segStart, segEnd bool) []token {
	var out []token
	for i := 0; i < len(seq); i++ {
		nd := seq[i]
		start := segStart
		if i > 0 {
			start = seq[i-1].kind == nodeSlash
		}
		end := segEnd
		if i+1 < len(seq) {
			end = seq[i+1].kind == nodeSlash
		}
		switch nd.kind {
		case nodeLiteral:
			out = append(out, token{kind: tokRune, r: nd.r})
		case nodeSlash:
			// "dir/**" matches dir itself and everything below it.
			if i+2 == len(seq) && seq[i+1].kind == nodeStar && seq[i+1].n >= 2 && segEnd {
				return append(out, token{kind: tokOptSlashStar})
			}
			out = append(out, token{kind: tokRune, r: '/'})
		case nodeStar:
			switch {
			case nd.n >= 2 && start && end && i+1 < len(seq):
				// "**/" matches zero or more whole segments.
				out = append(out, token{kind: tokOptStarSlash})
				i++ // the slash
			case nd.n >= 2 && start && end:
				out = append(out, token{kind: tokAnyStar})
			default:
				out = append(out, token{kind: tokSegStar})
			}
		case nodeQuestion:
			out = append(out, token{kind: tokSegRune})
		case nodeClass:
			out = append(out, token{kind: tokClass, cls: nd.cls})
		case nodeGroup:
			g := token{kind: tokGroup}
			for _, alt := range nd.alts {
				g.alts = append(g.alts, lower(alt, start, end))
			}
			out = append(out, g)
		}
	}
	return out
}

// A program is a compiled pattern.
type program struct {
	// prefix and suffix are literal text every matching name starts and
	// ends with, checked before the automaton runs.
	prefix, suffix string
	insts          []inst
	start          int
	match          int
	// closure[i] lists the states reachable from state i without
	// consuming a character that consume one or match; nil when the
	// lists would be too large, and then run walks the splits instead.
	closure [][]int
	pool    sync.Pool // of *matchState
}

// maxClosureEntries bounds the precomputed closures of a program.
const maxClosureEntries = 1 << 16

// compileProgram builds the program of tokens.
func compileProgram(toks []token) *program {
	p := &program{}
	var b strings.Builder
	i := 0
	for ; i < len(toks) && literalToken(toks[i]); i++ {
		b.WriteRune(toks[i].r)
	}
	p.prefix = b.String()
	j := len(toks)
	for j > i && literalToken(toks[j-1]) {
		j--
	}
	b.Reset()
	for _, t := range toks[j:] {
		b.WriteRune(t.r)
	}
	p.suffix = b.String()
	p.match = p.add(inst{op: opMatch})
	p.start = p.seq(toks, p.match)
	p.precompute()
	return p
}

// precompute fills p.closure unless the lists would hold more than
// maxClosureEntries states in all.
func (p *program) precompute() {
	n := len(p.insts)
	m := &matchState{cur: newStateSet(n), seen: newStateSet(n)}
	closure := make([][]int, n)
	total := 0
	for i := range p.insts {
		m.cur.dense, m.seen.dense = m.cur.dense[:0], m.seen.dense[:0]
		p.walkClosure(m, &m.cur, i)
		total += len(m.cur.dense)
		if total > maxClosureEntries {
			return
		}
		closure[i] = append([]int(nil), m.cur.dense...)
	}
	p.closure = closure
}

// literalToken reports whether t matches exactly the bytes of its rune.
// U+FFFD does not: it also matches each byte of invalid UTF-8.
func literalToken(t token) bool { return t.kind == tokRune && t.r != utf8.RuneError }

func (p *program) add(in inst) int {
	p.insts = append(p.insts, in)
	return len(p.insts) - 1
}

// seq compiles toks to run before the state next, last token first, and
// returns the state to start at.
func (p *program) seq(toks []token, next int) int {
	for i := len(toks) - 1; i >= 0; i-- {
		next = p.token(toks[i], next)
	}
	return next
}

// loop compiles "any run of what op consumes, then next".
func (p *program) loop(op opcode, next int) int {
	split := p.add(inst{op: opSplit})
	consume := p.add(inst{op: op, next: split})
	p.insts[split].alts = []int{consume, next}
	return split
}

func (p *program) token(t token, next int) int {
	switch t.kind {
	case tokRune:
		return p.add(inst{op: opRune, r: t.r, next: next})
	case tokSegRune:
		return p.add(inst{op: opSegRune, next: next})
	case tokClass:
		return p.add(inst{op: opClass, cls: t.cls, next: next})
	case tokSegStar:
		return p.loop(opSegRune, next)
	case tokAnyStar:
		return p.loop(opAnyRune, next)
	case tokOptStarSlash:
		slash := p.add(inst{op: opRune, r: '/', next: next})
		return p.add(inst{op: opSplit, alts: []int{next, p.loop(opAnyRune, slash)}})
	case tokOptSlashStar:
		slash := p.add(inst{op: opRune, r: '/', next: p.loop(opAnyRune, next)})
		return p.add(inst{op: opSplit, alts: []int{next, slash}})
	default: // tokGroup
		split := inst{op: opSplit}
		for _, alt := range t.alts {
			split.alts = append(split.alts, p.seq(alt, next))
		}
		return p.add(split)
	}
}

// A stateSet is a sparse set of states with constant-time clearing.
type stateSet struct {
	dense  []int
	sparse []int
}

func newStateSet(n int) stateSet {
	return stateSet{dense: make([]int, 0, n), sparse: make([]int, n)}
}

func (s *stateSet) has(i int) bool {
	j := s.sparse[i]
	return j < len(s.dense) && s.dense[j] == i
}

func (s *stateSet) insert(i int) {
	s.sparse[i] = len(s.dense)
	s.dense = append(s.dense, i)
}

type matchState struct {
	cur, next, seen stateSet
	stack           []int
}

// addClosure adds to set the states reachable from i without consuming a
// character, keeping only those that consume one or match.
func (p *program) addClosure(m *matchState, set *stateSet, i int) {
	if p.closure != nil {
		for _, s := range p.closure[i] {
			if !set.has(s) {
				set.insert(s)
			}
		}
		return
	}
	p.walkClosure(m, set, i)
}

// walkClosure is addClosure following the splits; m.seen holds the states
// already walked since it was last cleared.
func (p *program) walkClosure(m *matchState, set *stateSet, i int) {
	m.stack = append(m.stack[:0], i)
	for len(m.stack) > 0 {
		i := m.stack[len(m.stack)-1]
		m.stack = m.stack[:len(m.stack)-1]
		if m.seen.has(i) {
			continue
		}
		m.seen.insert(i)
		in := &p.insts[i]
		if in.op != opSplit {
			set.insert(i)
			continue
		}
		for k := len(in.alts) - 1; k >= 0; k-- {
			m.stack = append(m.stack, in.alts[k])
		}
	}
}

// run reports whether the program matches the whole of name.
func (p *program) run(name string) bool {
	if !strings.HasPrefix(name, p.prefix) || !strings.HasSuffix(name[len(p.prefix):], p.suffix) {
		return false
	}
	m, _ := p.pool.Get().(*matchState)
	if m == nil {
		n := len(p.insts)
		m = &matchState{cur: newStateSet(n), next: newStateSet(n), seen: newStateSet(n)}
	}
	defer p.pool.Put(m)
	m.cur.dense, m.seen.dense = m.cur.dense[:0], m.seen.dense[:0]
	p.addClosure(m, &m.cur, p.start)
	for _, r := range name {
		if len(m.cur.dense) == 0 {
			return false
		}
		m.next.dense, m.seen.dense = m.next.dense[:0], m.seen.dense[:0]
		for _, i := range m.cur.dense {
			in := &p.insts[i]
			var ok bool
			switch in.op {
			case opRune:
				ok = r == in.r
			case opSegRune:
				ok = r != '/'
			case opAnyRune:
				ok = true
			case opClass:
				ok = in.cls.has(r)
			}
			if ok {
				p.addClosure(m, &m.next, in.next)
			}
		}
		m.cur, m.next = m.next, m.cur
	}
	return m.cur.has(p.match)
}
