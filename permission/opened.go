package permission

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
)

// seenPath is the real path [Workspace] resolved a file tool's path to
// when the gate decided about the call.
type seenPath struct {
	mu   sync.Mutex
	path string
}

// set records p unless a path was recorded already: composed policies
// resolve the same path once, through the call's cache.
func (s *seenPath) set(p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.path == "" {
		s.path = p
	}
}

func (s *seenPath) get() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.path
}

// A PathChangedError is what a file tool gets when the file it opened is
// not the one the gate decided about, and the gate's policy does not allow
// the call on the file it opened: the path named a symbolic link made or
// replaced after the check, or lay below one.
type PathChangedError struct {
	// Tool is the tool's name and Path the path the model gave.
	Tool, Path string
	// Checked is the real path the gate decided about and Opened the real
	// path of the file the tool opened.
	Checked, Opened string
	// Verdict is the gate's verdict on Opened.
	Verdict Verdict
}

// Error says which path changed, where it leads now and why that is
// refused; it is the text the model gets.
func (e *PathChangedError) Error() string {
	msg := fmt.Sprintf("blocked by policy: %s changed after the permission check; it now leads to %s, which was not checked", e.Path, e.Opened)
	switch e.Verdict.Decision {
	case Deny:
		msg += " and is denied"
	case Ask:
		msg += " and needs an approval: call " + e.Tool + " with that path"
	}
	if e.Verdict.RuleID != "" {
		msg += " (rule " + e.Verdict.RuleID + ")"
	}
	return msg
}

// openedCheck returns the check a gated file tool (and grep, on the
// directory or file it searches) runs on what it opened (see
// [tool.WithPathCheck]): the file at checked, the real path the gate
// decided about, passes, and so does a path the workspace
// resolver resolves to checked (another letter case of it on a volume
// that ignores case); another passes only if the gate's verdict on it,
// asked as the same call with that path, is allow.
func (g *Gate) openedCheck(call Call, checked string) func(ctx context.Context, opened string) error {
	return func(ctx context.Context, opened string) error {
		opened = filepath.Clean(opened)
		if opened == checked {
			return nil
		}
		var given string
		if v, ok := lookup(parseInput(call.Input), []string{"path"}); ok {
			given, _ = v.(string)
		}
		// The same input with the path replaced: rules may look at
		// other fields too.
		fields := map[string]json.RawMessage{}
		if len(call.Input) > 0 {
			if err := json.Unmarshal(call.Input, &fields); err != nil {
				return fmt.Errorf("permission: %w", err)
			}
		}
		p, err := json.Marshal(opened)
		if err != nil {
			return fmt.Errorf("permission: %w", err)
		}
		fields["path"] = p
		input, err := json.Marshal(fields)
		if err != nil {
			return fmt.Errorf("permission: %w", err)
		}
		var seen seenPath
		again := Call{ID: call.ID, Name: call.Name, Input: input, SessionID: call.SessionID, seen: &seen}
		v, err := g.Decide(ctx, again)
		if err != nil {
			return err
		}
		// On a volume that ignores case the resolver spells the real
		// path in the case of the names on disk, the tool in the case it
		// was given: the file opened resolves to the one decided about.
		if v.Decision == Allow || seen.get() == checked {
			return nil
		}
		return &PathChangedError{Tool: call.Name, Path: given, Checked: checked, Opened: opened, Verdict: v}
	}
}
