package liteagent

import (
	"context"
	"encoding/json"

	"github.com/lite-agent/lite-agent-go/permission"
)

// readableBy returns the filter of the search tools (glob, grep, list_dir):
// a path is shown or searched only when the gate's policy allows read_file
// on it outright, so that searching reveals nothing read_file would not.
// It asks the policy directly, without events, audit records or approval
// prompts: a file the policy would ask about is left out.
func readableBy(gate *permission.Gate) func(ctx context.Context, sessionID, path string) (bool, error) {
	policy := gate.Policy()
	return func(ctx context.Context, sessionID, path string) (bool, error) {
		input, err := json.Marshal(map[string]string{"path": path})
		if err != nil {
			return false, err
		}
		v, err := policy.Check(ctx, permission.Call{Name: "read_file", Input: input, SessionID: sessionID})
		return err == nil && v.Decision == permission.Allow, err
	}
}
