package spill_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Environment of a child process started by TestProcessesShareOneSpillDir.
const (
	childDirEnv = "SPILL_TEST_CHILD_DIR"
	childIDEnv  = "SPILL_TEST_CHILD_ID"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(childDirEnv); dir != "" {
		os.Exit(runChild(dir, os.Getenv(childIDEnv)))
	}
	os.Exit(m.Run())
}

// childBody is body i; bodies are shared by all children so that they race
// on the same files, and some are large enough to need several writes.
func childBody(i int) string {
	return strconv.Itoa(i) + ":" + strings.Repeat("shared spill body ", i*37)
}

const childBodies = 60

// runChild puts every body, reading back each one and a neighbour that
// another child may be writing at the same moment.
func runChild(dir, id string) int {
	ctx := context.Background()
	s, err := spill.NewFileStore(dir, storage.Encoding{Codec: &xorCodec{id: "xor-v1"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	n, _ := strconv.Atoi(id)
	for k := range childBodies {
		i := (k + n*7) % childBodies
		ref, err := s.Put(ctx, childBody(i))
		if err != nil {
			fmt.Fprintln(os.Stderr, "put:", err)
			return 1
		}
		for _, j := range []int{i, (i + 1) % childBodies} {
			got, ok, err := s.Get(ctx, spill.Ref(childBody(j)))
			if err != nil || (j == i && !ok) || (ok && got != childBody(j)) {
				fmt.Fprintf(os.Stderr, "get %d (ref %s): ok=%v err=%v\n", j, ref, ok, err)
				return 1
			}
		}
	}
	return 0
}

func TestProcessesShareOneSpillDir(t *testing.T) {
	dir := t.TempDir()
	const children = 4
	cmds := make([]*exec.Cmd, children)
	outs := make([]*strings.Builder, children)
	for n := range children {
		cmd := childtest.Command(t.Context(), childDirEnv+"="+dir, childIDEnv+"="+strconv.Itoa(n))
		outs[n] = new(strings.Builder)
		cmd.Stdout, cmd.Stderr = outs[n], outs[n]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[n] = cmd
	}
	for n, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", n, err, outs[n])
		}
	}
	s := newStore(t, dir, storage.Encoding{Codec: &xorCodec{id: "xor-v1"}})
	for i := range childBodies {
		got, ok, err := s.Get(t.Context(), spill.Ref(childBody(i)))
		if err != nil || !ok || got != childBody(i) {
			t.Fatalf("body %d: ok=%v err=%v", i, ok, err)
		}
	}
	if names := listDir(t, dir); len(names) != childBodies {
		t.Fatalf("spill dir holds %d entries, want %d (no temp files left)", len(names), childBodies)
	}
}
