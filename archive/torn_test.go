package archive_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// tornClock is the fixed time tests set aside torn tails at.
var tornClock = time.UnixMilli(1_700_000_000_000)

// tornFiles returns the names and contents of the torn tails set aside in
// dir.
func tornFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		if !archive.IsTornCopy(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if st, err := os.Lstat(p); err != nil || st.Mode() != 0o600 {
			t.Errorf("%s: mode %v (%v), want 0600", e.Name(), st.Mode(), err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func tornName(ms int64) string { return "index.jsonl.torn-" + strconv.FormatInt(ms, 10) }

// tornTail returns the torn tail a test case writes after lines, the
// complete lines of an index.
func tornTails() []struct {
	name string
	tail func(lines []string) string
} {
	return []struct {
		name string
		tail func(lines []string) string
	}{
		{"one byte", func([]string) string { return "{" }},
		{"a whole line without its newline", func(l []string) string { return l[len(l)-1] }},
		{"a line cut short", func(l []string) string { return l[len(l)-1][:40] }},
		{"many KB", func(l []string) string { return `{"ref":"` + strings.Repeat("x", 200<<10) }},
		{"many KB of newline-free garbage", func([]string) string { return strings.Repeat("\x00\xff", 3<<10) }},
	}
}

func TestTornIndexTailIsNotALine(t *testing.T) {
	for _, enc := range []struct {
		name string
		opts func(t *testing.T) archive.Options
	}{
		{"plaintext", func(*testing.T) archive.Options { return archive.Options{} }},
		{"authenticated", func(t *testing.T) archive.Options {
			return archive.Options{Encoding: storage.Encoding{Codec: aead(t, codec.AES256GCM, "k1", "k1")}, SessionID: "s1"}
		}},
	} {
		for _, keep := range []int{0, 1, 3} { // complete lines before the torn tail
			for _, tc := range tornTails() {
				t.Run(fmt.Sprintf("%s/%d lines/%s", enc.name, keep, tc.name), func(t *testing.T) {
					opts := enc.opts(t)
					f := newFixture(t, opts)
					all := f.lines(t)
					tail := tc.tail(all)
					complete := ""
					for _, l := range all[:keep] {
						complete += l + "\n"
					}
					writeFile(t, f.index, complete+tail)

					a := open(t, f.dir, opts)
					archive.SetClock(a, func() time.Time { return tornClock })
					// Readers see the complete lines only.
					out := search(t, a, archive.Query{Limit: 10})
					if n := strings.Count(out, `{"ref":`); n != keep {
						t.Fatalf("search lists %d entries, want %d:\n%s", n, keep, out)
					}
					for i, ref := range f.refs {
						out := read(t, a, archive.ReadRequest{Ref: ref, Generation: int64(i + 1)})
						if listed := strings.Contains(out, secretWord); listed != (i < keep) {
							t.Errorf("read of line %d: listed %v, want %v:\n%s", i, listed, i < keep, out)
						}
					}
					problems, err := a.Verify(t.Context())
					if err != nil {
						t.Fatal(err)
					}
					var torn []storage.Problem
					for _, p := range problems {
						if p.Kind.Damage() {
							t.Errorf("damage reported: %+v", p)
						}
						if p.Kind == storage.ProblemTorn {
							torn = append(torn, p)
						}
					}
					if len(torn) != 1 || torn[0].Record != strconv.Itoa(keep) || torn[0].Offset != int64(len(complete)) || !torn[0].Tail ||
						!strings.Contains(torn[0].Err.Error(), strconv.Itoa(len(tail))+" bytes") || strings.Contains(torn[0].Err.Error(), secretWord) {
						t.Errorf("torn problems %+v", torn)
					}
					if got, _ := os.ReadFile(f.index); string(got) != complete+tail {
						t.Fatal("a read changed the index")
					}

					// Put sets the tail aside and appends on a line of its own.
					e := put(t, a, "new "+secretWord, nil)
					got, err := os.ReadFile(f.index)
					if err != nil {
						t.Fatal(err)
					}
					if !strings.HasPrefix(string(got), complete) || strings.Count(string(got), "\n") != keep+1 || !strings.HasSuffix(string(got), "\n") {
						t.Errorf("index after put:\n%q", got)
					}
					if want := map[string]string{tornName(tornClock.UnixMilli()): tail}; !mapsEqual(tornFiles(t, f.dir), want) {
						t.Errorf("torn files %v, want the tail under %s", keys(tornFiles(t, f.dir)), tornName(tornClock.UnixMilli()))
					}
					out = search(t, open(t, f.dir, opts), archive.Query{Limit: 10})
					if n := strings.Count(out, `{"ref":`); n != keep+1 || !strings.Contains(out, e.Ref) {
						t.Errorf("search after put lists %d entries, want %d with %s", n, keep+1, e.Ref)
					}
					if out := read(t, open(t, f.dir, opts), archive.ReadRequest{Ref: e.Ref}); !strings.Contains(out, "new "+secretWord) {
						t.Errorf("read after put:\n%s", out)
					}
					if problems := f.verify(t, opts); slices.ContainsFunc(problems, func(p found) bool { return p.Kind != storage.ProblemUnreferenced }) {
						t.Errorf("Verify after put: %v", problems)
					}
				})
			}
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestTornTailsAreSetAsideUnderNewNames(t *testing.T) {
	f := newFixture(t, archive.Options{})
	ms := tornClock.UnixMilli()
	// A file of that name already exists: it is kept, and the next
	// millisecond is taken.
	writeFile(t, filepath.Join(f.dir, tornName(ms)), "older "+secretWord)
	a := open(t, f.dir, archive.Options{})
	archive.SetClock(a, func() time.Time { return tornClock })
	var want = map[string]string{tornName(ms): "older " + secretWord}
	for i, tail := range []string{"first torn", "second torn", `{"ref":"third`} {
		b, err := os.ReadFile(f.index)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, f.index, string(b)+tail)
		put(t, a, fmt.Sprintf("put %d", i), nil)
		want[tornName(ms+int64(i+1))] = tail
	}
	if got := tornFiles(t, f.dir); !mapsEqual(got, want) {
		t.Errorf("torn files %v, want %v", got, want)
	}
	if n := len(f.lines(t)); n != 6 {
		t.Errorf("index has %d lines, want 6", n)
	}
}

func TestPutThatAppendsNothingLeavesTheTornTail(t *testing.T) {
	f := newFixture(t, archive.Options{})
	b, err := os.ReadFile(f.index)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, f.index, string(b)+"torn")
	before := snapshot(t, f.dir)
	put(t, open(t, f.dir, archive.Options{}), "first "+secretWord, nil) // already listed
	sameSnapshot(t, before, snapshot(t, f.dir))
}

func TestTornTailIsSetAsideOnlyWhenTheIndexIsSound(t *testing.T) {
	// A bad complete line fails Put before anything is set aside.
	f := newFixture(t, archive.Options{})
	l := f.lines(t)
	l[0] = "not json"
	writeFile(t, f.index, strings.Join(l, "\n")+"\ntorn")
	before := snapshot(t, f.dir)
	_, err := open(t, f.dir, archive.Options{}).Put(t.Context(), "new", nil)
	if se := storageError(t, err, "Corrupt archive index"); se.Record != "0" {
		t.Errorf("error names record %q", se.Record)
	}
	sameSnapshot(t, before, snapshot(t, f.dir))
}

func TestTornCopyNames(t *testing.T) {
	for name, want := range map[string]bool{
		"index.jsonl.torn-1":             true,
		"index.jsonl.torn-1700000000000": true,
		"index.jsonl.torn-":              false,
		"index.jsonl.torn-1x":            false,
		"index.jsonl":                    false,
		"s.jsonl.torn-1":                 false,
		".index.jsonl.torn-1.abc.tmp":    false,
	} {
		if got := archive.IsTornCopy(name); got != want {
			t.Errorf("IsTornCopy(%q) = %v", name, got)
		}
	}
}

// killAtEnv names the step at which a child of
// TestKillWhileSettingATornTailAsideLosesNothing kills itself.
const killAtEnv = "ARCHIVE_TEST_KILL_AT"

// childKilledAt puts one note into the archive in dir, whose index has a
// torn tail, and SIGKILLs itself at step of setting the tail aside. It
// exits 3 if the step is never reached.
func childKilledAt(dir, step string) {
	a, err := archive.NewFileArchive(dir, archive.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	archive.SetStep(a, func(name string) {
		if name == step {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	})
	if _, err := a.Put(context.Background(), "killed put", nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(3)
}

// TestKillWhileSettingATornTailAsideLosesNothing kills a child process
// (SIGKILL) at each step of a Put that sets a torn tail aside, and checks
// that the archive still reads, that the torn bytes are kept (in the index
// or in a torn file), and that the next Put completes the job.
func TestKillWhileSettingATornTailAsideLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for _, step := range []string{"set-aside", "cut"} {
		t.Run(step, func(t *testing.T) {
			f := newFixture(t, archive.Options{})
			b, err := os.ReadFile(f.index)
			if err != nil {
				t.Fatal(err)
			}
			complete := string(b)
			tail := `{"ref":"` + strings.Repeat("y", 100<<10)
			writeFile(t, f.index, complete+tail)

			out, err := childtest.Command(t.Context(), killAtEnv+"="+step, childDir+"="+f.dir).CombinedOutput()
			if !childtest.Killed(err) {
				t.Fatalf("child was not killed at %s: %v\n%s", step, err, out)
			}
			os.RemoveAll(f.dir + ".lock") // the killed child's lock; it would be taken over when stale

			// The archive reads, and the torn bytes are somewhere.
			got, err := os.ReadFile(f.index)
			if err != nil {
				t.Fatal(err)
			}
			files := tornFiles(t, f.dir)
			if len(files) != 1 {
				t.Fatalf("torn files after a kill at %s: %v", step, keys(files))
			}
			switch step {
			case "set-aside": // copied, not yet cut
				if string(got) != complete+tail {
					t.Errorf("index changed before the cut")
				}
			case "cut": // cut, nothing appended
				if string(got) != complete {
					t.Errorf("index after the cut: %d bytes, want %d", len(got), len(complete))
				}
			}
			for _, v := range files {
				if v != tail {
					t.Errorf("torn file holds %d bytes, want the %d torn", len(v), len(tail))
				}
			}
			a := open(t, f.dir, archive.Options{})
			archive.SetClock(a, func() time.Time { return time.Now().Add(time.Hour) })
			if n := strings.Count(search(t, a, archive.Query{Limit: 10}), `{"ref":`); n != 3 {
				t.Errorf("search after the kill lists %d entries", n)
			}
			// The next Put finishes the job: the index is clean again.
			e := put(t, a, "killed put", nil)
			if got, _ := os.ReadFile(f.index); strings.Count(string(got), "\n") != 4 || !strings.HasSuffix(string(got), "\n") {
				t.Errorf("index after the next put:\n%q", got)
			}
			if !strings.Contains(read(t, a, archive.ReadRequest{Ref: e.Ref}), "killed put") {
				t.Error("the put does not read back")
			}
			for name, v := range tornFiles(t, f.dir) {
				if v != tail {
					t.Errorf("%s holds %d bytes, want the %d torn", name, len(v), len(tail))
				}
			}
			if problems := f.verify(t, archive.Options{}); len(problems) != 0 {
				t.Errorf("Verify after the next put: %v", problems)
			}
		})
	}
}

func TestDeleteRemovesTornCopiesWithTheArchive(t *testing.T) {
	f := newFixture(t, archive.Options{})
	writeFile(t, filepath.Join(f.dir, tornName(tornClock.UnixMilli())), "torn")
	if err := archive.Delete(t.Context(), f.dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(f.dir); !os.IsNotExist(err) {
		t.Errorf("the archive directory is still there: %v", err)
	}
}
