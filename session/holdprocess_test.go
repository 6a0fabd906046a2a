package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/session"
)

// runHolder holds session CHILD_ID CHILD_OPS times and, under each hold,
// reads the head and appends three records one by one, each expecting the
// head the previous left: a conflict means that another process wrote
// while the session was held (exit 3).
func runHolder() int {
	cp, err := session.NewFileCheckpointer(os.Getenv("CHILD_DIR"), session.FileOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, id, worker := context.Background(), os.Getenv("CHILD_ID"), os.Getenv("CHILD_WORKER")
	ops, _ := strconv.Atoi(os.Getenv("CHILD_OPS"))
	for op := range ops {
		release, err := cp.Hold(ctx, id)
		if err != nil {
			fmt.Fprintln(os.Stderr, "hold:", err)
			return 1
		}
		head, err := cp.Head(ctx, id)
		if err != nil {
			fmt.Fprintln(os.Stderr, "head:", err)
			return 1
		}
		for k := range 3 {
			head, err = cp.Append(ctx, id, []session.Event{userText(fmt.Sprintf("%s:%d:%d", worker, op, k))}, head)
			var ce *session.ConflictError
			if errors.As(err, &ce) {
				fmt.Fprintln(os.Stderr, "VIOLATION: another process appended during a hold:", err)
				return 3
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "append:", err)
				return 1
			}
		}
		if err := release(); err != nil {
			fmt.Fprintln(os.Stderr, "release:", err)
			return 1
		}
	}
	return 0
}

// Processes holding one session (session.Holder, the engine's way for a
// turn) and appending three records per hold, and processes appending
// with Head + Append retry loops, all through the parked lock directory:
// no conflict inside a hold, every hold's records contiguous, sequence
// numbers without a gap, nothing lost or duplicated.
func TestProcessesHoldingASessionExcludeEachOther(t *testing.T) {
	const holders, contenders, ops = 3, 3, 10
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, holders+contenders)
	for w := range holders + contenders {
		role := "holder"
		if w >= holders {
			role = "contender"
		}
		cmd := child(ctx, role, "CHILD_DIR="+dir, "CHILD_ID=shared", fmt.Sprintf("CHILD_WORKER=w%d", w), fmt.Sprintf("CHILD_OPS=%d", ops))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		wg.Go(func() {
			if err := cmd.Run(); err != nil {
				errs[w] = fmt.Errorf("%s: %v: %s", role, err, stderr.String())
			}
		})
	}
	wg.Wait()
	for w, err := range errs {
		if err != nil {
			t.Fatalf("worker %d: %v", w, err)
		}
	}
	evs, err := newCP(t, dir, session.FileOptions{}).Read(t.Context(), "shared", 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := holders*ops*3 + contenders*ops; len(evs) != want {
		t.Fatalf("%d records, want %d", len(evs), want)
	}
	texts := textsOf(evs)
	count := map[string]int{}
	for i, se := range evs {
		if se.Seq != int64(i+1) {
			t.Fatalf("record %d has seq %d", i+1, se.Seq)
		}
		parts := strings.Split(texts[i], ":")
		count[parts[0]]++
		if len(parts) == 3 && parts[2] == "0" {
			for k := 1; k < 3; k++ {
				if want := parts[0] + ":" + parts[1] + ":" + strconv.Itoa(k); i+k >= len(texts) || texts[i+k] != want {
					t.Fatalf("record %d: a hold's records are not contiguous (want %s)", i+1+k, want)
				}
			}
		}
	}
	for w := range holders + contenders {
		want := ops
		if w < holders {
			want = 3 * ops
		}
		if got := count[fmt.Sprintf("w%d", w)]; got != want {
			t.Errorf("w%d has %d records, want %d", w, got, want)
		}
	}
}
