package migrate_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

const workdir = "/srv/app"

func TestRoundTripBetweenEveryPairOfCodecs(t *testing.T) {
	matrix := codecMatrix(t)
	for _, from := range matrix {
		t.Run("from-"+from.name, func(t *testing.T) {
			src := buildProject(t, t.TempDir(), workdir, from.codec, "")
			want := read(t, src, src.paths, src.enc())
			before := treeHash(t, src.home)
			for _, to := range matrix {
				t.Run("to-"+to.name, func(t *testing.T) {
					dstHome := filepath.Join(t.TempDir(), "home")
					rep, err := migrate.Run(t.Context(), migrate.Options{
						From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
						To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: to.codec}},
					})
					if err != nil {
						t.Fatalf("Run: %v", err)
					}
					unchanged(t, src.home, before)
					if !rep.Verified || len(rep.Problems) != 0 || len(rep.Skipped) != 0 {
						t.Errorf("report: verified %v, problems %v, skipped %v", rep.Verified, rep.Problems, rep.Skipped)
					}
					dst := resolve(t, workdir, storage.Options{Home: dstHome, Codec: to.codec})
					if dst.Hash != src.paths.Hash {
						t.Errorf("hash %s, want %s kept", dst.Hash, src.paths.Hash)
					}
					enc := storage.Encoding{Codec: to.codec, ProjectID: dst.Hash}
					equalContents(t, read(t, src, dst, enc), want)
					if err := migrate.CheckComplete(dst.ProjectDir()); err != nil {
						t.Errorf("CheckComplete: %v", err)
					}
					if to.hides {
						wantNoSecret(t, dstHome)
					}
					wantCounts(t, rep)
				})
			}
		})
	}
}

// wantCounts checks the report against the fixture of buildProject.
func wantCounts(t *testing.T, rep migrate.Report) {
	t.Helper()
	want := map[storage.Kind][2]int64{ // files, records
		storage.KindCheckpoint:   {2, 10},
		storage.KindArchiveIndex: {1, 3},
		storage.KindArchive:      {3, 3},
		storage.KindTask:         {6, 6},
		storage.KindSpill:        {2, 2},
	}
	for kind, fr := range want {
		c := rep.Kinds[kind]
		if int64(c.Files) != fr[0] || c.Records != fr[1] || c.Bytes == 0 || c.SourceBytes == 0 || c.DestinationBytes == 0 {
			t.Errorf("%s: %+v, want %d files and %d records", kind, c, fr[0], fr[1])
		}
	}
	if rep.Records != 24 {
		t.Errorf("records %d, want 24", rep.Records)
	}
}

func TestPlaintextCopyIsByteIdenticalAndKeepsEventsAndTimes(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	dstHome := t.TempDir()
	if _, err := migrate.Run(t.Context(), migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
	}); err != nil {
		t.Fatal(err)
	}
	srcFiles := files(t, src.home)
	if got := files(t, dstHome); !slices.Equal(got, srcFiles) {
		t.Fatalf("files\n got %v\nwant %v", got, srcFiles)
	}
	for _, rel := range srcFiles {
		a, _ := os.ReadFile(filepath.Join(src.home, rel))
		b, _ := os.ReadFile(filepath.Join(dstHome, rel))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs", rel)
		}
	}
}

func TestEncodedCopyKeepsEveryRecordByteForByte(t *testing.T) {
	// Records written by another implementation may differ from what this
	// one would write (key order, time precision): the copy keeps them
	// exactly, and only their encoding changes.
	home := t.TempDir()
	p := resolve(t, workdir, storage.Options{Home: home})
	log := `{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.123456Z","event":{"message":{"content":"hi","role":"user"},"type":"user","extra":1}}` + "\n" +
		"\n" + // a blank line is not a record
		`{"seq":2,"sessionId":"s1","parentSeq":1,"ts":"2026-07-22T12:00:01.000Z","event":{"type":"future_kind","x":[1,2]}}` + "\n"
	if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.SessionsDir, "s1.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	dstHome := t.TempDir()
	c := aead(t, "k1", 7)
	if _, err := migrate.Run(t.Context(), migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home}},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: c}},
	}); err != nil {
		t.Fatal(err)
	}
	dst := resolve(t, workdir, storage.Options{Home: dstHome})
	raw, err := os.ReadFile(filepath.Join(dst.SessionsDir, "s1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	wantLines := []string{strings.Split(log, "\n")[0], strings.Split(log, "\n")[2]}
	if len(lines) != 2 {
		t.Fatalf("%d lines", len(lines))
	}
	enc := storage.Encoding{Codec: c, ProjectID: dst.Hash}
	for i, l := range lines {
		plain, err := enc.Decode(t.Context(), storage.KindCheckpoint, "s1", string(rune('1'+i)), []byte(l))
		if err != nil || string(plain) != wantLines[i] {
			t.Errorf("record %d: %q %v", i+1, plain, err)
		}
	}
	cp, err := session.NewFileCheckpointer(dst.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	if evs, err := cp.Read(t.Context(), "s1", 0); err != nil || len(evs) != 2 || evs[1].Event.EventType() != "future_kind" {
		t.Errorf("read: %v %v", evs, err)
	}
}

func TestHomeMoveKeepsTheHashAndWorkdirMoveChangesIt(t *testing.T) {
	c := aead(t, "k1", 1)
	src := buildProject(t, t.TempDir(), workdir, c, "")
	want := read(t, src, src.paths, src.enc())
	before := treeHash(t, src.home)
	for _, tc := range []struct {
		name, toWorkdir string
	}{{"home", ""}, {"workdir", "/srv/elsewhere"}} {
		t.Run(tc.name, func(t *testing.T) {
			dstHome := t.TempDir()
			rep, err := migrate.Run(t.Context(), migrate.Options{
				From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:   migrate.Endpoint{Workdir: tc.toWorkdir, Storage: storage.Options{Home: dstHome, Codec: c}},
			})
			if err != nil {
				t.Fatal(err)
			}
			unchanged(t, src.home, before)
			wd := workdir
			if tc.toWorkdir != "" {
				wd = tc.toWorkdir
			}
			dst := resolve(t, wd, storage.Options{Home: dstHome})
			if (dst.Hash == src.paths.Hash) != (tc.toWorkdir == "") || rep.Destination.Hash != dst.Hash || !slices.Equal(rep.Projects, []string{dst.Hash}) {
				t.Errorf("source hash %s, destination %s, report %s %v", src.paths.Hash, dst.Hash, rep.Destination.Hash, rep.Projects)
			}
			equalContents(t, read(t, src, dst, storage.Encoding{Codec: c, ProjectID: dst.Hash}), want)
			if tc.toWorkdir != "" {
				// The records are bound to the new project id: read as
				// the old project, they do not decode.
				cp, _ := session.NewFileCheckpointer(dst.SessionsDir, session.FileOptions{Encoding: storage.Encoding{Codec: c, ProjectID: src.paths.Hash}})
				if _, err := cp.Read(t.Context(), "s1", 0); err == nil {
					t.Error("records still decode under the old project id")
				}
			}
		})
	}
}

func TestNamespaceMoveRebindsEveryRecord(t *testing.T) {
	c := aead(t, "k1", 1)
	src := buildProject(t, t.TempDir(), workdir, c, "")
	want := read(t, src, src.paths, src.enc())
	dstHome := t.TempDir()
	rep, err := migrate.Run(t.Context(), migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Namespace: "acme", Home: dstHome, Codec: c}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Destination.Namespace != "acme" || rep.Source.Namespace != storage.DefaultNamespace {
		t.Errorf("namespaces %q -> %q", rep.Source.Namespace, rep.Destination.Namespace)
	}
	dst := resolve(t, workdir, storage.Options{Namespace: "acme", Home: dstHome})
	equalContents(t, read(t, src, dst, storage.Encoding{Codec: c, Namespace: "acme", ProjectID: dst.Hash}), want)
	cp, _ := session.NewFileCheckpointer(dst.SessionsDir, session.FileOptions{Encoding: storage.Encoding{Codec: c, ProjectID: dst.Hash}})
	if _, err := cp.Read(t.Context(), "s1", 0); err == nil {
		t.Error("records still decode under the old namespace")
	}
}

func TestAllProjectsCopiesEveryProjectAndTheHomeConfiguration(t *testing.T) {
	home := t.TempDir()
	a := buildProject(t, home, "/srv/a", nil, "")
	b := buildProject(t, home, "/srv/b", nil, "")
	config := map[string]string{
		"hooks.json":             `{"hooks":[]}`,
		"permissions.json":       `{"allow":["read_file"]}`,
		"skills/review/SKILL.md": "# review\n",
		"agents/helper.md":       "helper\n",
	}
	for rel, content := range config {
		path := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before := treeHash(t, home)
	dstHome := filepath.Join(t.TempDir(), "new")
	c := codecMatrix(t)[2].codec
	rep, err := migrate.Run(t.Context(), migrate.Options{
		AllProjects: true,
		From:        migrate.Endpoint{Storage: storage.Options{Home: home}},
		To:          migrate.Endpoint{Storage: storage.Options{Namespace: "acme", Home: dstHome, Codec: c}},
	})
	if err != nil {
		t.Fatal(err)
	}
	unchanged(t, home, before)
	want := []string{a.paths.Hash, b.paths.Hash}
	slices.Sort(want)
	if !slices.Equal(rep.Projects, want) || rep.Config.Files != len(config) || rep.Destination.Root != dstHome {
		t.Errorf("projects %v, config %+v, root %s", rep.Projects, rep.Config, rep.Destination.Root)
	}
	for _, f := range []fixture{a, b} {
		dst := resolve(t, f.workdir, storage.Options{Namespace: "acme", Home: dstHome})
		if dst.Hash != f.paths.Hash {
			t.Errorf("hash changed")
		}
		equalContents(t, read(t, f, dst, storage.Encoding{Codec: c, Namespace: "acme", ProjectID: dst.Hash}), read(t, f, f.paths, f.enc()))
	}
	for rel, content := range config {
		if got, err := os.ReadFile(filepath.Join(dstHome, rel)); err != nil || string(got) != content {
			t.Errorf("%s: %q %v", rel, got, err)
		}
	}
	if err := migrate.CheckComplete(dstHome); err != nil {
		t.Error(err)
	}
}

func TestAllProjectsRejectsADestinationWorkdir(t *testing.T) {
	_, err := migrate.Run(t.Context(), migrate.Options{
		AllProjects: true,
		From:        migrate.Endpoint{Storage: storage.Options{Home: t.TempDir()}},
		To:          migrate.Endpoint{Workdir: "/srv/b", Storage: storage.Options{Home: t.TempDir()}},
	})
	if !errors.Is(err, migrate.ErrOptions) {
		t.Errorf("err = %v, want ErrOptions", err)
	}
}

func TestDryRunReadsEverythingAndWritesNothing(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, codecMatrix(t)[1].codec, "")
	before := treeHash(t, src.home)
	dstHome := filepath.Join(t.TempDir(), "new")
	rep, err := migrate.Run(t.Context(), migrate.Options{
		DryRun: true,
		From:   migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:     migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: aead(t, "k1", 1)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	unchanged(t, src.home, before)
	if _, err := os.Lstat(dstHome); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dry run created the destination: %v", err)
	}
	if !rep.DryRun || rep.Verified {
		t.Errorf("dry run report: %+v", rep)
	}
	wantCounts(t, rep)

	// A dry run still reads every record with the source configuration.
	_, err = migrate.Run(t.Context(), migrate.Options{
		DryRun: true,
		From:   migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: src.home}},
		To:     migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
	})
	if !errors.Is(err, migrate.ErrUnreadable) {
		t.Errorf("dry run with the wrong codec: %v", err)
	}
}

func TestProgressCountsReachTheTotals(t *testing.T) {
	for _, count := range []bool{true, false} {
		t.Run(fmt.Sprintf("CountRecords=%v", count), func(t *testing.T) {
			src := buildProject(t, t.TempDir(), workdir, nil, "")
			var last migrate.Progress
			calls := 0
			_, err := migrate.Run(t.Context(), migrate.Options{
				From:         migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:           migrate.Endpoint{Storage: storage.Options{Home: t.TempDir()}},
				CountRecords: count,
				// After every file, so that the calls can be counted.
				ProgressInterval: -1,
				Progress: func(p migrate.Progress) {
					if p.Records < last.Records || p.Files < last.Files || p.Bytes < last.Bytes {
						t.Errorf("progress went back: %+v after %+v", p, last)
					}
					if p.TotalBytes == 0 || p.Bytes > p.TotalBytes || p.TotalFiles != 7 {
						t.Errorf("totals: %+v", p)
					}
					last = p
					calls++
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			// 2 logs, 1 archive, 2 task lists, 2 spill files; 10 + 6 + 6 + 2
			// records. Without CountRecords the total is not known.
			wantTotal := int64(24)
			if !count {
				wantTotal = 0
			}
			if calls != 7 || last.Files != 7 || last.TotalFiles != 7 || last.Records != 24 || last.TotalRecords != wantTotal || last.Bytes != last.TotalBytes || last.Bytes == 0 {
				t.Errorf("%d calls, last %+v", calls, last)
			}
		})
	}
}

// TestProgressIsThrottledButReportsTheEnd checks that with a long
// ProgressInterval Progress is called once when copying starts and once
// when the last file is done, with the totals.
func TestProgressIsThrottledButReportsTheEnd(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	var got []migrate.Progress
	_, err := migrate.Run(t.Context(), migrate.Options{
		From:             migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:               migrate.Endpoint{Storage: storage.Options{Home: t.TempDir()}},
		ProgressInterval: time.Hour,
		Progress:         func(p migrate.Progress) { got = append(got, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d calls, want 2: %+v", len(got), got)
	}
	last := got[1]
	if got[0].Files != 1 || last.Files != 7 || last.TotalFiles != 7 || last.Records != 24 || last.Bytes != last.TotalBytes {
		t.Errorf("calls %+v", got)
	}
}

func TestTemporaryFilesAndRepairCopiesAreListedNotCopied(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	extra := []string{
		filepath.Join(src.paths.SessionsDir, ".s1.jsonl.0123456789ab.tmp"),
		filepath.Join(src.paths.SessionsDir, "s1.jsonl.broken-1753185600000"),
		filepath.Join(src.paths.SessionsDir, "s1.jsonl.torn-1753185600000"),
		filepath.Join(src.paths.SpillDir, ".0123456789abcdef.txt.0123456789ab.tmp"),
	}
	for _, p := range extra {
		if err := os.WriteFile(p, []byte("junk"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A lock directory of a finished writer is neither copied nor listed.
	if err := os.Mkdir(filepath.Join(src.paths.TasksDir, "gone.lock"), 0o700); err != nil {
		t.Fatal(err)
	}
	dstHome := t.TempDir()
	rep, err := migrate.Run(t.Context(), migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range rep.Skipped {
		got = append(got, s.File)
	}
	slices.Sort(extra)
	if !slices.Equal(got, extra) {
		t.Errorf("skipped %v, want %v", got, extra)
	}
	for _, f := range files(t, dstHome) {
		if strings.Contains(f, "tmp") || strings.Contains(f, "broken") || strings.Contains(f, "lock") {
			t.Errorf("copied %s", f)
		}
	}
}

// TestSourceLocksAreHonored holds the lock of one session the way a writer
// in another process would, and checks that the migration copies it only
// once the lock is released. With one worker, the files are copied in order
// and the lock the worker carries from the file before the locked log (s1's
// archive) cannot move onto the log's: the worker waits for it.
func TestSourceLocksAreHonored(t *testing.T) {
	for _, tc := range []struct {
		sid     string
		workers int
	}{{"s1", 0}, {"s1", 1}, {"agent-general-0badc0de", 1}} {
		t.Run(fmt.Sprintf("%s/workers=%d", tc.sid, tc.workers), func(t *testing.T) {
			src := buildProject(t, t.TempDir(), workdir, nil, "")
			lock, err := filelock.Acquire(t.Context(), filepath.Join(src.paths.SessionsDir, tc.sid+".jsonl"), filelock.Options{})
			if err != nil {
				t.Fatal(err)
			}
			dstHome := t.TempDir()
			copied := filepath.Join(dstHome, "projects", src.paths.Hash, "sessions", tc.sid+".jsonl")
			othersDone := make(chan bool, 1)
			var once sync.Once
			done := make(chan error, 1)
			opts := migrate.Options{
				From:    migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:      migrate.Endpoint{Storage: storage.Options{Home: dstHome}},
				Workers: tc.workers,
			}
			if tc.workers != 1 {
				// Reports after every file, which releases the lock a
				// worker carries: one worker must go without them.
				opts.ProgressInterval = -1
				opts.Progress = func(p migrate.Progress) {
					if p.Files == p.TotalFiles-1 {
						// Every file but the locked log is done; the log
						// has not been touched.
						_, err := os.Lstat(copied)
						once.Do(func() { othersDone <- os.IsNotExist(err) })
					}
				}
			}
			go func() {
				_, err := migrate.Run(t.Context(), opts)
				done <- err
			}()
			// Several workers copy the other files while the log is
			// locked: give them the time a loaded machine takes. One
			// worker is given half a second to go past the log wrongly.
			wait := 500 * time.Millisecond
			if tc.workers != 1 {
				wait = 20 * time.Second
			}
			select {
			case untouched := <-othersDone:
				if !untouched {
					t.Error("the locked session was copied while its lock was held")
				}
			case <-time.After(wait):
				// One worker waits on the locked log before the files after it.
				if tc.workers != 1 {
					t.Error("the other files were not copied while one log was locked")
				}
			case err := <-done:
				t.Fatalf("Run returned while a source lock was held: %v", err)
			}
			if _, err := os.Lstat(copied); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the locked session was copied while its lock was held: %v", err)
			}
			if err := lock.Release(); err != nil {
				t.Fatal(err)
			}
			if err := <-done; err != nil {
				t.Fatalf("Run after the lock was released: %v", err)
			}
			if _, err := os.Lstat(copied); err != nil {
				t.Errorf("the session was not copied after the lock was released: %v", err)
			}
		})
	}
}

// TestNoSessionLockIsHeldWhileWaitingForAnother checks that a worker does
// not keep the lock of the last log it copied while it goes on to other
// files: with one worker and a task list locked by someone else, the
// migration waits for that lock holding no session's.
func TestNoSessionLockIsHeldWhileWaitingForAnother(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	lock, err := filelock.Acquire(t.Context(), filepath.Join(src.paths.TasksDir, "shared"), filelock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts := migrate.Options{
		From:    migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:      migrate.Endpoint{Storage: storage.Options{Home: t.TempDir()}},
		Workers: 1,
	}
	// The sessions are copied before the task lists: once the worker
	// writes a task, it has no session left to copy, and goes on to wait
	// for the shared list (a loaded machine may take a while to get there).
	atTasks := make(chan struct{})
	seen := sync.OnceFunc(func() { close(atTasks) })
	migrate.OnWrite(&opts, func(rel string) error {
		if strings.HasPrefix(filepath.ToSlash(rel), "tasks/") {
			seen()
		}
		return nil
	})
	done := make(chan error, 1)
	go func() {
		_, err := migrate.Run(t.Context(), opts)
		done <- err
	}()
	select {
	case <-atTasks:
	case err := <-done:
		t.Fatalf("Run returned while a task list was locked: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the migration never copied a task")
	}
	// It then lets go of every session's lock while it waits.
	var held []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		entries, err := os.ReadDir(src.paths.SessionsDir)
		if err != nil {
			t.Fatal(err)
		}
		held = held[:0]
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), filelock.Suffix) && e.Name() != filelock.IdleName {
				held = append(held, e.Name())
			}
		}
		if len(held) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(held) > 0 {
		t.Errorf("%v held while the migration waits for a task list", held)
	}
	select {
	case err := <-done:
		t.Fatalf("Run returned while a task list was locked: %v", err)
	default:
	}
	if err := lock.Release(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestModificationTimesAreKept gives every file of a home, and the
// directories whose times the stores and cleanup read (context archives,
// their notes, task lists), a distinct time in the past, migrates the
// home to AEAD and checks the destination has the same times: sessions
// list in the same order, the latest session is still the latest, and
// cleanup sees the data's age, not the migration's.
func TestModificationTimesAreKept(t *testing.T) {
	home := t.TempDir()
	f := buildProject(t, home, workdir, nil, "")
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(`{"hooks":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var kept []string // relative paths whose times must carry over
	var dirs []string
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(home, path)
		parent := filepath.Base(filepath.Dir(path))
		switch {
		case d.Type().IsRegular():
			kept = append(kept, rel)
		case strings.HasSuffix(d.Name(), ".context"), d.Name() == "notes", parent == "tasks":
			kept = append(kept, rel)
			dirs = append(dirs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)
	want := map[string]time.Time{}
	set := func(rel string, i int) {
		mt := base.Add(time.Duration(i) * 97 * time.Minute)
		if err := os.Chtimes(filepath.Join(home, rel), mt, mt); err != nil {
			t.Fatal(err)
		}
		want[rel] = mt
	}
	for i, rel := range kept {
		if !slices.Contains(dirs, rel) {
			set(rel, i)
		}
	}
	// Directories after their files, deepest first.
	slices.SortFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for i, rel := range dirs {
		set(rel, len(kept)+i)
	}
	// The older session is made the latest, against name order.
	set(filepath.Join("projects", f.paths.Hash, "sessions", "s1.jsonl"), 10_000)
	// A time past 2262 does not fit in int64 nanoseconds (os.Chtimes
	// wraps it, so it is set here directly). The portable build sets times
	// through os.Chtimes and refuses such a time, so it is left out there.
	if !migrate.Portable {
		far := filepath.Join("projects", f.paths.Hash, "spill", f.spillRefs[0]+".txt")
		want[far] = time.Date(2400, 1, 1, 0, 0, 0, 7, time.UTC)
		ts, err := unix.TimeToTimespec(want[far])
		if err != nil {
			t.Fatal(err)
		}
		if err := unix.UtimesNano(filepath.Join(home, far), []unix.Timespec{ts, ts}); err != nil {
			t.Fatal(err)
		}
	}

	dstHome := filepath.Join(t.TempDir(), "new")
	c := aead(t, "k1", 1)
	if _, err := migrate.Run(t.Context(), migrate.Options{
		AllProjects: true,
		From:        migrate.Endpoint{Storage: storage.Options{Home: home}},
		To:          migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: c}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, rel := range kept {
		st, err := os.Lstat(filepath.Join(dstHome, rel))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if !st.ModTime().Equal(want[rel]) {
			t.Errorf("%s: modified %v, want %v as in the source", rel, st.ModTime(), want[rel])
		}
	}
	srcList := listSessions(t, f.paths.SessionsDir, storage.Encoding{})
	dstList := listSessions(t, resolve(t, workdir, storage.Options{Home: dstHome}).SessionsDir, storage.Encoding{Codec: c, ProjectID: f.paths.Hash})
	if !slices.Equal(dstList, srcList) || srcList[0] != "s1" {
		t.Errorf("sessions by time: %v in the destination, %v in the source", dstList, srcList)
	}
}

// listSessions returns the ids of the sessions in dir, latest first.
func listSessions(t *testing.T, dir string, enc storage.Encoding) []string {
	t.Helper()
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	infos, err := cp.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, in := range infos {
		ids = append(ids, in.ID)
	}
	return ids
}
