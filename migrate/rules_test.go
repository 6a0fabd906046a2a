package migrate_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestBadInputFailsWithOneLineAndChangesNothing(t *testing.T) {
	k1 := aead(t, "k1", 1)
	type setup struct {
		src     fixture
		opts    migrate.Options
		dstRoot string // the directory whose state must not change
	}
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, s *setup)
		want    error
		text    []string // substrings of the message
	}{
		{
			name: "source read without its codec",
			prepare: func(t *testing.T, s *setup) {
				s.opts.From.Storage.Codec = nil
			},
			want: migrate.ErrUnreadable,
			text: []string{"Encoded storage requires its configured codec", " record "},
		},
		{
			name: "source read with another codec",
			prepare: func(t *testing.T, s *setup) {
				s.opts.From.Storage.Codec = aead(t, "k2", 1)
			},
			want: migrate.ErrUnreadable,
			text: []string{"explicit migration is required", " record "},
		},
		{
			name: "source read with the wrong key",
			prepare: func(t *testing.T, s *setup) {
				s.opts.From.Storage.Codec = aead(t, "k1", 9)
			},
			want: migrate.ErrUnreadable,
			text: []string{"Storage decode failed", " record "},
		},
		{
			// Leaving out every record would make an empty destination
			// that verifies: a wrong key is refused all the same.
			name: "source read with the wrong key, skipping what is unreadable",
			prepare: func(t *testing.T, s *setup) {
				s.opts.From.Storage.Codec = aead(t, "k1", 9)
				s.opts.SkipUnreadable = true
			},
			want: migrate.ErrUnreadable,
			text: []string{"no record could be decoded with the source configuration (codec xchacha20poly1305.v1.k1)", "check its codec and key"},
		},
		{
			name: "dry run without the source's codec, skipping what is unreadable",
			prepare: func(t *testing.T, s *setup) {
				s.opts.From.Storage.Codec = nil
				s.opts.SkipUnreadable = true
				s.opts.DryRun = true
			},
			want: migrate.ErrUnreadable,
			text: []string{"no record could be decoded", "(no codec)"},
		},
		{
			name: "destination project not empty",
			prepare: func(t *testing.T, s *setup) {
				dst := resolve(t, workdir, s.opts.To.Storage)
				write(t, filepath.Join(dst.ProjectDir(), "sessions", "other.jsonl"), "x\n")
			},
			want: migrate.ErrDestinationNotEmpty,
		},
		{
			name: "destination home not empty",
			prepare: func(t *testing.T, s *setup) {
				s.opts.AllProjects = true
				s.opts.From.Workdir = ""
				write(t, filepath.Join(s.opts.To.Storage.Home, "notes.txt"), "mine")
			},
			want: migrate.ErrDestinationNotEmpty,
		},
		{
			name: "destination is a file",
			prepare: func(t *testing.T, s *setup) {
				dst := resolve(t, workdir, s.opts.To.Storage)
				write(t, dst.ProjectDir(), "x")
			},
			want: migrate.ErrDestinationNotEmpty,
		},
		{
			name: "destination inside the source project",
			prepare: func(t *testing.T, s *setup) {
				s.opts.To.Storage.Home = filepath.Join(s.src.projectDir(), "sessions", "new")
				s.dstRoot = s.src.home
			},
			want: migrate.ErrInsideSource,
		},
		{
			name: "destination home inside the source home",
			prepare: func(t *testing.T, s *setup) {
				s.opts.AllProjects = true
				s.opts.From.Workdir = ""
				s.opts.To.Storage.Home = filepath.Join(s.src.home, "projects", "new")
				s.dstRoot = s.src.home
			},
			want: migrate.ErrInsideSource,
		},
		{
			name: "destination is the source",
			prepare: func(t *testing.T, s *setup) {
				s.opts.To.Storage.Home = s.src.home
				s.dstRoot = s.src.home
			},
			want: migrate.ErrSameAsSource,
		},
		{
			name: "destination is the source under another namespace and codec",
			prepare: func(t *testing.T, s *setup) {
				s.opts.To.Storage = storage.Options{Namespace: "acme", Home: s.src.home + "/.", Codec: nil}
				s.dstRoot = s.src.home
			},
			want: migrate.ErrSameAsSource,
		},
		{
			name: "destination reaches the source through a symlink",
			prepare: func(t *testing.T, s *setup) {
				link := filepath.Join(t.TempDir(), "alias")
				if err := os.Symlink(s.src.home, link); err != nil {
					t.Fatal(err)
				}
				s.opts.To.Storage.Home = link
				s.dstRoot = s.src.home
			},
			want: migrate.ErrSameAsSource,
		},
		{
			name: "symlink in the sessions directory",
			prepare: func(t *testing.T, s *setup) {
				symlink(t, "/etc/hostname", filepath.Join(s.src.paths.SessionsDir, "s9.jsonl"))
			},
			want: migrate.ErrSymlink,
			text: []string{"s9.jsonl"},
		},
		{
			name: "symlink inside an archive",
			prepare: func(t *testing.T, s *setup) {
				symlink(t, "/etc/hostname", filepath.Join(s.src.paths.SessionsDir, "s1.context", "notes", strings.Repeat("a", 64)+".md"))
			},
			want: migrate.ErrSymlink,
		},
		{
			name: "symlinked project directory",
			prepare: func(t *testing.T, s *setup) {
				real := filepath.Join(s.src.home, "real")
				if err := os.Rename(s.src.projectDir(), real); err != nil {
					t.Fatal(err)
				}
				symlink(t, real, s.src.projectDir())
			},
			want: migrate.ErrSymlink,
		},
		{
			// Round 128: the home may be a symlink, nothing below it. The
			// projects directory of a copied home leading elsewhere was
			// followed and its project migrated.
			name: "symlinked projects directory of the source",
			prepare: func(t *testing.T, s *setup) {
				projects := storage.ProjectsDir(s.src.home)
				outside := filepath.Join(t.TempDir(), "projects")
				if err := os.Rename(projects, outside); err != nil {
					t.Fatal(err)
				}
				symlink(t, outside, projects)
			},
			want: migrate.ErrSymlink,
			text: []string{"projects is a symlink"},
		},
		{
			// Round 128: a projects directory planted in the destination
			// home as a link to another directory took the copy there.
			name: "destination projects directory is a symlink",
			prepare: func(t *testing.T, s *setup) {
				outside := t.TempDir()
				if err := os.MkdirAll(s.opts.To.Storage.Home, 0o700); err != nil {
					t.Fatal(err)
				}
				symlink(t, outside, storage.ProjectsDir(s.opts.To.Storage.Home))
				s.dstRoot = outside
			},
			want: migrate.ErrSymlink,
			text: []string{"projects is a symlink"},
		},
		{
			name: "session being deleted",
			prepare: func(t *testing.T, s *setup) {
				log := filepath.Join(s.src.paths.SessionsDir, "s1.jsonl")
				if err := os.Rename(log, log+".deleting"); err != nil {
					t.Fatal(err)
				}
			},
			want: session.ErrDeleting,
			text: []string{"s1", "delete"},
		},
		{
			name: "unrecognized file in the project",
			prepare: func(t *testing.T, s *setup) {
				write(t, filepath.Join(s.src.projectDir(), "notes.txt"), "x")
			},
			want: migrate.ErrUnrecognized,
		},
		{
			name: "missing source",
			prepare: func(t *testing.T, s *setup) {
				s.opts.From.Workdir = "/srv/never-used"
				s.opts.To.Workdir = workdir
			},
			want: migrate.ErrNoSource,
		},
		{
			name: "destination is a symlink",
			prepare: func(t *testing.T, s *setup) {
				dst := resolve(t, workdir, s.opts.To.Storage)
				if err := os.MkdirAll(filepath.Dir(dst.ProjectDir()), 0o700); err != nil {
					t.Fatal(err)
				}
				symlink(t, t.TempDir(), dst.ProjectDir())
			},
			want: migrate.ErrSymlink,
		},
		{
			name: "disk full during the write",
			prepare: func(t *testing.T, s *setup) {
				migrate.FailWritesAfter(&s.opts, 4, syscall.ENOSPC)
			},
			want: syscall.ENOSPC,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &setup{src: buildProject(t, t.TempDir(), workdir, k1, "")}
			dstHome := filepath.Join(t.TempDir(), "dst")
			s.opts = migrate.Options{
				From: migrate.Endpoint{Workdir: workdir, Storage: s.src.opts},
				To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: aead(t, "k2", 2)}},
			}
			s.dstRoot = filepath.Dir(dstHome)
			tc.prepare(t, s)
			before := treeHash(t, s.src.home)
			dstBefore := treeHash(t, s.dstRoot)

			_, err := migrate.Run(t.Context(), s.opts)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			oneLine(t, err)
			for _, want := range tc.text {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%q does not say %q", err, want)
				}
			}
			unchanged(t, s.src.home, before)
			unchanged(t, s.dstRoot, dstBefore)
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestSkipUnreadableListsWhatIsLeftOut(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	log := filepath.Join(src.paths.SessionsDir, "s1.jsonl")
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[2] = "{torn\n"
	write(t, log, strings.Join(lines, ""))
	ctxDir := filepath.Join(src.paths.SessionsDir, "s1.context")
	index, _ := os.ReadFile(filepath.Join(ctxDir, "index.jsonl"))
	idx := strings.SplitAfter(string(index), "\n")
	write(t, filepath.Join(ctxDir, "index.jsonl"), idx[0]+"not json\n"+idx[1]+idx[2])
	write(t, filepath.Join(ctxDir, "notes", src.refs["s1"][0]+".md"), "tampered")
	write(t, filepath.Join(src.paths.TasksDir, "shared", "2.json"), `{"id":"2","subject":"x","status":"bogus","blockedBy":[],"blocks":[]}`)
	write(t, filepath.Join(src.paths.SpillDir, src.spillRefs[0]+".txt"), "tampered")
	symlink(t, "/etc/hostname", filepath.Join(src.paths.SpillDir, "0123456789abcdef.txt"))
	write(t, filepath.Join(src.projectDir(), "stray"), "x")
	before := treeHash(t, src.home)

	dstHome := t.TempDir()
	opts := migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: aead(t, "k1", 1)}},
	}
	if _, err := migrate.Run(t.Context(), opts); !errors.Is(err, migrate.ErrUnreadable) && !errors.Is(err, migrate.ErrSymlink) && !errors.Is(err, migrate.ErrUnrecognized) {
		t.Fatalf("without SkipUnreadable: %v", err)
	}
	opts.SkipUnreadable = true
	rep, err := migrate.Run(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	unchanged(t, src.home, before)
	got := map[string]string{}
	for _, s := range rep.Skipped {
		rel, _ := filepath.Rel(src.projectDir(), s.File)
		got[rel+"#"+s.Record] = s.Reason
	}
	for key, reason := range map[string]string{
		"sessions/s1.jsonl#3":               "the 2 after it are left out",
		"sessions/s1.context/index.jsonl#1": "Corrupt archive-index record",
		"sessions/s1.context/notes/" + src.refs["s1"][0] + ".md#" + src.refs["s1"][0]: "does not match its ref",
		"tasks/shared/2.json#2":                                  "status is missing or unknown",
		"spill/" + src.spillRefs[0] + ".txt#" + src.spillRefs[0]: "does not match its ref",
		"spill/0123456789abcdef.txt#":                            "symlink",
		"stray#":                                                 "unrecognized",
	} {
		if !strings.Contains(got[key], reason) {
			t.Errorf("skipped %s: %q, want it to say %q", key, got[key], reason)
		}
	}
	if len(got) != 7 {
		t.Errorf("skipped %v", got)
	}
	c := rep.Kinds
	if c[storage.KindCheckpoint].Records != 7 || c[storage.KindArchiveIndex].Records != 3 || c[storage.KindArchive].Records != 2 ||
		c[storage.KindTask].Records != 5 || c[storage.KindSpill].Records != 1 || !rep.Verified {
		t.Errorf("counts %+v, verified %v", c, rep.Verified)
	}
	for _, s := range rep.Skipped {
		if strings.Contains(s.Reason, "tampered") || strings.Contains(s.Reason, "torn") {
			t.Errorf("a reason shows record content: %q", s.Reason)
		}
	}
}

func TestFailedVerificationLeavesTheDestinationMarkedIncomplete(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	before := treeHash(t, src.home)
	dstHome := t.TempDir()
	opts := migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: lyingCodec{}}},
	}
	rep, err := migrate.Run(t.Context(), opts)
	if !errors.Is(err, migrate.ErrVerification) || rep.Verified || len(rep.Problems) == 0 {
		t.Fatalf("err = %v, verified %v, %d problems", err, rep.Verified, len(rep.Problems))
	}
	oneLine(t, err)
	dstRoot := rep.Destination.Root
	if err := migrate.CheckComplete(dstRoot); !errors.Is(err, migrate.ErrIncomplete) {
		t.Errorf("CheckComplete = %v, want ErrIncomplete", err)
	}
	// A run with a working codec clears the failed attempt and succeeds.
	opts.To.Storage.Codec = aead(t, "k1", 1)
	if _, err := migrate.Run(t.Context(), opts); err != nil {
		t.Fatalf("rerun: %v", err)
	}
	if err := migrate.CheckComplete(dstRoot); err != nil {
		t.Error(err)
	}
	dst := resolve(t, workdir, storage.Options{Home: dstHome})
	equalContents(t, read(t, src, dst, storage.Encoding{Codec: opts.To.Storage.Codec, ProjectID: dst.Hash}), read(t, src, src.paths, src.enc()))
	unchanged(t, src.home, before)
}

func TestVerificationReadsBackWhatReachedTheDisk(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	before := treeHash(t, src.home)
	dstHome := t.TempDir()
	opts := migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: aead(t, "k1", 1)}},
	}
	// One byte of the third record of s1's log changes on its way to disk.
	migrate.TamperWrites(&opts, func(rel string, b []byte) []byte {
		if filepath.Base(rel) == "s1.jsonl" {
			lines := bytes.SplitAfter(b, []byte("\n"))
			lines[2][len(lines[2])-10] ^= 1 // in the payload
		}
		return b
	})
	rep, err := migrate.Run(t.Context(), opts)
	if !errors.Is(err, migrate.ErrVerification) || rep.Verified {
		t.Fatalf("err = %v, verified %v", err, rep.Verified)
	}
	oneLine(t, err)
	if len(rep.Problems) != 1 || filepath.Base(rep.Problems[0].File) != "s1.jsonl" || rep.Problems[0].Record != "3" {
		t.Errorf("problems = %+v, want one naming record 3 of s1.jsonl", rep.Problems)
	}
	if err := migrate.CheckComplete(rep.Destination.Root); !errors.Is(err, migrate.ErrIncomplete) {
		t.Errorf("CheckComplete = %v, want ErrIncomplete", err)
	}
	unchanged(t, src.home, before)
}

// lyingCodec decodes every record to something else than it encoded.
type lyingCodec struct{}

func (lyingCodec) ID() string { return "liar-v1" }
func (lyingCodec) Encode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return append([]byte(nil), p...), nil
}
func (lyingCodec) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return append(append([]byte(nil), p...), ' '), nil
}

func TestRerunNeverDeletesWhatAMigrationDidNotWrite(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	other := buildProject(t, t.TempDir(), workdir, nil, "")
	dstHome := t.TempDir()
	opts := func(f fixture, c storage.Codec) migrate.Options {
		return migrate.Options{
			From: migrate.Endpoint{Workdir: workdir, Storage: f.opts},
			To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: c}},
		}
	}
	// Leave a failed migration of src behind.
	if _, err := migrate.Run(t.Context(), opts(src, lyingCodec{})); !errors.Is(err, migrate.ErrVerification) {
		t.Fatal(err)
	}
	dstRoot := filepath.Join(dstHome, "projects", src.paths.Hash)

	t.Run("another source", func(t *testing.T) {
		before := treeHash(t, dstRoot)
		_, err := migrate.Run(t.Context(), opts(other, nil))
		if !errors.Is(err, migrate.ErrDestinationNotEmpty) || !strings.Contains(err.Error(), "another source") {
			t.Errorf("err = %v", err)
		}
		unchanged(t, dstRoot, before)
	})
	t.Run("foreign entry", func(t *testing.T) {
		write(t, filepath.Join(dstRoot, "mine.txt"), "keep me")
		defer os.Remove(filepath.Join(dstRoot, "mine.txt"))
		before := treeHash(t, dstRoot)
		_, err := migrate.Run(t.Context(), opts(src, nil))
		if !errors.Is(err, migrate.ErrDestinationNotEmpty) || !strings.Contains(err.Error(), "mine.txt") {
			t.Errorf("err = %v", err)
		}
		unchanged(t, dstRoot, before)
	})
	t.Run("same source", func(t *testing.T) {
		if _, err := migrate.Run(t.Context(), opts(src, nil)); err != nil {
			t.Fatal(err)
		}
		if err := migrate.CheckComplete(dstRoot); err != nil {
			t.Error(err)
		}
	})
}

// TestWritebackErrorSeenByABackgroundSyncFailsTheMigration checks that an
// error that only the first (background) sync of the destination sees, as
// Linux reports a writeback error once, still fails the migration and
// leaves the destination marked incomplete.
func TestWritebackErrorSeenByABackgroundSyncFailsTheMigration(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("background syncs run on Linux only")
	}
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	before := treeHash(t, src.home)
	opts := migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: t.TempDir(), Codec: aead(t, "k1", 1)}},
	}
	migrate.FailBackgroundSync(&opts, 1, syscall.EIO)
	rep, err := migrate.Run(t.Context(), opts)
	if !errors.Is(err, syscall.EIO) {
		t.Fatalf("err = %v, want the sync's EIO", err)
	}
	oneLine(t, err)
	// Nothing may be presented as complete: the failed copy is removed
	// (or, if that failed too, left marked incomplete).
	root := rep.Destination.Root
	if _, err := os.Lstat(root); !errors.Is(err, fs.ErrNotExist) {
		if err := migrate.CheckComplete(root); !errors.Is(err, migrate.ErrIncomplete) {
			t.Errorf("destination %s is left and CheckComplete = %v, want ErrIncomplete", root, err)
		}
	}
	unchanged(t, src.home, before)
}

// TestSessionRecordsAreCheckedAsAReaderChecksThem checks that a log record
// is refused exactly when a reader must refuse it (its frame: seq,
// sessionId, parentSeq, ts, an event with a type) and that an event body
// of the wrong shape is copied byte for byte, as the log holds it.
func TestSessionRecordsAreCheckedAsAReaderChecksThem(t *testing.T) {
	const ts = `"ts":"2026-07-22T12:00:00.000Z"`
	first := `{"seq":1,"sessionId":"s1","parentSeq":null,` + ts + `,"event":{"type":"user","message":{"role":"user","content":"hi"}}}`
	for _, tc := range []struct {
		name, second string
		copied       bool
	}{
		{"event body of the wrong shape", `{"seq":2,"sessionId":"s1","parentSeq":1,` + ts + `,"event":{"type":"user","message":42}}`, true},
		{"unknown event type", `{"seq":2,"sessionId":"s1","parentSeq":1,` + ts + `,"event":{"type":"from_the_future"}}`, true},
		{"seq out of place", `{"seq":3,"sessionId":"s1","parentSeq":2,` + ts + `,"event":{"type":"user"}}`, false},
		{"another session's record", `{"seq":2,"sessionId":"s2","parentSeq":1,` + ts + `,"event":{"type":"user"}}`, false},
		{"event without a type", `{"seq":2,"sessionId":"s1","parentSeq":1,` + ts + `,"event":{"message":"hi"}}`, false},
		// A plaintext log may hold any bytes; encoded storage holds UTF-8.
		{"not UTF-8", `{"seq":2,"sessionId":"s1","parentSeq":1,` + ts + `,"event":{"type":"user","message":{"role":"user","content":"h` + "\xff" + `i"}}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			p := resolve(t, workdir, storage.Options{Home: home})
			if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
				t.Fatal(err)
			}
			log := first + "\n" + tc.second + "\n"
			write(t, filepath.Join(p.SessionsDir, "s1.jsonl"), log)
			to := aead(t, "k1", 1)
			dstHome := t.TempDir()
			rep, err := migrate.Run(t.Context(), migrate.Options{
				From: migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home}},
				To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: to}},
			})
			if !tc.copied {
				var se *storage.Error
				if !errors.Is(err, migrate.ErrUnreadable) || !errors.As(err, &se) || se.Record != "2" {
					t.Fatalf("Run = %v, want ErrUnreadable naming record 2", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			stored, err := os.ReadFile(filepath.Join(rep.Destination.Root, "sessions", "s1.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			enc := storage.Encoding{Codec: to, ProjectID: rep.Destination.Hash}
			var got []string
			for i, line := range strings.Split(strings.TrimSuffix(string(stored), "\n"), "\n") {
				plain, err := enc.Decode(t.Context(), storage.KindCheckpoint, "s1", strconv.Itoa(i+1), []byte(line))
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(plain))
			}
			if want := []string{first, tc.second}; !slices.Equal(got, want) {
				t.Errorf("the copy holds\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestAnEntryAnArchiveOrTaskListCannotHoldLeavesTheWholeUnitOut checks the
// units that are directories: an archive or task list holding an entry it
// cannot hold is left out whole with SkipUnreadable (and listed once, as a
// directory), and stops the migration without it; everything else is
// copied.
func TestAnEntryAnArchiveOrTaskListCannotHoldLeavesTheWholeUnitOut(t *testing.T) {
	for _, tc := range []struct {
		name, entry, unit string // entry and unit relative to the project
		symlink           bool
		kind              storage.Kind
		want              error
	}{
		{"a symlink among the notes", "sessions/s1.context/notes/0123456789abcdef.md", "sessions/s1.context", true, storage.KindArchive, migrate.ErrSymlink},
		{"a stray file in the archive", "sessions/s1.context/stray", "sessions/s1.context", false, storage.KindArchive, migrate.ErrUnrecognized},
		{"a directory in a task list", "tasks/shared/sub", "tasks/shared", false, storage.KindTask, migrate.ErrUnrecognized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := buildProject(t, t.TempDir(), workdir, nil, "")
			path := filepath.Join(src.projectDir(), tc.entry)
			switch {
			case tc.symlink:
				symlink(t, "/etc/hostname", path)
			case strings.HasSuffix(tc.entry, "sub"):
				if err := os.Mkdir(path, 0o700); err != nil {
					t.Fatal(err)
				}
			default:
				write(t, path, "x")
			}
			before := treeHash(t, src.home)
			opts := migrate.Options{
				From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:   migrate.Endpoint{Storage: storage.Options{Home: t.TempDir()}},
			}
			if _, err := migrate.Run(t.Context(), opts); !errors.Is(err, tc.want) {
				t.Fatalf("without SkipUnreadable: %v, want %v", err, tc.want)
			}
			opts.SkipUnreadable = true
			opts.To.Storage.Home = t.TempDir()
			rep, err := migrate.Run(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			unchanged(t, src.home, before)
			if len(rep.Skipped) != 1 || rep.Skipped[0].File != filepath.Join(src.projectDir(), tc.unit) ||
				!strings.Contains(rep.Skipped[0].Reason, "the whole directory is left out") {
				t.Fatalf("skipped %+v", rep.Skipped)
			}
			if _, err := os.Lstat(filepath.Join(rep.Destination.Root, tc.unit)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s was copied: %v", tc.unit, err)
			}
			if rep.Kinds[storage.KindCheckpoint].Records != 10 {
				t.Errorf("the logs were not copied: %+v", rep.Kinds)
			}
			if tc.kind == storage.KindTask && rep.Kinds[storage.KindArchive].Records != 3 || tc.kind == storage.KindArchive && rep.Kinds[storage.KindArchive].Records != 0 {
				t.Errorf("counts %+v", rep.Kinds)
			}
		})
	}
}

// TestSessionsDirectoryReplacedDuringTheCopyStopsIt checks that the source
// sessions directory is checked again before every log, including logs the
// carried lock is moved to: replaced by a symlink while the first log is
// copied, the copy stops with the storage directory error.
func TestSessionsDirectoryReplacedDuringTheCopyStopsIt(t *testing.T) {
	home := t.TempDir()
	p := resolve(t, workdir, storage.Options{Home: home})
	if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, sid := range []string{"s1", "s2", "s3"} {
		rec := `{"seq":1,"sessionId":"` + sid + `","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"hi"}}}` + "\n"
		if err := os.WriteFile(filepath.Join(p.SessionsDir, sid+".jsonl"), []byte(rec), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	opts := migrate.Options{
		From:    migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home}},
		To:      migrate.Endpoint{Storage: storage.Options{Home: t.TempDir(), Codec: aead(t, "k1", 1)}},
		Workers: 1,
	}
	swapped := false
	migrate.TamperWrites(&opts, func(rel string, b []byte) []byte {
		if !swapped {
			swapped = true
			moved := p.SessionsDir + ".moved"
			if err := os.Rename(p.SessionsDir, moved); err != nil {
				t.Error(err)
			} else if err := os.Symlink(moved, p.SessionsDir); err != nil {
				t.Error(err)
			}
		}
		return b
	})
	_, err := migrate.Run(t.Context(), opts)
	var se *storage.Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "Storage directory changed") {
		t.Fatalf("err = %v, want the storage directory error", err)
	}
	oneLine(t, err)
}

// TestSkipUnreadableCopiesAProjectWhoseOnlyRecordIsDamaged checks that the
// refusal of a run that decoded nothing is kept for decode failures: a
// plaintext log whose only record is torn is damaged data, left out and
// listed as SkipUnreadable promises.
func TestSkipUnreadableCopiesAProjectWhoseOnlyRecordIsDamaged(t *testing.T) {
	home := t.TempDir()
	p := resolve(t, workdir, storage.Options{Home: home})
	write(t, filepath.Join(p.SessionsDir, "s1.jsonl"), `{"seq":1,"sessionId":"s1","ti`)
	before := treeHash(t, home)
	rep, err := migrate.Run(t.Context(), migrate.Options{
		From:           migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home}},
		To:             migrate.Endpoint{Storage: storage.Options{Home: t.TempDir(), Codec: aead(t, "k1", 1)}},
		SkipUnreadable: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	unchanged(t, home, before)
	if len(rep.Skipped) != 1 || rep.Records != 0 || !rep.Verified {
		t.Errorf("skipped %v, %d records, verified %v; want the torn record listed", rep.Skipped, rep.Records, rep.Verified)
	}
}

// A plaintext log record that is not UTF-8 cannot be stored encoded: with
// SkipUnreadable it is left out and listed, with the records after it,
// as any record the destination cannot hold, and the readable prefix is
// copied (the encoding's own refusal is what finds it).
func TestARecordNotUTF8IsLeftOutWithSkipUnreadable(t *testing.T) {
	const ts = `"ts":"2026-07-22T12:00:00.000Z"`
	home := t.TempDir()
	p := resolve(t, workdir, storage.Options{Home: home})
	if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
		t.Fatal(err)
	}
	first := `{"seq":1,"sessionId":"s1","parentSeq":null,` + ts + `,"event":{"type":"user","message":{"role":"user","content":"hi"}}}`
	log := first + "\n" +
		`{"seq":2,"sessionId":"s1","parentSeq":1,` + ts + `,"event":{"type":"user","message":{"role":"user","content":"h` + "\xff" + `i"}}}` + "\n" +
		`{"seq":3,"sessionId":"s1","parentSeq":2,` + ts + `,"event":{"type":"user","message":{"role":"user","content":"ok"}}}` + "\n"
	write(t, filepath.Join(p.SessionsDir, "s1.jsonl"), log)
	to := aead(t, "k1", 1)
	rep, err := migrate.Run(t.Context(), migrate.Options{
		From:           migrate.Endpoint{Workdir: workdir, Storage: storage.Options{Home: home}},
		To:             migrate.Endpoint{Storage: storage.Options{Home: t.TempDir(), Codec: to}},
		SkipUnreadable: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Record != "2" || !strings.Contains(rep.Skipped[0].Reason, "not valid UTF-8") ||
		!strings.Contains(rep.Skipped[0].Reason, "the 1 after it") {
		t.Errorf("Skipped = %+v, want record 2, not UTF-8, and the 1 after it", rep.Skipped)
	}
	if got := rep.Kinds[storage.KindCheckpoint].Records; got != 1 {
		t.Errorf("%d records copied, want the first", got)
	}
}
