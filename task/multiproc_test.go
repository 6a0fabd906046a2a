package task

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Multi-process tests re-execute the test binary; TestMain runs the child
// role named by childEnv instead of the tests.

const (
	childEnv        = "TASK_TEST_CHILD"
	childDirEnv     = "TASK_TEST_DIR"
	childIndexEnv   = "TASK_TEST_INDEX"
	childCountEnv   = "TASK_TEST_COUNT"
	childTasksEnv   = "TASK_TEST_TASKS"
	childUntilEnv   = "TASK_TEST_UNTIL"
	childUpdatesEnv = "TASK_TEST_UPDATES"
)

var (
	contention         = flag.Bool("contention", false, "run the multi-process throughput measurement (anchor P5)")
	contentionDuration = flag.Duration("contention.duration", 10*time.Second, "how long each contention run lasts")
	soak               = flag.Bool("soak", false, "make TestEightProcessesLoseNoUpdates do 10^4 operations per process (several minutes)")
)

func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		if err := runChild(role); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func envInt(name string) int {
	n, _ := strconv.Atoi(os.Getenv(name))
	return n
}

// metaKey is the metadata key process p sets in its k-th update.
func metaKey(p, k int) string { return fmt.Sprintf("p%d-%d", p, k) }

// hubOf is the task process p updates in its k-th update, of hubs tasks.
func hubOf(p, k, hubs int) string { return strconv.Itoa((p*7+k)%hubs + 1) }

func runChild(role string) error {
	ctx := context.Background()
	dir := os.Getenv(childDirEnv)
	p := envInt(childIndexEnv)
	switch role {
	case "stress":
		// Create tasks that wait for hub task 1, and record a fresh
		// metadata key on a hub in each round. Print every created id.
		s, err := NewFileStore(dir, "shared", storage.Encoding{})
		if err != nil {
			return err
		}
		hubs, creates, updates := envInt(childTasksEnv), envInt(childCountEnv), envInt(childUpdatesEnv)
		for k := range max(creates, updates) {
			if k < creates {
				tk, err := s.Create(ctx, CreateInput{Subject: fmt.Sprintf("p%d #%d", p, k)})
				if err != nil {
					return err
				}
				fmt.Println(tk.ID)
				if _, err := s.Update(ctx, tk.ID, UpdateInput{AddBlockedBy: []string{"1"}}); err != nil {
					return err
				}
			}
			if k < updates {
				if _, err := s.Update(ctx, hubOf(p, k, hubs), UpdateInput{Metadata: map[string]any{metaKey(p, k): k}}); err != nil {
					return err
				}
			}
		}
		return nil
	case "bench":
		// Durable read-modify-write updates until the deadline; report the
		// count and latencies as one JSON line.
		s, err := NewFileStore(dir, "bench", storage.Encoding{})
		if err != nil {
			return err
		}
		hubs := envInt(childTasksEnv)
		until, _ := strconv.ParseInt(os.Getenv(childUntilEnv), 10, 64)
		var lat []float64
		k := 0
		for time.Now().UnixNano() < until {
			start := time.Now()
			if _, err := s.Update(ctx, hubOf(p, k, hubs), UpdateInput{Metadata: map[string]any{metaKey(p, k): k}}); err != nil {
				return err
			}
			lat = append(lat, float64(time.Since(start).Microseconds())/1000)
			k++
		}
		slices.Sort(lat)
		return json.NewEncoder(os.Stdout).Encode(benchReport{Ops: k, P50: quantile(lat, 0.5), P99: quantile(lat, 0.99)})
	case "hold":
		// Start an update whose encode never returns, holding the lock.
		s, err := NewFileStore(dir, "held", storage.Encoding{Codec: stallingCodec{}})
		if err != nil {
			return err
		}
		_, err = s.Update(ctx, "1", UpdateInput{Subject: ptr("never written")})
		return err
	}
	return fmt.Errorf("unknown role %q", role)
}

type benchReport struct {
	Ops      int
	P50, P99 float64 // milliseconds per operation, lock wait included
}

func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(math.Min(float64(len(sorted)-1), q*float64(len(sorted))))]
}

// stallingCodec is xorCodec whose Encode announces itself on stdout and then
// never returns.
type stallingCodec struct{ xorCodec }

func (stallingCodec) ID() string { return "xor-v1" }
func (stallingCodec) Encode(context.Context, []byte, storage.Context) ([]byte, error) {
	fmt.Println("holding")
	select {}
}

// childEnvs is the environment of child index in role on dir, with extra.
func childEnvs(role, dir string, index int, extra ...string) []string {
	return append([]string{childEnv + "=" + role, childDirEnv + "=" + dir, childIndexEnv + "=" + strconv.Itoa(index)}, extra...)
}

// child returns the test binary as child index in role on dir, with extra
// in its environment; its standard error goes to the test's log.
func child(t testing.TB, role, dir string, index int, extra ...string) *exec.Cmd {
	cmd := childtest.Command(t.Context(), childEnvs(role, dir, index, extra...)...)
	cmd.Stderr = &prefixWriter{t: t, prefix: fmt.Sprintf("child %d: ", index)}
	return cmd
}

type prefixWriter struct {
	t      testing.TB
	prefix string
}

func (w *prefixWriter) Write(b []byte) (int, error) {
	w.t.Log(w.prefix + strings.TrimSpace(string(b)))
	return len(b), nil
}

// TestEightProcessesLoseNoUpdates is anchor R6: eight processes create
// tasks and update shared ones concurrently; every created id is distinct,
// every update landed, and every file parses at every moment. Each process
// makes 3×12 durable operations; with -soak, 10^4 (100 creates, their 100
// edges and 9,800 metadata updates).
func TestEightProcessesLoseNoUpdates(t *testing.T) {
	const procs = 8
	each, updates, hubs := 12, 24, 4
	if *soak {
		each, updates, hubs = 100, 9800, 50
	}
	dir := t.TempDir()
	s := newFile(t, dir, "shared", plain)
	for range hubs {
		mustCreate(t, s, "hub")
	}

	// Read the raw files without the lock the whole time: atomic replace
	// means every one of them is always a whole record.
	stop := make(chan struct{})
	var reads atomic.Int64
	var readerErr error
	var readerWG sync.WaitGroup
	readerWG.Go(func() {
		listDir := filepath.Join(dir, "shared")
		for {
			select {
			case <-stop:
				return
			default:
			}
			names, err := filepath.Glob(filepath.Join(listDir, "*.json"))
			if err != nil {
				readerErr = err
				return
			}
			for _, p := range names {
				b, err := os.ReadFile(p)
				if errors.Is(err, os.ErrNotExist) {
					continue
				}
				if err != nil {
					readerErr = err
					return
				}
				if _, err := decodeRecord(strings.TrimSuffix(filepath.Base(p), ".json"), b); err != nil {
					readerErr = fmt.Errorf("%s does not parse mid-run: %w", p, err)
					return
				}
				reads.Add(1)
			}
		}
	})

	outs := make([][]string, procs)
	var wg sync.WaitGroup
	for p := range procs {
		cmd := child(t, "stress", dir, p, childCountEnv+"="+strconv.Itoa(each),
			childUpdatesEnv+"="+strconv.Itoa(updates), childTasksEnv+"="+strconv.Itoa(hubs))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				outs[p] = append(outs[p], sc.Text())
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("child %d: %v", p, err)
			}
		})
	}
	wg.Wait()
	close(stop)
	readerWG.Wait()
	if readerErr != nil {
		t.Fatal(readerErr)
	}
	if reads.Load() == 0 {
		t.Fatal("the reader read nothing")
	}
	if t.Failed() {
		t.FailNow()
	}

	seen := map[string]int{}
	for p, ids := range outs {
		if len(ids) != each {
			t.Fatalf("child %d created %d tasks, want %d", p, len(ids), each)
		}
		for _, id := range ids {
			if q, dup := seen[id]; dup {
				t.Fatalf("id %s handed to children %d and %d", id, q, p)
			}
			seen[id] = p
		}
	}
	all, err := s.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != hubs+procs*each {
		t.Fatalf("list has %d tasks, want %d", len(all), hubs+procs*each)
	}
	byID := map[string]Task{}
	for _, tk := range all {
		byID[tk.ID] = tk
	}
	var waiting []string
	for id := range seen {
		if tk := byID[id]; !slices.Equal(tk.BlockedBy, []string{"1"}) {
			t.Errorf("task %s blockedBy = %v, want [1]", id, tk.BlockedBy)
		}
		waiting = append(waiting, id)
	}
	hub := slices.Clone(byID["1"].Blocks)
	slices.Sort(hub)
	slices.Sort(waiting)
	if !slices.Equal(hub, waiting) {
		t.Errorf("hub 1 blocks %d tasks, want %d: lost edge updates", len(hub), len(waiting))
	}
	for p := range procs {
		for k := range updates {
			h := byID[hubOf(p, k, hubs)]
			if v, ok := h.Metadata[metaKey(p, k)]; !ok || v != float64(k) {
				t.Errorf("hub %s lost update %s (got %v)", h.ID, metaKey(p, k), v)
			}
		}
	}
}

// TestLockOfKilledHolderIsTakenOver kills a process while it holds the
// list's lock in the middle of an update: the record is unchanged, and the
// next store proceeds once the lock is stale.
func TestLockOfKilledHolderIsTakenOver(t *testing.T) {
	dir := t.TempDir()
	enc := storage.Encoding{Codec: xorCodec{id: "xor-v1"}}
	s := newFile(t, dir, "held", enc)
	mustCreate(t, s, "original")
	before := snapshot(t, filepath.Join(dir, "held"))

	if err := childtest.Start(t, "holding", childEnvs("hold", dir, 0)...).Kill(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "held.lock")); err != nil {
		t.Fatalf("the killed holder's lock is gone already: %v", err)
	}
	assertSameFiles(t, before, snapshot(t, filepath.Join(dir, "held")))

	s.lock.Stale = 300 * time.Millisecond // instead of 10 s, to keep the test short
	got := mustUpdate(t, s, "1", UpdateInput{Subject: ptr("after takeover")})
	if got.Subject != "after takeover" {
		t.Fatalf("got %+v", got)
	}
}

// TestContentionThroughput is anchor P5: 1, 2 and 8 processes doing durable
// read-modify-write updates on a 50-task list for -contention.duration each.
// It reports ops/s, per-process fairness and latency, and fails on a lost
// update. Run it with:
//
//	go test ./task/ -run TestContentionThroughput -contention -v
func TestContentionThroughput(t *testing.T) {
	if !*contention {
		t.Skip("measurement; run with -contention")
	}
	const hubs = 50
	// The floor: the same durable atomic replace, without store or lock,
	// measured right before each run because the disk's speed drifts.
	rawRate := func(d time.Duration) float64 {
		dir, err := safefs.Anchor(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		rec := make([]byte, 1024)
		n, start := 0, time.Now()
		for time.Since(start) < d {
			if err := dir.WriteFile("1.json", rec); err != nil {
				t.Fatal(err)
			}
			n++
		}
		return float64(n) / time.Since(start).Seconds()
	}
	for _, procs := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("procs=%d", procs), func(t *testing.T) {
			raw := rawRate(*contentionDuration / 4)
			t.Logf("raw atomic replace (1 KiB write, fsync, rename, fsync dir) in one process just before: %.0f ops/s", raw)
			dir := t.TempDir()
			s := newFile(t, dir, "bench", plain)
			for range hubs {
				mustCreate(t, s, "hub")
			}
			until := time.Now().Add(*contentionDuration)
			reports := make([]benchReport, procs)
			var wg sync.WaitGroup
			start := time.Now()
			for p := range procs {
				cmd := child(t, "bench", dir, p, childTasksEnv+"="+strconv.Itoa(hubs), childUntilEnv+"="+strconv.FormatInt(until.UnixNano(), 10))
				wg.Go(func() {
					out, err := cmd.Output()
					if err != nil {
						t.Errorf("child %d: %v", p, err)
						return
					}
					if err := json.Unmarshal(out, &reports[p]); err != nil {
						t.Errorf("child %d report %q: %v", p, out, err)
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			if t.Failed() {
				t.FailNow()
			}
			all, err := s.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			byID := map[string]Task{}
			for _, tk := range all {
				byID[tk.ID] = tk
			}
			total, lost, minOps, p99 := 0, 0, math.MaxInt, 0.0
			for p, r := range reports {
				total += r.Ops
				minOps = min(minOps, r.Ops)
				p99 = max(p99, r.P99)
				for k := range r.Ops {
					if _, ok := byID[hubOf(p, k, hubs)].Metadata[metaKey(p, k)]; !ok {
						lost++
					}
				}
			}
			mean := float64(total) / float64(procs)
			rate := float64(total) / elapsed.Seconds()
			t.Logf("%d processes, %d tasks, durable: %d ops in %v = %.0f ops/s (%.2f of raw); per process min %d mean %.0f (min/mean %.2f); worst p99 %.1f ms; lost updates %d",
				procs, hubs, total, elapsed.Round(time.Millisecond), rate, rate/raw, minOps, mean, float64(minOps)/mean, p99, lost)
			if lost != 0 {
				t.Fatalf("%d lost updates", lost)
			}
		})
	}
}
