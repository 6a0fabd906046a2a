//go:build linux && !migrate_portable

package migrate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The logs of a migration are prefetched only once one is found out of
// the page cache: a source read moments ago (all of it in the cache) is
// copied without a single prefetch, and the same source dropped from the
// cache has its logs prefetched from the one the copy found out of it on.
func TestLogsArePrefetchedOnlyOnceOneIsFoundOutOfTheCache(t *testing.T) {
	home := t.TempDir()
	const wd = "/prefetch/project"
	const logs = 20
	paths := writeLogs(t, home, wd, logs, 3, "")
	run := func() int {
		var mu sync.Mutex
		n := 0
		_, err := Run(t.Context(), Options{
			From:       Endpoint{Workdir: wd, Storage: storage.Options{Home: home}},
			To:         Endpoint{Storage: storage.Options{Home: filepath.Join(t.TempDir(), "dst")}},
			Workers:    1,
			prefetched: func(string) { mu.Lock(); n++; mu.Unlock() },
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := run(); n != 0 {
		t.Errorf("%d of %d logs in the page cache were prefetched", n, logs)
	}

	// Out of the cache: written back, then dropped (clean pages go).
	syscall.Sync()
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_ = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
		if path == paths[0] {
			_, err := unix.Preadv2(int(f.Fd()), [][]byte{make([]byte, 16)}, 0, unix.RWF_NOWAIT)
			if !errors.Is(err, unix.EAGAIN) {
				f.Close()
				t.Skipf("this file system keeps the log in the cache, or reads it without waiting (%v)", err)
			}
		}
		f.Close()
	}
	// Every log after the one found out of the cache: the first, or the
	// second when the refused read of the first above had it read back in
	// by the time the copy came to it. (Logs being copied already are not
	// prefetched: each worker prefetches from the unit it takes on.)
	if n := run(); n < logs-2 {
		t.Errorf("%d of %d logs out of the page cache were prefetched, want all but the first or two", n, logs)
	}
}

// BenchmarkPrefetchCachedSource migrates a plaintext project of 1,000
// sessions (100,000 events, all in the page cache, as a home in use or
// just copied holds them) to a new home, prefetching every log (as before
// a log had to be found out of the cache first) and only once one is found
// out of it, the two taking turns in each round: cpu-ms is the processor
// time of each, ratio the second's over the first's.
//
//	go test ./migrate -run '^$' -bench PrefetchCachedSource -benchtime 5x
func BenchmarkPrefetchCachedSource(b *testing.B) {
	home := b.TempDir()
	const wd = "/prefetch/bench"
	text := "the agent read file main.go and found that function handler returns an error when request body is empty"
	writeLogs(b, home, wd, 1000, 100, text+" "+text+" "+text)
	scratch := b.TempDir()
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	var spent [2]time.Duration
	n := 0
	for b.Loop() {
		n++
		for k := range 2 {
			side := (k + n) % 2 // who goes first alternates
			syscall.Sync()
			start := cpu()
			_, err := Run(b.Context(), Options{
				From:      Endpoint{Workdir: wd, Storage: storage.Options{Home: home}},
				To:        Endpoint{Storage: storage.Options{Home: filepath.Join(scratch, fmt.Sprintf("%d-%d", n, side))}},
				coldStart: side == 0,
			})
			spent[side] += cpu() - start
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(spent[0].Milliseconds())/float64(n), "always-cpu-ms/op")
	b.ReportMetric(float64(spent[1].Milliseconds())/float64(n), "on-miss-cpu-ms/op")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "ratio")
}

// writeLogs writes the plaintext session logs s0000... of the project wd in
// home, logs of them with events user prompts each (text after the
// session and event numbers), and returns their paths.
func writeLogs(tb testing.TB, home, wd string, logs, events int, text string) []string {
	tb.Helper()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: storage.Options{Home: home}})
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
		tb.Fatal(err)
	}
	var paths []string
	for s := range logs {
		sid := fmt.Sprintf("s%04d", s)
		var buf []byte
		for i := 1; i <= events; i++ {
			parent := "null"
			if i > 1 {
				parent = strconv.Itoa(i - 1)
			}
			buf = fmt.Appendf(buf, `{"seq":%d,"sessionId":%q,"parentSeq":%s,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"%d/%d %s"}}}`+"\n", i, sid, parent, s, i, text)
		}
		path := filepath.Join(p.SessionsDir, sid+session.LogSuffix)
		if err := os.WriteFile(path, buf, 0o600); err != nil {
			tb.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// A source on a file system that refuses reads without waiting (tmpfs
// answers preadv2 with RWF_NOWAIT with EOPNOTSUPP) is migrated whole: the
// first read of a log, refused, is made again as usual, and since the
// page cache cannot be told about there, every log but the first is
// prefetched.
func TestASourceThatRefusesNowaitReadsIsCopiedWhole(t *testing.T) {
	shm, err := os.MkdirTemp("/dev/shm", "migrate-nowait-")
	if err != nil {
		t.Skipf("no tmpfs at /dev/shm: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(shm) })
	probe := filepath.Join(shm, "probe")
	if err := os.WriteFile(probe, []byte("probe"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(probe)
	if err != nil {
		t.Fatal(err)
	}
	_, err = unix.Preadv2(int(f.Fd()), [][]byte{make([]byte, 16)}, 0, unix.RWF_NOWAIT)
	f.Close()
	if !errors.Is(err, unix.EOPNOTSUPP) {
		t.Skipf("/dev/shm takes reads without waiting here (%v)", err)
	}
	const wd = "/prefetch/project"
	const logs, events = 12, 40
	paths := writeLogs(t, shm, wd, logs, events, "some text to make the lines longer")
	dst := filepath.Join(t.TempDir(), "dst")
	var mu sync.Mutex
	n := 0
	if _, err := Run(t.Context(), Options{
		From:       Endpoint{Workdir: wd, Storage: storage.Options{Home: shm}},
		To:         Endpoint{Storage: storage.Options{Home: dst}},
		Workers:    1,
		prefetched: func(string) { mu.Lock(); n++; mu.Unlock() },
	}); err != nil {
		t.Fatal(err)
	}
	if n < logs-1 {
		t.Errorf("%d of %d logs were prefetched; want all but the first", n, logs)
	}
	checkCopiedAsTheyAre(t, wd, dst, paths)
}

// A first read without waiting that returns nothing, and no error, for a
// log that is not empty (no kernel here does; one that did would have a
// migration copy the log as empty, and verify the empty copy against the
// empty read) is not taken for the end of the log: the log is read as usual
// and copied whole.
func TestANowaitReadOfNothingIsNotTakenForTheEndOfTheLog(t *testing.T) {
	home := t.TempDir()
	const wd = "/prefetch/project"
	paths := writeLogs(t, home, wd, 4, 10, "some text")
	dst := filepath.Join(t.TempDir(), "dst")
	if _, err := Run(t.Context(), Options{
		From:       Endpoint{Workdir: wd, Storage: storage.Options{Home: home}},
		To:         Endpoint{Storage: storage.Options{Home: dst}},
		Workers:    1,
		nowaitRead: func(int, []byte) (int, error) { return 0, nil },
	}); err != nil {
		t.Fatal(err)
	}
	checkCopiedAsTheyAre(t, wd, dst, paths)
}

// checkCopiedAsTheyAre fails t unless each source log of paths is in the
// sessions directory of project wd under the home dst, byte for byte.
func checkCopiedAsTheyAre(t *testing.T, wd, dst string, paths []string) {
	t.Helper()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: wd, Storage: storage.Options{Home: dst}})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range paths {
		want, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(p.SessionsDir, filepath.Base(src)))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s copied as %d bytes (%v); want its %d bytes as they are", filepath.Base(src), len(got), err, len(want))
		}
	}
}
