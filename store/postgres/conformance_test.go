package postgres_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/session/sessiontest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
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
