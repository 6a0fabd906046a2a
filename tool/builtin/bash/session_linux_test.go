//go:build linux

package bash_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

// A program that moves to a process group of its own (timeout(1) does)
// still dies with the line that started it: the gate decided the line on
// the files as they were while it ran, and a job that lives on acts on
// what later calls make of them (permission's round 91).
func TestBashKillsWhatLeftTheProcessGroup(t *testing.T) {
	for name, c := range map[string]struct {
		command string
		timeout time.Duration
	}{
		"line-ends":    {`timeout 30 sleep 30 & echo $! > pid; sleep 0.3; echo leaving`, 0},
		"line-timeout": {`timeout 30 sleep 30 & echo $! > pid; wait`, 500 * time.Millisecond},
		"nested":       {`sh -c 'timeout 30 sh -c "sleep 30" & echo $! > pid; sleep 0.3'`, 0},
	} {
		for _, mode := range containments {
			t.Run(name+"/"+mode.name, func(t *testing.T) {
				b, dir := newBash(t, bash.Options{Timeout: c.timeout, Containment: mode.c})
				pidPipe := fifo(t, dir, "pid")
				in, _ := json.Marshal(map[string]string{"command": c.command})
				done := goCall(context.Background(), b, string(in))
				pid := readPID(t, pidPipe)
				r := <-done
				if r.err != nil {
					t.Fatal(r.err)
				}
				if r.at > 5*time.Second {
					t.Errorf("the call took %v", r.at)
				}
				processGone(t, pid)
			})
		}
	}
}

// containments are the containments the kill tests run with: the /proc
// session sweep, which every Linux has, and the default (a cgroup where
// one can be made, the sweep elsewhere).
var containments = []struct {
	name string
	c    bash.Containment
}{{"session", bash.ContainSession}, {"auto", bash.ContainAuto}}
