package session_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/session"
)

// Crash and multi-process tests run this test binary again as the child:
// TestMain looks for childEnv and runs the child's role instead of the tests.

const childEnv = "SESSION_TEST_CHILD"

var crashTrials = flag.Int("crash.trials", 200, "kill -9 trials of TestAcknowledgedRecordsSurviveKill")

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "appender":
		os.Exit(runAppender())
	case "contender":
		os.Exit(runContender())
	default:
		fmt.Fprintln(os.Stderr, "unknown child role", os.Getenv(childEnv))
		os.Exit(2)
	}
}

func child(ctx context.Context, role string, env ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{childEnv + "=" + role}, env...)...)
	return cmd
}

// runAppender waits for a line on stdin, then appends durable batches to
// CHILD_DIR/CHILD_ID forever, printing each acknowledged head on stdout.
// Record n holds "seq-n".
func runAppender() int {
	cp, err := session.NewFileCheckpointer(os.Getenv("CHILD_DIR"), session.FileOptions{
		Durable:    true,
		RepairTail: os.Getenv("CHILD_REPAIR") == "1",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 0 // the parent no longer needs us
	}
	ctx, id := context.Background(), os.Getenv("CHILD_ID")
	head, err := cp.Head(ctx, id)
	if err != nil {
		fmt.Fprintln(os.Stderr, "head:", err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	for {
		n := 1 + rand.IntN(4)
		events := make([]session.Event, n)
		for i := range events {
			events[i] = userText(fmt.Sprintf("seq-%d", head+int64(i)+1))
		}
		if head, err = cp.Append(ctx, id, events, head); err != nil {
			fmt.Fprintln(os.Stderr, "append:", err)
			return 1
		}
		fmt.Fprintf(out, "%d\n", head)
		out.Flush() // the ack leaves the process only after Append returned
	}
}

// appender is a started child waiting for its go signal.
type appender struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	acks   chan int64
	stderr *bytes.Buffer
}

func startAppender(t *testing.T, dir, id string, repair bool) *appender {
	r := "0"
	if repair {
		r = "1"
	}
	a := &appender{cmd: child(t.Context(), "appender", "CHILD_DIR="+dir, "CHILD_ID="+id, "CHILD_REPAIR="+r),
		acks: make(chan int64, 64), stderr: new(bytes.Buffer)}
	a.cmd.Stderr = a.stderr
	stdout, err := a.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if a.stdin, err = a.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(a.acks)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, err := strconv.ParseInt(sc.Text(), 10, 64); err == nil {
				a.acks <- n
			}
		}
	}()
	return a
}

// TestAcknowledgedRecordsSurviveKill kills children that append durable
// batches at random moments (SIGKILL), then checks that every batch a
// child acknowledged is in the log and that the log reads. In the trials
// with RepairTail, a torn unacknowledged record is added after the kill
// half of the time, and the repair must drop exactly that (and a record the
// kill itself tore, which happens rarely: see crashLane). Trials run in eight lanes, one log each,
// with the next child started while the current one runs, because
// starting a process is the slow part.
func TestAcknowledgedRecordsSurviveKill(t *testing.T) {
	trials := *crashTrials
	const lanes = 8
	dir := t.TempDir()
	var mu sync.Mutex
	var acked, repairs, done int64
	var wg sync.WaitGroup
	for lane := range lanes {
		n := trials / lanes
		if lane < trials%lanes {
			n++
		}
		if n == 0 {
			continue
		}
		wg.Go(func() {
			a, r, d := crashLane(t, dir, fmt.Sprintf("crash-%d", lane), n, uint64(lane))
			mu.Lock()
			acked, repairs, done = acked+a, repairs+r, done+d
			mu.Unlock()
		})
	}
	wg.Wait()
	if done != int64(trials) {
		t.Fatalf("%d of %d trials done", done, trials)
	}
	if acked == 0 {
		t.Error("no trial saw an acknowledgement: the test checked nothing")
	}
	t.Logf("%d trials, %d records acknowledged, %d torn tails repaired", trials, acked, repairs)
}

// crashLane runs n kill trials against the log of id and returns the
// records acknowledged, the torn tails repaired and the trials done.
func crashLane(t *testing.T, dir, id string, n int, seed uint64) (acked, repairs, done int64) {
	path := filepath.Join(dir, id+".jsonl")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), seed))
	next := startAppender(t, dir, id, false)
	defer func() {
		if next != nil {
			next.stdin.Close()
			next.cmd.Wait()
		}
	}()
	for trial := range n {
		repair := trial%2 == 1
		a := next
		next = nil
		if trial+1 < n {
			next = startAppender(t, dir, id, !repair)
		}
		if _, err := io.WriteString(a.stdin, "go\n"); err != nil {
			t.Errorf("%s trial %d: %v", id, trial, err)
			return
		}
		// Kill after a random number of acks, or at a random moment.
		killAfter := rng.IntN(6)
		timer := time.NewTimer(time.Duration(rng.IntN(20_000)) * time.Microsecond)
		if rng.IntN(2) == 0 {
			timer.Stop()
		} else {
			killAfter = -1
		}
		var maxAck int64
		seen := 0
	wait:
		for {
			select {
			case n, ok := <-a.acks:
				if !ok {
					a.cmd.Wait()
					t.Errorf("%s trial %d: the child exited: %s", id, trial, a.stderr)
					return
				}
				maxAck = max(maxAck, n)
				if seen++; killAfter >= 0 && seen > killAfter {
					break wait
				}
			case <-timer.C:
				break wait
			}
		}
		a.cmd.Process.Kill()
		for n := range a.acks { // acks printed before the kill count too
			maxAck = max(maxAck, n)
		}
		a.cmd.Wait()
		timer.Stop()
		acked = max(acked, maxAck)
		// The child may have died holding its lock: remove it, as the
		// stale-lock takeover would after 10 s.
		os.RemoveAll(path + ".lock")

		before, _ := os.ReadFile(path)
		// A kill can tear a write after all, where it crosses a page
		// boundary: the kernel stops copying at the next page when a fatal
		// signal is pending. What a repair keeps is the log up to its last
		// line break. Without RepairTail such a log must refuse to read;
		// this trial then repairs it, so that the lane can go on.
		kept := before[:bytes.LastIndexByte(before, '\n')+1]
		tornByKill := len(kept) < len(before)
		if tornByKill && !repair {
			if _, err := newCP(t, dir, session.FileOptions{}).Read(t.Context(), id, 0); err == nil {
				t.Errorf("%s trial %d: a log torn by the kill reads without RepairTail", id, trial)
				return
			}
			repair = true
		}
		if repair && rng.IntN(2) == 0 && len(before) > 0 {
			torn := fmt.Sprintf(`{"seq":%d,"sessionId":"%s","parentSeq":`, bytes.Count(before, []byte("\n"))+1, id)
			appendBytes([]byte(torn[:1+rng.IntN(len(torn)-1)]))(t, path)
			repairs++
		} else if tornByKill {
			repairs++
		}
		evs, err := newCP(t, dir, session.FileOptions{RepairTail: repair}).Read(t.Context(), id, 0)
		if err != nil {
			t.Errorf("%s trial %d: the log does not read after a kill: %v", id, trial, err)
			return
		}
		if int64(len(evs)) < acked {
			t.Errorf("%s trial %d: %d records, but the children acknowledged %d", id, trial, len(evs), acked)
			return
		}
		for i, s := range textsOf(evs) {
			if want := fmt.Sprintf("seq-%d", i+1); s != want {
				t.Errorf("%s trial %d: record %d holds %q, want %q", id, trial, i+1, s, want)
				return
			}
		}
		want := before
		if repair {
			want = kept
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, want) {
			t.Errorf("%s trial %d: reading changed the log beyond dropping the torn tail", id, trial)
			return
		}
		done++
	}
	if broken, _ := filepath.Glob(path + ".broken-*"); int64(len(broken)) != repairs {
		t.Errorf("%s: %d copies aside for %d torn tails", id, len(broken), repairs)
	}
	return acked, repairs, done
}

// runContender appends CHILD_OPS records to CHILD_DIR/CHILD_ID with
// expected-head retry loops, printing its conflict count.
func runContender() int {
	cp, err := session.NewFileCheckpointer(os.Getenv("CHILD_DIR"), session.FileOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, id, worker := context.Background(), os.Getenv("CHILD_ID"), os.Getenv("CHILD_WORKER")
	ops, _ := strconv.Atoi(os.Getenv("CHILD_OPS"))
	conflicts := 0
	for op := 0; op < ops; {
		head, err := cp.Head(ctx, id)
		if err != nil {
			fmt.Fprintln(os.Stderr, "head:", err)
			return 1
		}
		_, err = cp.Append(ctx, id, []session.Event{userText(fmt.Sprintf("%s:%d", worker, op))}, head)
		var ce *session.ConflictError
		switch {
		case err == nil:
			op++
		case errors.As(err, &ce):
			conflicts++
		default:
			fmt.Fprintln(os.Stderr, "append:", err)
			return 1
		}
	}
	fmt.Println(conflicts)
	return 0
}

// TestProcessesAppendingWithExpectedHeadLoseNothing runs 8 processes that
// append to one session through Head + Append(expectedHead) retry loops.
func TestProcessesAppendingWithExpectedHeadLoseNothing(t *testing.T) {
	const workers, ops = 8, 12
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, workers)
	errs := make([]error, workers)
	for w := range workers {
		cmd := child(ctx, "contender", "CHILD_DIR="+dir, "CHILD_ID=shared", fmt.Sprintf("CHILD_WORKER=w%d", w), fmt.Sprintf("CHILD_OPS=%d", ops))
		cmd.Stdout = &outs[w]
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		wg.Go(func() {
			if err := cmd.Run(); err != nil {
				errs[w] = fmt.Errorf("%v: %s", err, stderr.String())
			}
		})
	}
	wg.Wait()
	conflicts := 0
	for w, err := range errs {
		if err != nil {
			t.Fatalf("worker %d: %v", w, err)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(outs[w].String()))
		conflicts += n
	}
	evs, err := newCP(t, dir, session.FileOptions{}).Read(t.Context(), "shared", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != workers*ops {
		t.Fatalf("%d records, want %d", len(evs), workers*ops)
	}
	next := map[string]int{}
	for i, se := range evs {
		if se.Seq != int64(i+1) {
			t.Fatalf("record %d has seq %d", i+1, se.Seq)
		}
		w, op, _ := strings.Cut(textsOf([]session.StoredEvent{se})[0], ":")
		if strconv.Itoa(next[w]) != op {
			t.Fatalf("record %d is %s:%s, want %s:%d (lost or duplicated update)", i+1, w, op, w, next[w])
		}
		next[w]++
	}
	t.Logf("%d appends by %d processes, %d conflicts retried", workers*ops, workers, conflicts)
}
