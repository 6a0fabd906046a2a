//go:build unix

package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
)

// TestAppendRefusesAHardLinkedLog plants a session log that is a hard link
// to a file outside the data home (a home copied from another machine, or
// one another user can plant in). An append wrote the outside file, and
// when that file held no newline (all of it a torn tail) the append copied
// its bytes into the home, cut it to nothing and wrote records in its
// place. Now the append fails with a *storage.Error, writes no torn copy and
// leaves the outside file as it was.
func TestAppendRefusesAHardLinkedLog(t *testing.T) {
	for _, tc := range []struct {
		name    string
		outside string
	}{
		{"a log's records", ""},
		{"no newline: a torn tail", "precious bytes with no newline"},
		{"records and a torn tail", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "sessions")
			cp := newCP(t, dir, session.FileOptions{})
			ctx := context.Background()
			appendTexts(t, cp, "s1", "one", "two")
			log := filepath.Join(dir, "s1.jsonl")
			outside := filepath.Join(root, "outside")
			content := readFile(t, log)
			switch tc.outside {
			case "":
			case "-":
				content = append(content, `{"seq":3,"sessi`...)
			default:
				content = []byte(tc.outside)
			}
			if err := os.WriteFile(outside, content, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(log); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(outside, log); err != nil {
				t.Fatal(err)
			}
			before := dirSnapshot(t, dir)
			cp = newCP(t, dir, session.FileOptions{})
			_, err := cp.Append(ctx, "s1", []session.Event{userText("three")}, session.AnyHead)
			storageError(t, err, "hard link")
			if got := readFile(t, outside); string(got) != string(content) {
				t.Fatalf("the outside file holds %q, want %q", got, content)
			}
			sameSnapshot(t, "sessions directory", before, dirSnapshot(t, dir))
		})
	}
}
