package main

import (
	"context"
	"errors"
	"os"
	"sync"
	"syscall"
)

// exitInterrupted is the exit code of a command stopped by an interrupt.
const exitInterrupted = 130

// errInterrupted reports that an interrupt stopped the command.
var errInterrupted = errors.New("interrupted")

// An interrupter delivers the user's interrupts (Ctrl-C, SIGINT) to what
// the command is doing. By default the first interrupt cancels the command
// and a second one, while it shuts down, ends the process at once; chat
// installs handlers of its own (Handle) to abort one turn, or to leave
// at the prompt. SIGTERM always shuts the command down. It is safe for
// concurrent use.
type interrupter struct {
	cancel context.CancelFunc // cancels the command
	exit   func(code int)     // ends the process at once; nil cancels instead

	mu          sync.Mutex
	handler     func() // the current handler of SIGINT; nil: shut down
	interrupted bool   // the command was shut down by an interrupt
}

// newInterrupter returns an interrupter of the command whose context
// cancel cancels. exit ends the process (os.Exit); nil means never.
func newInterrupter(cancel context.CancelFunc, exit func(int)) *interrupter {
	return &interrupter{cancel: cancel, exit: exit}
}

// watch delivers each signal of sigs until stop is called.
func (i *interrupter) watch(sigs <-chan os.Signal) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case s := <-sigs:
				i.fire(s)
			case <-done:
				return
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// fire delivers one signal: SIGTERM shuts down; an interrupt goes to the
// current handler, or shuts down when there is none.
func (i *interrupter) fire(s os.Signal) {
	i.mu.Lock()
	h := i.handler
	i.mu.Unlock()
	if h == nil || s == syscall.SIGTERM {
		i.shutdown()
		return
	}
	h()
}

// shutdown cancels the command the first time, and ends the process at
// once the next.
func (i *interrupter) shutdown() {
	i.mu.Lock()
	again := i.interrupted
	i.interrupted = true
	i.mu.Unlock()
	if again {
		i.exitNow()
		return
	}
	i.cancel()
}

// exitNow ends the process at once with exitInterrupted; without an exit
// function it cancels the command.
func (i *interrupter) exitNow() {
	i.mu.Lock()
	i.interrupted = true
	i.mu.Unlock()
	if i.exit != nil {
		i.exit(exitInterrupted)
	}
	i.cancel()
}

// Handle makes h the handler of interrupts until restore is called, which
// brings back the default: shut down.
func (i *interrupter) Handle(h func()) (restore func()) {
	i.mu.Lock()
	i.handler = h
	i.mu.Unlock()
	return func() {
		i.mu.Lock()
		i.handler = nil
		i.mu.Unlock()
	}
}

// Interrupted reports whether an interrupt shut the command down.
func (i *interrupter) Interrupted() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.interrupted
}
