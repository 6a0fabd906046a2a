package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Every name a data home makes from a session or task-list id, for every
// id length up to storage.MaxIDLength, is made on a real file system and
// read back by the readers that list a sessions directory: the log and
// its lock (always the reference's names, <id>.jsonl and <id>.jsonl.lock),
// the copies set aside by a repair and an append, the log set aside by a
// delete, a temporary file of the log, the context archive and its lock,
// the task list directory and its lock. The log's lock of an id one
// longer than the limit does not fit: the limit is no higher than the
// reference's own names allow.
func TestEveryNameOfEveryIDLengthFitsAndIsRecognised(t *testing.T) {
	dir := t.TempDir()
	const ms = 1764936000000
	for n := 1; n <= storage.MaxIDLength; n++ {
		id := strings.Repeat("a", n-1) + "z"
		log := id + session.LogSuffix
		if got := filelock.Name(log); got != log+filelock.Suffix {
			t.Fatalf("id of %d: the log's lock is %s, not the reference's <id>.jsonl.lock", n, got)
		}
		if got := filelock.Name(id); got != id+filelock.Suffix {
			t.Fatalf("id of %d: the task list's lock is %s, not <id>.lock", n, got)
		}
		files := []string{log, session.DeletingName(id), safefs.TempName(log, "0123456789ab")}
		for _, k := range []session.CopyKind{session.CopyBroken, session.CopyTorn} {
			for _, try := range []int{0, 1, 99} {
				name := session.CopyName(log, k, ms, try)
				if got, kind, ok := session.ParseCopyName(name); !ok || got != id || kind != k {
					t.Fatalf("id of %d: ParseCopyName(%s) = %.20s…, %s, %v", n, name, got, kind, ok)
				}
				if _, ok := session.LogID(name); ok {
					t.Fatalf("id of %d: copy %s is taken for a log", n, name)
				}
				files = append(files, name)
			}
		}
		if got, ok := session.DeletingID(session.DeletingName(id)); !ok || got != id {
			t.Fatalf("id of %d: DeletingID(%s) = %.20s…, %v", n, session.DeletingName(id), got, ok)
		}
		dirs := []string{filelock.Name(log), id + ".context", filelock.Name(id + ".context"), id, filelock.Name(id)}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
				t.Fatalf("id of %d: %v", n, err)
			}
		}
		for _, d := range dirs {
			if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil && !errors.Is(err, os.ErrExist) {
				t.Fatalf("id of %d: %v", n, err)
			}
		}
	}
	// The listing sees one log per id, and nothing else as a log.
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	infos, err := cp.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != storage.MaxIDLength {
		t.Errorf("List found %d logs, want %d", len(infos), storage.MaxIDLength)
	}
	over := strings.Repeat("o", storage.MaxIDLength+1) + session.LogSuffix + filelock.Suffix
	if err := os.Mkdir(filepath.Join(dir, over), 0o700); !errors.Is(err, syscall.ENAMETOOLONG) {
		t.Errorf("the lock of a log with an id of %d characters: %v, want ENAMETOOLONG", storage.MaxIDLength+1, err)
	}
}

// The short form of a copy's name is one only for an id too long for the
// usual form: a file named so beside a shorter id's log is none of its
// copies (a delete must not remove it).
func TestAShortCopyNameOfAShortIDIsNoCopy(t *testing.T) {
	for _, name := range []string{"abc.broken-123", "abc.torn-1", strings.Repeat("a", 228) + ".broken-123", strings.Repeat("a", 230) + ".torn-12345"} {
		if id, _, ok := session.ParseCopyName(name); ok {
			t.Errorf("ParseCopyName(%.30s…) = %.20s…, a copy", name, id)
		}
	}
	for _, name := range []string{strings.Repeat("a", 229) + ".broken-123", strings.Repeat("a", 231) + ".torn-12345", "abc.jsonl.torn-1"} {
		if _, _, ok := session.ParseCopyName(name); !ok {
			t.Errorf("ParseCopyName(%.30s…): not a copy", name)
		}
	}
}
