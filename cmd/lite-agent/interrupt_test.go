package main

import (
	"context"
	"os"
	"syscall"
	"testing"
)

func TestInterrupterDeliversInterrupts(t *testing.T) {
	tests := []struct {
		name      string
		handler   bool // a handler is installed (chat)
		signals   []os.Signal
		cancelled bool
		exits     int // calls of exit(130)
		handled   int
	}{
		{"one interrupt cancels the command", false, []os.Signal{os.Interrupt}, true, 0, 0},
		{"a second one during shutdown exits at once", false, []os.Signal{os.Interrupt, os.Interrupt}, true, 1, 0},
		{"a handler takes interrupts", true, []os.Signal{os.Interrupt, os.Interrupt}, false, 0, 2},
		{"SIGTERM shuts down past a handler", true, []os.Signal{syscall.SIGTERM}, true, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var exits, handled int
			intr := newInterrupter(cancel, func(code int) {
				if code != exitInterrupted {
					t.Errorf("exit(%d), want %d", code, exitInterrupted)
				}
				exits++
			})
			if tt.handler {
				defer intr.Handle(func() { handled++ })()
			}
			for _, s := range tt.signals {
				intr.fire(s)
			}
			if got := ctx.Err() != nil; got != tt.cancelled {
				t.Errorf("cancelled %v, want %v", got, tt.cancelled)
			}
			if exits != tt.exits || handled != tt.handled {
				t.Errorf("%d exits and %d handled, want %d and %d", exits, handled, tt.exits, tt.handled)
			}
			if intr.Interrupted() != tt.cancelled {
				t.Errorf("Interrupted() = %v", intr.Interrupted())
			}
		})
	}
}
