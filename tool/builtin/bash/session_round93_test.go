//go:build linux

package bash_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/tool/builtin/bash"
)

// A chain of processes each of which starts the next and exits at once
// changes its pid faster than /proc can be read: a round of the session
// kill that lists the pid of one link finds it gone when it reads its
// stat, and the next link was not listed. The chain left the line's
// process group (timeout(1) made one of its own) and outlived the line,
// writing when told to after the call returned (review round 93).
func TestBashKillsAProcessChainThatHopsPids(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "timeout", "sh")
	for name, hop := range map[string]string{
		"one-group": "[ -e go ] && { echo late > pwned; exit; }\nsh hop.sh &\n",
	} {
		for _, mode := range containments {
			t.Run(name+"/"+mode.name, func(t *testing.T) { hopChain(t, hop, mode.c) })
		}
	}
}

func hopChain(t *testing.T, hop string, c bash.Containment) {
	b, dir := newBash(t, bash.Options{Containment: c})
	if err := os.WriteFile(filepath.Join(dir, "hop.sh"), []byte(hop), 0o644); err != nil {
		t.Fatal(err)
	}
	in, _ := json.Marshal(map[string]string{"command": `timeout 60 bash hop.sh & sleep 0.5; echo leaving`})
	r := <-goCall(context.Background(), b, string(in))
	if r.err != nil {
		t.Fatal(r.err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Fatal("a process of the line wrote after the call returned")
	}
}
