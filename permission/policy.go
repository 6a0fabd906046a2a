package permission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/glob"
	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// A Rule matches tool calls and says what to do with them.
//
// A rule matches a call when one of its Tool globs matches the tool name
// (no globs: every tool) and every condition of When matches the input
// field its key names. Keys are dot paths into the input: "path",
// "options.mode", "args.0" (array elements by index).
//
// Two fields are special. On read_file, write_file, edit_file and
// delete_file, "path" is matched against the resolved forms of the path
// (see [Workspace]). On bash, "command" is matched against every simple
// command of the parsed command line, and file rules (rules on "path")
// also see the paths the line reads, writes and deletes; see the package
// documentation.
type Rule struct {
	// ID names the rule in verdicts; see [Verdict.RuleID].
	ID string
	// Description is the verdict's reason when the rule decides.
	Description string
	// Tool lists globs of tool names, such as "bash", "Task*" or "mcp__*";
	// empty means every tool. See [Glob] for the syntax.
	Tool []string
	// When maps dot paths of the input to conditions, all of which must
	// match.
	When map[string]Condition
	// Effect is the rule's decision.
	Effect Decision

	layer string // set by FilePolicy
}

// BashCommand returns a rule for bash commands. When spec ends in ":*",
// the rule matches the commands that start with the text before it: for
// an allow rule on a token boundary ("git push:*" allows "git push origin"
// but not "git pushx"), for a deny or ask rule as a plain prefix ("rm -r:*"
// denies "rm -rf"). Otherwise a deny or ask rule matches the commands that contain
// spec, and an allow rule only the command that is exactly spec, so that an
// allow never extends to other arguments. The rule applies to every simple
// command of a line, after quote removal, with runs of blanks squeezed to
// one space. Its description is "bash <spec>".
func BashCommand(spec string, effect Decision) Rule {
	var c Condition
	switch {
	case strings.HasSuffix(spec, ":*"):
		c = StartsWith(strings.TrimSuffix(spec, ":*"))
	case effect == Allow:
		c = Equals(squeezeSpaces(spec))
	default:
		c = Contains(spec)
	}
	return Rule{Description: "bash " + spec, Tool: []string{"bash"}, When: map[string]Condition{"command": c}, Effect: effect}
}

// FilePath returns a rule for the file tools (read_file, write_file,
// edit_file, delete_file) on the paths matching glob. A relative glob is
// matched against the workspace-relative path, an absolute one (or one
// starting with ~ or $HOME) against the absolute path. The rule also
// applies to the files bash commands read, write and delete when its
// effect is deny or ask. Its description is "path <glob>".
func FilePath(glob string, effect Decision) Rule {
	return Rule{
		Description: "path " + glob,
		Tool:        []string{"read_file", "write_file", "edit_file", "delete_file"},
		When:        map[string]Condition{"path": Glob(glob)},
		Effect:      effect,
	}
}

// Options configures [New].
type Options struct {
	// Rules are the rules, checked as described at [New].
	Rules []Rule
	// Allow, Ask and Deny are tool-name globs that become rules without
	// conditions and without ids; their verdicts carry only the decision.
	Allow, Ask, Deny []string
	// Default is the decision when no rule matches; zero means Allow.
	Default Decision
	// Workdir is the workspace directory, used to resolve relative paths
	// lexically and for $PWD in rules. "" leaves paths as they are given,
	// and a rule using $PWD fails. [Workspace] resolves paths on the file
	// system instead.
	Workdir string
	// HomeDir is the user's home directory, for ~ and $HOME in rules and
	// commands; "" means [os.UserHomeDir]. A relative one is made absolute
	// against the process's working directory when the policy is built.
	// When no home is known, a rule using ~ or $HOME makes New fail,
	// rather than match nothing.
	HomeDir string
}

// New returns a policy made of rules. It decides like this:
//
//  1. any matching deny rule makes the decision deny;
//  2. otherwise any matching ask rule makes it ask;
//  3. otherwise any matching allow rule makes it allow;
//  4. otherwise the decision is the default.
//
// Within one effect, the first matching rule (Deny, Ask and Allow names
// first, then Rules in order) is the verdict's provenance. A rule of Rules
// without an ID gets "rule-<index>".
//
// New fails for a rule with an invalid effect, tool glob, condition, glob
// or regex, naming the rule; no rule is dropped silently. The policy is
// safe for concurrent use and never returns an error from Check unless the
// context is done or a path cannot be resolved.
func New(opts Options) (Policy, error) {
	p, err := newPolicy(opts)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Strict is [New] with a default of Deny when opts.Default is zero.
func Strict(opts Options) (Policy, error) {
	if opts.Default == 0 {
		opts.Default = Deny
	}
	return New(opts)
}

// ReadOnlyTools are the built-in tools that only read the workspace:
// read_file and the search tools glob, grep and list_dir. [Default]
// allows them by name.
func ReadOnlyTools() []string { return []string{"read_file", "glob", "grep", "list_dir"} }

// Default returns the SDK's default policy: ask before bash, write_file,
// edit_file, delete_file, hook, mcp_connect and every mcp__* tool, allow
// the read-only tools ([ReadOnlyTools]) and everything else (custom tools
// are trusted by their host). With no approval handler, the [Gate] denies
// what this policy asks about. Its allow verdicts have the layer "default".
func Default() Policy {
	p, err := newPolicy(Options{
		Ask:     []string{"bash", "write_file", "edit_file", "delete_file", "hook", "mcp_connect", "mcp__*"},
		Allow:   ReadOnlyTools(),
		Default: Allow,
	})
	if err != nil {
		panic("permission: default policy: " + err.Error())
	}
	for _, r := range p.allow {
		r.layer = "default" // as when the default decided, before the list
	}
	return p
}

// Compose returns a policy that asks every policy and keeps the most
// restrictive verdict; on a tie the earlier policy's verdict wins. With no
// policies it allows everything. An error of any policy is returned (and
// the gate denies). Composing can only restrict: Compose(a, b) never
// decides less restrictively than a or b alone.
func Compose(ps ...Policy) Policy {
	ps = append([]Policy(nil), ps...)
	return composed(ps)
}

type composed []Policy

var _ Policy = composed(nil)

func (c composed) Check(ctx context.Context, call Call) (Verdict, error) {
	if len(c) == 0 {
		return Verdict{Decision: Allow}, nil
	}
	var best Verdict
	for i, p := range c {
		v, err := p.Check(ctx, call)
		if err != nil {
			return Verdict{}, err
		}
		if !v.Decision.Valid() {
			return Verdict{}, fmt.Errorf("permission: policy %d returned no decision", i)
		}
		if i == 0 || moreRestrictive(v.Decision, best.Decision) {
			best = v
		}
	}
	return best, nil
}

var _ Policy = (*policy)(nil)

// compiledRule is a rule ready to match.
type compiledRule struct {
	id, desc, layer string
	bare            bool // from a name list: the verdict has no id
	effect          Decision
	tools           []*glob.Pattern // nil: every tool
	conds           []compiledCond
	path, command   bool // tests the "path" or "command" field
}

type compiledCond struct {
	segs []string
	m    *matcher
}

// appliesTo reports whether the rule's tool globs match name.
func (r *compiledRule) appliesTo(name string) bool {
	if r.tools == nil {
		return true
	}
	for _, g := range r.tools {
		if g.Match(name) {
			return true
		}
	}
	return false
}

// policy is the compiled form of Options.
type policy struct {
	deny, ask, allow []*compiledRule
	def              Decision
	lex              lexical
	// bashContent: some rule may apply to bash and tests "command".
	bashContent bool
	// pathRestrict: some deny or ask rule may apply to a file tool and
	// tests "path".
	pathRestrict bool
}

// absHome returns the home directory for ~ and $HOME: home, or
// os.UserHomeDir's when it is "", made absolute against the process's
// working directory and cleaned. A relative home (HomeDir "rel", or a
// relative $HOME) is thus the directory it names when the policy or gate
// is built, as Workdir is, and ~ never means a directory relative to
// wherever a path or a bash line is resolved later (the workdir, the
// command's directory). "" when no home is known, or when it cannot be
// made absolute: ~ and $HOME are then unknown.
func absHome(home string) string {
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home == "" {
		return ""
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return ""
	}
	return abs
}

func newPolicy(opts Options) (*policy, error) {
	def := opts.Default
	if def == 0 {
		def = Allow
	}
	if !def.Valid() {
		return nil, fmt.Errorf("permission: invalid default decision %d", def)
	}
	home := absHome(opts.HomeDir)
	dir := opts.Workdir
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, fmt.Errorf("permission: workdir: %w", err)
		}
		dir = abs
	}
	p := &policy{def: def, lex: lexical{dir: dir, homeDir: home}}
	add := func(r *compiledRule) {
		switch r.effect {
		case Deny:
			p.deny = append(p.deny, r)
		case Ask:
			p.ask = append(p.ask, r)
		default:
			p.allow = append(p.allow, r)
		}
		if r.command && r.appliesTo("bash") {
			p.bashContent = true
		}
		if r.path && r.effect != Allow {
			for t := range fileTools {
				if r.appliesTo(t) {
					p.pathRestrict = true
				}
			}
		}
	}
	for _, list := range []struct {
		names  []string
		effect Decision
	}{{opts.Deny, Deny}, {opts.Ask, Ask}, {opts.Allow, Allow}} {
		for _, name := range list.names {
			err := checkToolGlob(name)
			var g *glob.Pattern
			if err == nil {
				g, err = compileGlob(name)
			}
			if err != nil || name == "" {
				return nil, fmt.Errorf("permission: %s list: invalid tool glob: %w", list.effect, orEmpty(err))
			}
			add(&compiledRule{bare: true, effect: list.effect, tools: []*glob.Pattern{g}})
		}
	}
	for i, r := range opts.Rules {
		id := r.ID
		if id == "" {
			id = "rule-" + strconv.Itoa(i)
		}
		c, err := p.compile(r, id)
		if err != nil {
			return nil, fmt.Errorf("permission: rule %s: %w", id, err)
		}
		add(c)
	}
	return p, nil
}

func orEmpty(err error) error {
	if err == nil {
		return errors.New("empty glob")
	}
	return err
}

// compile checks and compiles one rule.
func (p *policy) compile(r Rule, id string) (*compiledRule, error) {
	if !r.Effect.Valid() {
		return nil, errors.New("effect must be allow, ask or deny")
	}
	c := &compiledRule{id: id, desc: r.Description, layer: r.layer, effect: r.Effect}
	for _, t := range r.Tool {
		if t == "" {
			return nil, errors.New("empty tool glob")
		}
		if err := checkToolGlob(t); err != nil {
			return nil, err
		}
		re, err := compileGlob(t)
		if err != nil {
			return nil, fmt.Errorf("tool glob: %w", err)
		}
		c.tools = append(c.tools, re)
	}
	for _, key := range sortedKeys(r.When) {
		segs := strings.Split(key, ".")
		for _, s := range segs {
			if s == "" {
				return nil, fmt.Errorf("condition key %q: empty path segment", clip(key))
			}
		}
		var expand func(string, bool) (string, error)
		switch key {
		case "path":
			c.path = true
			expand = p.expandPath
			if r.Effect != Allow {
				expand = p.expandPathRestrict
			}
		case "command":
			c.command = true
			expand = p.expandCommand
		}
		m, err := compileCondition(r.When[key], expand, key == "command" && c.appliesTo("bash"), r.Effect == Allow)
		if err != nil {
			return nil, fmt.Errorf("condition %q: %w", clip(key), err)
		}
		c.conds = append(c.conds, compiledCond{segs: segs, m: m})
	}
	return c, nil
}

var errNoHome = errors.New("uses ~ or $HOME, but the home directory is unknown")

// expandVars replaces $HOME, ${HOME}, $PWD and ${PWD} in a rule operand.
//
// In a glob (glob true) the directories go in escaped, so that a '[', '('
// or '*' in a home or workdir is a character of the path, not syntax.
func (p *policy) expandVars(s string, glob bool) (string, error) {
	if strings.Contains(s, "$HOME") || strings.Contains(s, "${HOME}") {
		if p.lex.homeDir == "" {
			return "", errNoHome
		}
		home := escapeIf(glob, p.lex.homeDir)
		s = strings.ReplaceAll(s, "${HOME}", home)
		s = replaceVar(s, "HOME", home)
	}
	if strings.Contains(s, "$PWD") || strings.Contains(s, "${PWD}") {
		if p.lex.dir == "" {
			return "", errors.New("uses $PWD, but the policy has no workdir")
		}
		dir := escapeIf(glob, p.lex.dir)
		s = strings.ReplaceAll(s, "${PWD}", dir)
		s = replaceVar(s, "PWD", dir)
	}
	return s, nil
}

// escapeIf returns s with every glob metacharacter escaped when quote is
// true, and s itself otherwise.
func escapeIf(quote bool, s string) string {
	if !quote {
		return s
	}
	return glob.QuoteMeta(s)
}

// expandPath normalizes a path operand: ~ at the start (or at the start of
// a brace alternative) and the variables expand, and a leading "./" goes.
func (p *policy) expandPath(s string, glob bool) (string, error) {
	// Tildes first: a '~' inside an expanded directory is a character.
	s, err := expandTildes(s, escapeIf(glob, p.lex.homeDir), "{,")
	if err != nil {
		return "", err
	}
	s, err = p.expandVars(s, glob)
	if err != nil {
		return "", err
	}
	for strings.HasPrefix(s, "./") {
		s = s[2:]
	}
	if glob {
		return cleanPathGlob(s)
	}
	return s, nil
}

// cleanPathGlob drops the "." segments and repeated slashes of a path
// glob, and rejects a ".." segment and a trailing slash: matched against
// clean paths, such a glob would never match, and a deny rule that never
// matches fails open.
func cleanPathGlob(s string) (string, error) {
	if len(s) > 1 && strings.HasSuffix(s, "/") {
		return "", fmt.Errorf("path glob %q ends in '/': write %q for what lies beneath", clip(s), clip(s+"**"))
	}
	segs := strings.Split(s, "/")
	out := segs[:0]
	for i, seg := range segs {
		switch {
		case seg == "..":
			return "", fmt.Errorf("path glob %q has a \"..\" segment: name the path without it", clip(s))
		case seg == "." || (seg == "" && i > 0):
			continue
		}
		out = append(out, seg)
	}
	if len(out) == 1 && out[0] == "" {
		return "/", nil
	}
	return strings.Join(out, "/"), nil
}

// expandPathRestrict is expandPath for a deny or ask rule: a glob whose
// literal directory runs through a symbolic link also matches the path
// the link leads to, since the calls it must catch are spelled there.
func (p *policy) expandPathRestrict(s string, isGlob bool) (string, error) {
	s, err := p.expandPath(s, isGlob)
	if err != nil || !isGlob {
		return s, err
	}
	abs := s
	if !filepath.IsAbs(abs) {
		if p.lex.dir == "" {
			return s, nil
		}
		abs = filepath.Join(p.lex.dir, abs)
	}
	lit := pathmatch.LiteralDir(abs)
	real := pathmatch.Resolve(lit)
	if real == lit || !strings.HasPrefix(abs, lit) {
		return s, nil
	}
	return "{" + s + "," + glob.QuoteMeta(real) + abs[len(lit):] + "}", nil
}

// expandCommand expands ~ at the start of every word of a command operand,
// and the variables.
func (p *policy) expandCommand(s string, glob bool) (string, error) {
	s, err := expandTildes(s, escapeIf(glob, p.lex.homeDir), " ")
	if err != nil {
		return "", err
	}
	return p.expandVars(s, glob)
}

// expandTildes replaces "~" standing alone or before '/' at the start of s
// or after any byte of after.
func expandTildes(s, home, after string) (string, error) {
	if !strings.Contains(s, "~") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i == 0 || strings.IndexByte(after, s[i-1]) >= 0) &&
			(i+1 == len(s) || s[i+1] == '/' || s[i+1] == ' ' || s[i+1] == ',' || s[i+1] == '}') {
			if home == "" {
				return "", errNoHome
			}
			b.WriteString(home)
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), nil
}

// parseInput decodes a call's input; empty input is an empty object and
// input that is not JSON has no fields.
func parseInput(raw json.RawMessage) any {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return map[string]any{}
	}
	v, err := decodeValue(raw)
	if err != nil {
		return nil
	}
	return v
}

// Check implements [Policy].
func (p *policy) Check(ctx context.Context, call Call) (Verdict, error) {
	if err := ctx.Err(); err != nil {
		return Verdict{}, err
	}
	input := parseInput(call.Input)
	res := call.ws
	if res == nil || res.r == nil {
		res = newResolved(p.lex)
	}
	switch {
	case call.Name == "bash" && (p.bashContent || p.pathRestrict):
		if v, ok := lookup(input, []string{"command"}); ok {
			if cmd, ok := v.(string); ok {
				return p.checkBash(res, input, cmd), nil
			}
		}
	case fileTools[call.Name]:
		if v, ok := lookup(input, []string{"path"}); ok {
			if s, ok := v.(string); ok && p.testsPath(call.Name) {
				sp, err := res.spell(s)
				if err != nil {
					return Verdict{}, fmt.Errorf("resolve %s: %w", call.Name, err)
				}
				v, matched, _ := p.decide(call.Name, input, "path", sp, false, false)
				if matched != "" && matched != s {
					v = withDetail(v, "path "+matched)
				}
				return v, nil
			}
		}
	}
	v, _, _ := p.decide(call.Name, input, "", spellings{}, false, false)
	return v, nil
}

// testsPath reports whether some rule that may apply to tool tests "path".
func (p *policy) testsPath(tool string) bool {
	for _, group := range [][]*compiledRule{p.deny, p.ask, p.allow} {
		for _, r := range group {
			if r.path && r.appliesTo(tool) {
				return true
			}
		}
	}
	return false
}

// decide evaluates the rules for one view of a call. field names the input
// field whose value has several spellings (see [spellings]); allow rules see
// only the trusted ones. restrict skips allow rules and the default;
// pathOnly considers only rules that test field. It reports whether a
// rule (or, without restrict, the default) decided, and the spelling the
// deciding rule matched ("" when none in particular).
func (p *policy) decide(name string, input any, field string, sp spellings, restrict, pathOnly bool) (Verdict, string, bool) {
	groups := [][]*compiledRule{p.deny, p.ask, p.allow}
	if restrict {
		groups = groups[:2]
	}
	var all []string
	// pending is the ask of the first deny or ask rule that matched only a
	// command of a script the command may read (see [spellings]): it
	// decides unless another deny or ask rule does.
	var pending *Verdict
	for gi, group := range groups {
		if gi == 2 && pending != nil {
			return *pending, "", true
		}
		for _, r := range group {
			if !r.appliesTo(name) {
				continue
			}
			tests := field != "" && ((field == "path" && r.path) || (field == "command" && r.command))
			if pathOnly && !tests {
				continue
			}
			if !tests {
				if r.matches(input, "", nil, nil, false) {
					return r.verdict(), "", true
				}
				continue
			}
			values := sp.trusted
			if r.effect != Allow {
				if all == nil {
					all = append(append([]string{}, sp.trusted...), sp.other...)
				}
				values = all
			}
			if r.matches(input, field, values, sp.trusted, false) {
				return r.verdict(), r.matchedSpelling(field, values), true
			}
			if r.effect != Allow && len(sp.guessed) > 0 && r.matches(input, field, sp.guessed, sp.trusted, true) {
				return r.verdict(), "", true
			}
			if r.effect != Allow && pending == nil && len(sp.read) > 0 && r.matches(input, field, sp.read, sp.trusted, true) {
				v := r.verdict()
				v.Decision = Ask
				if v.Reason != "" {
					v.Reason += ": "
				}
				v.Reason += "a script the command may read holds a command the rule names"
				pending = &v
			}
		}
	}
	if pending != nil {
		return *pending, "", true
	}
	if restrict {
		return Verdict{}, "", false
	}
	return Verdict{Decision: p.def, Layer: "default"}, "", true
}

// matches reports whether every condition matches input. The condition on
// field, when there is one, is matched against the spellings of the field
// instead of its value: a positive condition matches when any of values
// does, a negated one when its inner condition matches none of the
// canonical spellings (so that "not src/**" does not fire on the absolute
// form of src/a.go, and a raw spelling cannot make a negation fire).
// guessed says values are guessed spellings (see matchGuessed).
func (r *compiledRule) matches(input any, field string, values, trusted []string, guessed bool) bool {
	for _, c := range r.conds {
		if field != "" && len(c.segs) == 1 && c.segs[0] == field {
			if guessed && !c.m.matchGuessed(values, trusted) || !guessed && !c.m.matchSpellings(values, trusted) {
				return false
			}
			continue
		}
		v, ok := lookup(input, c.segs)
		if !c.m.match(v, ok) {
			return false
		}
	}
	return true
}

// matchedSpelling returns the first of values the rule's condition on
// field matches positively, for the verdict's reason.
func (r *compiledRule) matchedSpelling(field string, values []string) string {
	for _, c := range r.conds {
		if len(c.segs) != 1 || c.segs[0] != field || c.m.op == opNot {
			continue
		}
		for _, s := range values {
			if c.m.match(s, true) {
				return s
			}
		}
	}
	return ""
}

// verdict returns the rule's verdict.
func (r *compiledRule) verdict() Verdict {
	if r.bare {
		return Verdict{Decision: r.effect, Layer: r.layer}
	}
	return Verdict{Decision: r.effect, RuleID: r.id, Reason: r.desc, Layer: r.layer}
}

// withDetail appends detail to a verdict's reason.
func withDetail(v Verdict, detail string) Verdict {
	if detail == "" || v.Layer == "default" && v.Decision == Allow {
		return v
	}
	if v.Reason == "" {
		v.Reason = detail
	} else {
		v.Reason += " (" + detail + ")"
	}
	return v
}

// checkBash decides a bash call from the analysis of its command line: the
// most restrictive of the decisions for every simple command, the file
// rules for every path the line reads, writes or deletes, and ask when
// rules look inside commands or paths that the analysis cannot see.
func (p *policy) checkBash(res *resolved, input any, line string) Verdict {
	a := res.analyze(line)
	var best Verdict
	have := false
	consider := func(v Verdict) {
		if !have || moreRestrictive(v.Decision, best.Decision) {
			best, have = v, true
		}
	}
	// Deny and ask rules also see the whole line, squeezed and as written,
	// as conditions on input.command match it: a redirection
	// target or an operator (cat < /etc/passwd, echo x > ~/.bashrc, a | b)
	// is in no simple command. Only positive conditions can match there
	// (see matchSpellings), so this only ever restricts.
	raw := spellings{other: []string{squeezeSpaces(line), line}}
	// What the analysis could not see comes first, so that on a tie its
	// reason, the most useful one, is shown.
	if a.Opaque {
		if v, _, ok := p.decide("bash", input, "command", raw, true, false); ok {
			consider(v)
		}
		if p.bashContent || p.pathRestrict {
			consider(Verdict{Decision: Ask, Reason: "the command cannot be fully analyzed: " + a.Reason()})
		}
	}
	if a.Unlisted != "" && p.pathRestrict {
		consider(Verdict{Decision: Ask, Reason: "the command may touch files that cannot be checked: " + a.Unlisted})
	}
	for _, u := range a.Commands {
		sp := spellings{trusted: []string{u.Text}, other: u.Alt, guessed: u.Guessed, read: u.Read}
		v, _, ok := p.decide("bash", input, "command", sp, u.Wrapper, false)
		if ok {
			consider(withDetail(v, "command "+clip(u.Name)))
		}
	}
	if !a.Opaque {
		if v, _, ok := p.decide("bash", input, "command", raw, true, false); ok {
			consider(withDetail(v, "the whole command line"))
		}
	}
	if p.pathRestrict {
		for _, acc := range a.Accesses {
			for _, target := range targets(acc.Path, a.Dirs) {
				sp, err := res.spell(target)
				if err != nil {
					consider(Verdict{Decision: Ask, Reason: "the command " + acc.Mode.String() + " a path that cannot be resolved"})
					continue
				}
				for _, tool := range modeTools(acc.Mode) {
					in := map[string]any{"path": target}
					if v, _, ok := p.decide(tool, in, "path", sp, true, true); ok {
						consider(withDetail(v, "bash "+acc.Mode.String()+" "+clip(filepath.ToSlash(target))))
					}
				}
			}
		}
	}
	if !have || len(a.Commands) == 0 {
		// No simple command at all (empty, comments, assignments, a bare
		// redirection): the rules and the default decide the line as a
		// whole, negated conditions included. consider keeps the most
		// restrictive, so a whole-line ask cannot hide a deny here.
		v, _, _ := p.decide("bash", input, "command", spellings{trusted: []string{squeezeSpaces(line)}}, false, false)
		consider(v)
	}
	return best
}

// targets returns the paths an access may name: an absolute path as it is,
// a relative one from every candidate working directory.
func targets(p string, cwds []string) []string {
	if filepath.IsAbs(p) {
		return []string{p}
	}
	out := make([]string, 0, len(cwds))
	for _, c := range cwds {
		if c == "" {
			out = append(out, p)
		} else {
			out = append(out, filepath.Join(c, p))
		}
	}
	return out
}

// modeTools returns the file tools whose rules apply to an access of mode m.
func modeTools(m shellscan.Mode) []string {
	switch m {
	case shellscan.Write:
		return []string{"write_file", "edit_file"}
	case shellscan.Delete:
		return []string{"delete_file"}
	}
	return []string{"read_file"}
}
