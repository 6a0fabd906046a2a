package liteagent

import (
	"context"
	"testing"
)

func TestWorkMarks(t *testing.T) {
	a, b := &Agent{sched: newSchedule()}, &Agent{sched: newSchedule()}
	aCall := &work{a: a}
	endCall := a.sched.startCall(aCall, "s-a")
	bHook := &work{a: b, hook: true}
	ctx := withWork(withWork(context.Background(), aCall), bHook) // b's hook within a's tool call
	tests := []struct {
		name      string
		ctx       context.Context
		agent     *Agent
		wantHook  bool
		wantCall  string // the session of the call mark found; "" for none
		afterDone bool
	}{
		{name: "unmarked", ctx: context.Background(), agent: a},
		{name: "inner hook of b", ctx: ctx, agent: b, wantHook: true},
		{name: "outer call of a", ctx: ctx, agent: a, wantCall: "s-a"},
		{name: "a's call ended", ctx: ctx, agent: a, afterDone: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.afterDone {
				aCall.done.Store(true)
				endCall()
			}
			if got := inHook(tt.ctx, tt.agent); got != tt.wantHook {
				t.Errorf("inHook = %v, want %v", got, tt.wantHook)
			}
			got, ok := tt.agent.callSession(tt.ctx)
			if got != tt.wantCall || ok != (tt.wantCall != "") {
				t.Errorf("callSession = %q, %v; want %q", got, ok, tt.wantCall)
			}
		})
	}
}
