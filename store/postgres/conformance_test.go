package postgres_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/archive/archivetest"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/session/sessiontest"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/spill/spilltest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
	"github.com/lite-agent/lite-agent-go/task/tasktest"
)

// projects returns a function that hands out a new, empty project of one
// store on a fresh schema at each call.
func projects(t *testing.T, enc storage.Encoding) func(t *testing.T) *postgres.Project {
	st := openStore(t, postgres.Options{})
	var n atomic.Int64
	return func(t *testing.T) *postgres.Project {
		e := enc
		e.ProjectID = fmt.Sprintf("p%d", n.Add(1))
		p, err := st.Project(e)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
}

func TestCheckpointerConformance(t *testing.T) {
	next := projects(t, storage.Encoding{})
	sessiontest.Run(t, func(t *testing.T) session.Checkpointer { return next(t).Checkpointer() })
}

func TestCheckpointerEncodedRoundTrip(t *testing.T) {
	// sessiontest has no encoded suite: the whole suite runs again with an
	// AEAD codec, which every record then passes through.
	next := projects(t, aeadEncoding(t, "k1"))
	sessiontest.Run(t, func(t *testing.T) session.Checkpointer { return next(t).Checkpointer() })
}

func TestTaskListConformance(t *testing.T) {
	next := projects(t, storage.Encoding{})
	tasktest.Run(t, func(t *testing.T) task.Store {
		l, err := next(t).TaskList("conformance")
		if err != nil {
			t.Fatal(err)
		}
		return l
	})
}

func TestTaskListEncodedConformance(t *testing.T) {
	st := openStore(t, postgres.Options{})
	var n atomic.Int64
	tasktest.RunEncoded(t, func(t *testing.T) tasktest.Opener {
		list := fmt.Sprintf("list%d", n.Add(1))
		return func(enc storage.Encoding) (task.Store, error) {
			p, err := st.Project(enc)
			if err != nil {
				return nil, err
			}
			return p.TaskList(list)
		}
	})
}

func TestArchiveConformance(t *testing.T) {
	next := projects(t, storage.Encoding{})
	archivetest.Run(t, func(t *testing.T) archive.Archive {
		a, err := next(t).Archive("s1", 0)
		if err != nil {
			t.Fatal(err)
		}
		return a
	})
}

func TestArchiveEncodedConformance(t *testing.T) {
	st := openStore(t, postgres.Options{})
	var n atomic.Int64
	archivetest.RunEncoded(t, func(t *testing.T) archivetest.Opener {
		sess := fmt.Sprintf("s%d", n.Add(1))
		return func(enc storage.Encoding) (archive.Archive, error) {
			p, err := st.Project(enc)
			if err != nil {
				return nil, err
			}
			return p.Archive(sess, 0)
		}
	})
}

func TestSpillConformance(t *testing.T) {
	next := projects(t, storage.Encoding{})
	spilltest.Run(t, func(t *testing.T) spill.Store { return next(t).Spill() })
}

func TestSpillEncodedConformance(t *testing.T) {
	st := openStore(t, postgres.Options{})
	var n atomic.Int64
	spilltest.RunEncoded(t, func(t *testing.T) spilltest.Opener {
		// Spill rows are per project: each subtest gets its own namespace.
		ns := fmt.Sprintf("spill%d", n.Add(1))
		return func(enc storage.Encoding) (spill.Store, error) {
			enc.Namespace = ns
			p, err := st.Project(enc)
			if err != nil {
				return nil, err
			}
			return p.Spill(), nil
		}
	})
}
