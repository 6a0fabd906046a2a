package session_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

func TestLogID(t *testing.T) {
	for _, tt := range []struct {
		name, id string
		ok       bool
	}{
		{"a.jsonl", "a", true},
		{"a-B_9.jsonl", "a-B_9", true},
		{".jsonl", "", false},
		{"a b.jsonl", "", false},
		{"a.jsonl.torn-1", "", false},
		{".a.jsonl.0123456789ab.tmp", "", false},
		{"a.json", "", false},
	} {
		if id, ok := session.LogID(tt.name); id != tt.id || ok != tt.ok {
			t.Errorf("LogID(%q) = %q, %v; want %q, %v", tt.name, id, ok, tt.id, tt.ok)
		}
	}
}

func TestParseCopyName(t *testing.T) {
	for _, tt := range []struct {
		name, id string
		kind     session.CopyKind
		ok       bool
	}{
		{"a.jsonl.broken-1700000000000", "a", session.CopyBroken, true},
		{"a.jsonl.torn-5", "a", session.CopyTorn, true},
		{"ab.jsonl.torn-5", "ab", session.CopyTorn, true},
		{"a.jsonl.broken-x", "", "", false},
		{"a.jsonl.broken-", "", "", false},
		{"a.jsonl.bak", "", "", false},
		{"a.jsonl", "", "", false},
		{"a b.jsonl.torn-1", "", "", false},
	} {
		id, kind, ok := session.ParseCopyName(tt.name)
		if id != tt.id || kind != tt.kind || ok != tt.ok {
			t.Errorf("ParseCopyName(%q) = %q, %q, %v; want %q, %q, %v", tt.name, id, kind, ok, tt.id, tt.kind, tt.ok)
		}
	}
}

// The copy a torn tail leaves is listed by Copies and removed by
// DeleteCopies, which leaves the log and other sessions' copies alone.
func TestCopiesAreListedAndDeletedWithoutTheLog(t *testing.T) {
	dir := t.TempDir()
	cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev := []session.Event{session.UserEvent{Message: model.UserText("hi")}}
	if _, err := cp.Append(t.Context(), "a", ev, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "a.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"seq":2,"par`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := cp.Append(t.Context(), "a", ev, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "ab.jsonl.broken-1")
	if err := os.WriteFile(other, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	copies, err := cp.Copies("a")
	if err != nil {
		t.Fatal(err)
	}
	if len(copies) != 1 {
		t.Fatalf("Copies = %q, want the one torn copy", copies)
	}
	if _, kind, ok := session.ParseCopyName(filepath.Base(copies[0])); !ok || kind != session.CopyTorn {
		t.Errorf("copy %s is not a torn copy", copies[0])
	}
	if err := cp.DeleteCopies(t.Context(), "a"); err != nil {
		t.Fatal(err)
	}
	left := entryNames(t, dir)
	if want := []string{"a.jsonl", "ab.jsonl.broken-1"}; !slices.Equal(left, want) {
		t.Errorf("left %q, want %q", left, want)
	}
	if h, err := cp.Head(t.Context(), "a"); err != nil || h != 2 {
		t.Errorf("Head = %d, %v; want the log kept", h, err)
	}
}
