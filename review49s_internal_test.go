package liteagent

import (
	"context"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/session"
)

// panickyLeaser is a Checkpointer whose LeaseSession panics while panics
// is set, and gives a lease otherwise.
type panickyLeaser struct {
	session.Checkpointer
	panics bool
}

func (p *panickyLeaser) LeaseSession(context.Context, string) (func(), error) {
	if p.panics {
		panic("leaser broke")
	}
	return func() {}, nil
}

// A Store whose LeaseSession panics (recovered by the caller, as net/http
// recovers a handler's) leaves the session leasable: the taking turn's
// entry stayed in a.leases with its ready channel never closed, and every
// later turn of the session waited on it until its ctx ended.
func TestAPanickingLeaseSessionLeavesTheSessionLeasable(t *testing.T) {
	cp := &panickyLeaser{panics: true}
	a := &Agent{cp: cp}
	func() {
		defer func() { _ = recover() }()
		_, _ = a.leaseSession(t.Context(), "s1")
	}()
	cp.panics = false
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	release, err := a.leaseSession(ctx, "s1")
	if err != nil {
		t.Fatalf("the lease after a panicking LeaseSession: %v", err)
	}
	release()
}

// releaseLeaser is a Checkpointer whose lease's release panics the
// first time.
type releaseLeaser struct {
	session.Checkpointer
	released int
}

func (r *releaseLeaser) LeaseSession(context.Context, string) (func(), error) {
	return func() {
		if r.released++; r.released == 1 {
			panic("release broke")
		}
	}, nil
}

// A lease whose release panics (recovered by the caller) leaves the
// session leasable: the next turn waited for h.released, never closed.
func TestAPanickingLeaseReleaseLeavesTheSessionLeasable(t *testing.T) {
	a := &Agent{cp: &releaseLeaser{}}
	release, err := a.leaseSession(t.Context(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { _ = recover() }()
		release()
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	release, err = a.leaseSession(ctx, "s1")
	if err != nil {
		t.Fatalf("the lease after a panicking release: %v", err)
	}
	release()
}
