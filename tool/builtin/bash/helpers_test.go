package bash_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/tool"
)

// call runs tl with input (marshalled to JSON unless it is a string) and
// fails the test on a runtime error.
func call(t testing.TB, tl tool.Tool, input any) tool.Result {
	t.Helper()
	return callCtx(t, context.Background(), tl, input)
}

func callCtx(t testing.TB, ctx context.Context, tl tool.Tool, input any) tool.Result {
	t.Helper()
	raw, ok := input.(string)
	if !ok {
		b, err := json.Marshal(input)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(b)
	}
	res, err := tl.Call(ctx, nil, json.RawMessage(raw))
	if err != nil {
		t.Fatalf("%s(%s): runtime error %v", tl.Name(), raw, err)
	}
	return res
}

// byName returns the tool of tools named name.
func byName(t testing.TB, tools []tool.Tool, name string) tool.Tool {
	t.Helper()
	for _, tl := range tools {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no tool %q", name)
	return nil
}

// processGone waits until process pid no longer runs (it is gone or a
// zombie), failing the test after 10 s. A process that is not our child
// sends no signal when it dies, so this polls /proc.
func processGone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		if err == nil {
			// The state follows the parenthesised command name.
			s := string(stat)
			if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X') {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processAlive reports whether pid runs (and is not a zombie).
func processAlive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}
