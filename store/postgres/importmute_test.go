package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An import whose ctx ends on a database that stopped answering returns
// within the lease's TTL (2 s here): the removal of its partial copy ran
// without any bound (its ctx's cancellation dropped), and the import
// never returned. The marker it leaves tells the next import or verify.
func TestAnImportCancelledOnAMuteDatabaseReturns(t *testing.T) {
	paths, enc, files := filesProject(t)
	if _, err := files.Append(t.Context(), "s1", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	proxy, st := openProxied(t, postgres.Options{LeaseTTL: 2 * time.Second})
	p, err := st.Project(enc)
	if err != nil {
		t.Fatal(err)
	}
	postgres.SetImportChecked(p, func() {
		// The marker is set: the database stops answering.
		proxy.Hole(true)
		proxy.Mute(true)
	})
	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := p.ImportFiles(ctx, paths)
		done <- err
	}()
	select {
	case err := <-done:
		t.Logf("ImportFiles returned after %v: %v", time.Since(start), err)
		if err == nil {
			t.Error("ImportFiles on a mute database succeeded")
		}
		if d := time.Since(start); d > 6*time.Second {
			t.Errorf("ImportFiles returned after %v", d)
		}
	case <-time.After(20 * time.Second):
		t.Error("ImportFiles still running 20 s after it started (its ctx ended after 500 ms)")
		proxy.Mute(false)
		proxy.Hole(false)
		proxy.Cut()
		<-done
	}
}
