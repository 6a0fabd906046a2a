package permission

import (
	"context"
	"encoding/json"
	"fmt"
)

// A Decision is what a policy says about a tool call. The decisions are
// ordered by how restrictive they are: [Allow] < [Ask] < [Deny]. The zero
// value is no decision; in an Options struct it selects the documented
// default.
type Decision uint8

// The decisions, from least to most restrictive.
const (
	// Allow runs the call.
	Allow Decision = 1 + iota
	// Ask runs the call only if the approval handler allows it.
	Ask
	// Deny refuses the call.
	Deny
)

// Rank returns the decision's rank: 1 for allow, 2 for ask, 3 for deny
// and 0 for the zero Decision. A higher rank is more restrictive.
func (d Decision) Rank() int {
	if d > Deny {
		return 0
	}
	return int(d)
}

// Valid reports whether d is Allow, Ask or Deny.
func (d Decision) Valid() bool { return d >= Allow && d <= Deny }

// String returns "allow", "ask", "deny", or "" for the zero Decision.
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	case 0:
		return ""
	}
	return fmt.Sprintf("Decision(%d)", uint8(d))
}

// ParseDecision parses "allow", "ask" or "deny" (exactly, in lower case).
func ParseDecision(s string) (Decision, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "ask":
		return Ask, nil
	case "deny":
		return Deny, nil
	}
	return 0, fmt.Errorf("permission: invalid decision %q: want allow, ask or deny", clip(s))
}

// MarshalText implements [encoding.TextMarshaler]; the zero and invalid
// decisions fail.
func (d Decision) MarshalText() ([]byte, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("permission: cannot marshal %s", d)
	}
	return []byte(d.String()), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler] with [ParseDecision].
func (d *Decision) UnmarshalText(b []byte) error {
	v, err := ParseDecision(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// moreRestrictive reports whether a ranks strictly above b.
func moreRestrictive(a, b Decision) bool { return a.Rank() > b.Rank() }

// A Verdict is a decision with its provenance.
type Verdict struct {
	// Decision is what to do with the call: Allow, Ask or Deny.
	Decision Decision
	// RuleID names the rule that decided: the rule's ID, "rule-<index>"
	// for an unnamed rule of [Options.Rules], "<layer>:<id or index>" for a
	// rule of a [FilePolicy]. It is empty for the rules made from
	// [Options.Allow], [Options.Ask] and [Options.Deny] and for the
	// default decision.
	RuleID string
	// Reason says why, for people and for the model: the rule's
	// description, with what matched when the policy looked inside a
	// command or resolved a path. It never holds a whole command line.
	Reason string
	// Layer is where the deciding rule came from: "managed", "user",
	// "inline", "project" or "base" for the layers of a [FilePolicy],
	// "default" when no rule matched, "self-protection" for a
	// FilePolicy's guard of its own files, and "" otherwise.
	Layer string
}

// A Call is the tool call a policy decides about.
type Call struct {
	// ID is the model's id of the call; it may be empty (a hook command or
	// an MCP connection has none).
	ID string
	// Name is the tool name, such as "bash", "write_file" or
	// "mcp__github__create_issue"; "hook" and "mcp_connect" name the
	// permissions of hook commands and MCP connections.
	Name string
	// Input is the call's JSON input; empty means {}.
	Input json.RawMessage
	// SessionID is the session the call runs in; it may be empty.
	SessionID string

	// ws, when set by [Workspace], resolves paths on the file system and
	// caches the analysis of a bash command line for every policy that
	// sees this call.
	ws *resolved
	// seen, when set by the [Gate] for a file tool's call, receives the
	// real path [Workspace] resolved the call's path to.
	seen *seenPath
}

// A Policy decides about tool calls. Implementations must be safe for
// concurrent use. An error means the policy could not decide (a broken
// rule file, a path that cannot be resolved); the [Gate] treats it as a
// deny, so policies fail closed.
type Policy interface {
	// Check decides about call; an error means it could not.
	Check(ctx context.Context, call Call) (Verdict, error)
}

// PolicyFunc adapts a function to the [Policy] interface.
type PolicyFunc func(ctx context.Context, call Call) (Verdict, error)

// Check calls f(ctx, call).
func (f PolicyFunc) Check(ctx context.Context, call Call) (Verdict, error) { return f(ctx, call) }

// clip shortens s for an error message, so that a long or hostile value is
// never echoed whole.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
