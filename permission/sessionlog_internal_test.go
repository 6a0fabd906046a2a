package permission

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
)

// The gate tells the calling session's own log by its name, which it
// spells without importing the session store.
func TestSessionLogSuffixIsTheSessionStores(t *testing.T) {
	if sessionLogSuffix != session.LogSuffix {
		t.Fatalf("the gate takes %q for a session log's suffix, the session store writes %q", sessionLogSuffix, session.LogSuffix)
	}
}
