package archive_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// Environment of a child process started by TestConcurrentProcessesShareOneArchive.
const (
	childEnv   = "ARCHIVE_TEST_CHILD" // the child's name
	childDir   = "ARCHIVE_TEST_DIR"
	childCount = 20 // notes each writer puts
	shared     = 5  // of which the same in every writer
)

func TestMain(m *testing.M) {
	if step := os.Getenv(killAtEnv); step != "" {
		childKilledAt(os.Getenv(childDir), step) // never returns
	}
	if name := os.Getenv(childEnv); name != "" {
		if err := childPuts(name, os.Getenv(childDir)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// processCodec is the codec parent and children share: AEAD, so that two
// writers giving one line number to two lines would fail to decode.
func processCodec() storage.Codec {
	c, err := codec.NewAEAD(codec.AEADOptions{KeyID: "k1", Key: func(context.Context, string) ([]byte, error) {
		return testKey("k1"), nil
	}})
	if err != nil {
		panic(err)
	}
	return c
}

// writerNotes returns the contents writer name puts: shared ones first,
// then its own.
func writerNotes(name string) []string {
	var out []string
	for i := range childCount {
		if i < shared {
			out = append(out, fmt.Sprintf("shared note %d", i))
		} else {
			out = append(out, fmt.Sprintf("note %d of %s", i, name))
		}
	}
	return out
}

// childPuts is a writer: it puts its notes and reads each back.
func childPuts(name, dir string) error {
	a, err := archive.NewFileArchive(dir, archive.Options{Encoding: storage.Encoding{Codec: processCodec()}, SessionID: "s1"})
	if err != nil {
		return err
	}
	ctx := context.Background()
	for i, c := range writerNotes(name) {
		e, err := a.Put(ctx, c, map[string]any{"writer": name})
		if err != nil {
			return fmt.Errorf("%s put %d: %w", name, i, err)
		}
		out, err := a.Read(ctx, archive.ReadRequest{Ref: e.Ref, Generation: int64(i)})
		if err != nil {
			return fmt.Errorf("%s read %d: %w", name, i, err)
		}
		if !strings.Contains(out, c) {
			return fmt.Errorf("%s read %d: content missing", name, i)
		}
	}
	return nil
}

func TestConcurrentProcessesShareOneArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := filepath.Join(t.TempDir(), "s1.context")
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	names := []string{"child-a", "child-b", "child-c"}
	for _, name := range names {
		cmd := childtest.Command(t.Context(), childEnv+"="+name, childDir+"="+dir)
		wg.Go(func() {
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("%s: %v\n%s", name, err, out)
			}
		})
	}
	names = append(names, "parent")
	wg.Go(func() {
		if err := childPuts("parent", dir); err != nil {
			errs <- err
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	checkEveryNoteOnce(t, dir, names, archive.Options{Encoding: storage.Encoding{Codec: processCodec()}, SessionID: "s1"})
}

// checkEveryNoteOnce checks that the index in dir lists each writer's notes
// exactly once and that every note reads back.
func checkEveryNoteOnce(t *testing.T, dir string, writers []string, opts archive.Options) {
	t.Helper()
	want := map[string]string{}
	for _, w := range writers {
		for _, c := range writerNotes(w) {
			want[sha(c)] = c
		}
	}
	a := open(t, dir, archive.Options{Encoding: opts.Encoding, SessionID: opts.SessionID, MaxReadBytes: 1 << 24})
	out := search(t, a, archive.Query{Limit: 10 * len(want)})
	for ref := range want {
		if n := strings.Count(out, `{"ref":"`+ref+`"`); n != 1 {
			t.Errorf("ref %s listed %d times", ref, n)
		}
	}
	if n := strings.Count(out, `{"ref":`); n != len(want) {
		t.Errorf("index has %d entries, want %d", n, len(want))
	}
	for ref, c := range want {
		if out := read(t, a, archive.ReadRequest{Ref: ref}); !strings.Contains(out, "\n"+c+"\n") {
			t.Errorf("ref %s does not read back", ref)
		}
	}
}

func TestConcurrentGoroutinesShareOneArchive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s1.context")
	opts := archive.Options{Encoding: storage.Encoding{Codec: processCodec()}, SessionID: "s1"}
	shared := open(t, dir, opts) // one value used by several goroutines
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	var writers []string
	for i := range 4 {
		name := "g" + strconv.Itoa(i)
		writers = append(writers, name)
		a := shared
		if i%2 == 1 {
			a = open(t, dir, opts) // and values of their own
		}
		wg.Go(func() {
			ctx := context.Background()
			for j, c := range writerNotes(name)[:20] {
				e, err := a.Put(ctx, c, nil)
				if err != nil {
					errs <- err
					return
				}
				if _, err := a.Read(ctx, archive.ReadRequest{Ref: e.Ref, Generation: int64(j)}); err != nil {
					errs <- err
					return
				}
				if _, err := a.Search(ctx, archive.Query{Text: "note", Generation: int64(j)}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, w := range writers {
		for _, c := range writerNotes(w)[:20] {
			want[sha(c)] = true
		}
	}
	a := open(t, dir, archive.Options{Encoding: opts.Encoding, SessionID: "s1", MaxReadBytes: 1 << 24})
	out := search(t, a, archive.Query{Limit: 1000})
	if n := strings.Count(out, `{"ref":`); n != len(want) {
		t.Errorf("index has %d entries, want %d", n, len(want))
	}
}
