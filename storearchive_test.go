package liteagent_test

import (
	"context"
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// unleased is elsewhere with a checkpointer that leases nothing: a Store
// whose sessions another process may delete at any time.
type unleased struct{ *elsewhere }

func (s unleased) Checkpointer(_ context.Context, enc storage.Encoding) (session.Checkpointer, error) {
	s.saw(enc)
	return s.cp.Checkpointer, nil
}

// Through a Store, an archive write (a turn's compaction, an MCP result)
// was made with no check of the session: one deleted and started again
// by another process (here, straight through the store) since the agent's
// turn got the archive's note into the new session's archive. Now it is
// checked as a task write is, under the session's lease where the Store
// leases: the write fails with a *session.ReplacedError and the other
// session's archive gets nothing.
func TestAnArchiveWriteThroughAStoreIsCheckedAgainstTheSession(t *testing.T) {
	f := newFixture(t)
	opts := f.options(nil)
	st := unleased{newElsewhere(t)}
	opts.Store = st
	a := f.agent(t, opts)
	f.p.Reply(modeltest.Text("one"))
	if _, err := a.Send(t.Context(), "first"); err != nil {
		t.Fatal(err)
	}
	id := a.SessionID()
	ar, err := liteagent.SessionArchive(t.Context(), a, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteSession(t.Context(), storage.Encoding{}, id); err != nil {
		t.Fatal(err)
	}
	if _, err := st.cp.Checkpointer.Append(t.Context(), id, []session.Event{session.UserEvent{Message: model.UserText("the other run's prompt")}}, 0); err != nil {
		t.Fatal(err)
	}
	_, perr := ar.Put(t.Context(), "mine: a note of the agent's turn", nil)
	wantReplaced(t, "the archive write", perr, id)
	other, err := st.Archive(t.Context(), storage.Encoding{}, id)
	if err != nil {
		t.Fatal(err)
	}
	out, err := other.Search(t.Context(), archive.Query{Text: "mine", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "agent's turn") {
		t.Errorf("the agent's note went into the archive of the session another process started:\n%s", out)
	}
}
