package postgres_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// RemovePartialExport compares the files a killed export left with what
// the export would write. The export streams a project of any size, one
// record at a time; the clearing must not hold the whole project in memory
// to compare a few files with it, or the rerun of a killed export of a
// large project (gigabytes of spilled output) runs out of memory where the
// export itself did not. Here the database holds 96 MiB of spilled bodies
// and the killed export left one session log: the heap must not grow by
// the size of the project while the copy is cleared. Before the fix it
// grew by about the whole project (every body, kept in the plan).
func TestRemovePartialExportDoesNotHoldTheProject(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 96 MiB into the database")
	}
	ctx := t.Context()
	paths, enc, _ := filesProject(t)
	p := project(t, enc)
	if _, err := p.Checkpointer().Append(ctx, "s1", []session.Event{session.UserEvent{Message: model.UserText("hello")}}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	const bodies, size = 96, 1 << 20
	body := strings.Repeat("x", size-20)
	for i := range bodies {
		ref := fmt.Sprintf("%016x", i+1)
		// ImportSpill stores the bytes as given; the ref is not checked
		// against them, which the clearing does not read either.
		if err := p.ImportSpill(ctx, ref, []byte(fmt.Sprintf("%s%20d", body, i)), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	// What the killed export left: the session log, written first.
	recs, _, err := p.ExportSession(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	var log []byte
	for _, r := range recs {
		log = append(append(log, r...), '\n')
	}
	if err := os.MkdirAll(paths.SessionsDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(paths.SessionsDir, "s1"+session.LogSuffix), log, 0o600); err != nil {
		t.Fatal(err)
	}

	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	err = p.RemovePartialExport(ctx, paths)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("RemovePartialExport: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(paths.SessionsDir, "s1"+session.LogSuffix)); !os.IsNotExist(err) {
		t.Errorf("the export's session log after the clearing: %v", err)
	}
	grew := int64(peak) - int64(base)
	t.Logf("heap in use grew by %d MiB while a project of %d MiB was compared", grew>>20, bodies*size>>20)
	if grew > bodies*size/3 {
		t.Errorf("the clearing held %d MiB for a project of %d MiB and a partial copy of %d bytes", grew>>20, bodies*size>>20, len(log))
	}
}
