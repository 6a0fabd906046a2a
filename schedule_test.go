package liteagent

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestScheduleStartTurn(t *testing.T) {
	tests := []struct {
		name       string
		setup      func(s *schedule)
		background bool
		want       error
	}{
		{name: "prompt", setup: func(*schedule) {}},
		{name: "autonomous", setup: func(*schedule) {}, background: true},
		{name: "closed prompt", setup: func(s *schedule) { s.close() }, want: ErrClosed},
		{name: "closed autonomous", setup: func(s *schedule) { s.close() }, background: true, want: ErrClosed},
		{name: "deleted autonomous", setup: func(s *schedule) { s.cancelSession("s1") }, background: true, want: errSessionDeleted},
		{name: "deleted prompt revives", setup: func(s *schedule) { s.cancelSession("s1") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSchedule()
			tt.setup(s)
			ctx, done, err := s.startTurn(t.Context(), context.Background(), "s1", tt.background)
			if !errors.Is(err, tt.want) {
				t.Fatalf("startTurn: err = %v, want %v", err, tt.want)
			}
			if err != nil {
				return
			}
			if !s.busy("s1") || s.isDeleted("s1") {
				t.Errorf("after startTurn: busy %v, deleted %v; want busy, not deleted", s.busy("s1"), s.isDeleted("s1"))
			}
			done()
			if ctx.Err() == nil {
				t.Error("the turn's context outlives its registration")
			}
			if s.busy("s1") {
				t.Error("busy after the turn ended")
			}
		})
	}
}

func TestScheduleCancelSessionEndsTurns(t *testing.T) {
	s := newSchedule()
	ctx1, done1, err := s.startTurn(t.Context(), context.Background(), "s1", false)
	if err != nil {
		t.Fatal(err)
	}
	defer done1()
	ctx2, done2, err := s.startTurn(t.Context(), context.Background(), "s2", false)
	if err != nil {
		t.Fatal(err)
	}
	defer done2()
	s.cancelSession("s1")
	if ctx1.Err() == nil {
		t.Error("the deleted session's turn goes on")
	}
	if ctx2.Err() != nil {
		t.Error("another session's turn was cancelled")
	}
}

func TestScheduleLifeEndsTurns(t *testing.T) {
	s := newSchedule()
	life, stop := context.WithCancel(context.Background())
	ctx, done, err := s.startTurn(t.Context(), life, "s1", true)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	stop()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the turn outlives the agent's life")
	}
}

func TestScheduleAwaitPrompts(t *testing.T) {
	s := newSchedule()
	_, done, err := s.startTurn(t.Context(), context.Background(), "s1", false)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	over := s.promptOver("s1")
	short, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.awaitPrompts(short, "s1"); !errors.Is(err, context.Canceled) {
		t.Fatalf("awaitPrompts with a prompt running: err = %v, want context.Canceled", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- s.awaitPrompts(t.Context(), "s1") }()
	over()
	over() // a second call does nothing
	if err := <-waited; err != nil {
		t.Fatalf("awaitPrompts after the prompt: %v", err)
	}
	if err := s.awaitPrompts(t.Context(), "other"); err != nil {
		t.Fatalf("awaitPrompts with no prompt: %v", err)
	}
}

func TestScheduleDrops(t *testing.T) {
	s := newSchedule()
	s.dropCommands([]string{"b1", "b2"})
	for _, tc := range []struct {
		id   string
		want bool
	}{{"b1", true}, {"b1", false}, {"b2", true}, {"b3", false}} {
		if got := s.commandDropped(tc.id); got != tc.want {
			t.Errorf("commandDropped(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
	s.dropGroups("s1", 2)
	s.dropGroups("s2", 0)
	for i, tc := range []struct {
		id   string
		want bool
	}{{"s1", true}, {"s2", false}, {"s1", true}, {"s1", false}} {
		if got := s.groupDropped(tc.id); got != tc.want {
			t.Errorf("call %d: groupDropped(%q) = %v, want %v", i, tc.id, got, tc.want)
		}
	}
}

func TestScheduleFamily(t *testing.T) {
	s := newSchedule()
	s.addChild("c1", "p", "list-p")
	s.addChild("c2", "p", "list-p")
	s.addChild("c3", "q", "list-q")
	got := s.family("p")
	if len(got) != 3 || got[0] != "p" {
		t.Fatalf("family(p) = %v, want p first and its two children", got)
	}
	if p, ok := s.parent("c3"); !ok || p != "q" {
		t.Errorf("parent(c3) = %q, %v; want q, true", p, ok)
	}
	if _, ok := s.parent("p"); ok {
		t.Error("a root session has a parent")
	}
	if l, ok := s.taskList("c1"); !ok || l != "list-p" {
		t.Errorf("taskList(c1) = %q, %v; want list-p, true", l, ok)
	}
	if !s.busy("c1") {
		t.Error("a child session is not busy")
	}
}

func TestScheduleAutonomous(t *testing.T) {
	s := newSchedule()
	s.setAutonomous("s1", &Result{Text: "dropped"})
	if r := s.autonomousResult("s1"); r != nil {
		t.Fatalf("kept a result before keepAutonomous: %+v", r)
	}
	s.keepAutonomous()
	s.setAutonomous("s1", &Result{Text: "kept"})
	if r := s.autonomousResult("s1"); r == nil || r.Text != "kept" {
		t.Fatalf("autonomousResult = %+v, want the kept result", r)
	}
	s.cancelSession("s1")
	if r := s.autonomousResult("s1"); r != nil {
		t.Fatalf("a deleted session's result survives: %+v", r)
	}
}
