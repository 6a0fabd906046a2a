package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

func TestLogBytesMatchTheDocumentedFormat(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	clock := fixedTime
	session.SetClock(cp, func() time.Time { return clock })
	if _, err := cp.Append(t.Context(), "s1", []session.Event{userText("hi")}, session.AnyHead); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(1250 * time.Millisecond)
	if _, err := cp.Append(t.Context(), "s1", []session.Event{session.AssistantEvent{Message: model.AssistantText("hello")}}, 1); err != nil {
		t.Fatal(err)
	}
	want := `{"seq":1,"sessionId":"s1","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"hi"}}}
{"seq":2,"sessionId":"s1","parentSeq":1,"ts":"2026-07-22T12:00:01.250Z","event":{"type":"assistant","message":{"role":"assistant","content":"hello"}}}
`
	if got := string(readFile(t, filepath.Join(dir, "s1.jsonl"))); got != want {
		t.Errorf("log is\n%s\nwant (the example of the package doc)\n%s", got, want)
	}
}

func TestBatchIsWrittenWholeWithSharedTimestamp(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	session.SetClock(cp, func() time.Time { return fixedTime.Add(999999 * time.Nanosecond) })
	appendTexts(t, cp, "b", "one", "two", "three")
	got := string(readFile(t, filepath.Join(dir, "b.jsonl")))
	if strings.Count(got, "\n") != 3 || !strings.HasSuffix(got, "\n") {
		t.Fatalf("log %q: want three newline-terminated lines", got)
	}
	if strings.Count(got, `"ts":"2026-07-22T12:00:00.000Z"`) != 3 {
		t.Errorf("every record of a batch carries the batch's millisecond time:\n%s", got)
	}
}

func TestReadsLogsWrittenByOtherImplementations(t *testing.T) {
	dir := t.TempDir()
	// Members in another order, extra members, escapes, blank lines,
	// CRLF and an event type this version does not know.
	log := "{\"sessionId\":\"ref\",\"seq\":1,\"ts\":\"2026-07-22T12:00:00.000Z\",\"parentSeq\":null,\"extra\":{\"x\":1},\"event\":{\"message\":{\"content\":\"h\\u0069\",\"role\":\"user\"},\"type\":\"user\",\"checkpoint\":true}}\n" +
		"\n" +
		"   \n" +
		"{\"seq\":2.0,\"sessionId\":\"ref\",\"parentSeq\":1,\"ts\":\"2026-07-22T12:00:00.5+00:00\",\"event\":{\"type\":\"new_kind\",\"data\":[1,2]}}\r\n" +
		"{ \"seq\" : 3 , \"sessionId\" : \"ref\" , \"parentSeq\" : 2 , \"ts\" : \"2026-07-22T12:00:01.000Z\" , \"event\" : { \"type\" : \"assistant\" , \"message\" : { \"role\" : \"assistant\" , \"content\" : [ ] } } }\n"
	if err := os.WriteFile(filepath.Join(dir, "ref.jsonl"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	cp := newCP(t, dir, session.FileOptions{})
	evs, err := cp.Read(t.Context(), "ref", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 {
		t.Fatalf("read %d records", len(evs))
	}
	if ue, ok := evs[0].Event.(session.UserEvent); !ok || ue.Message.Text != "hi" || ue.Checkpoint == nil || !*ue.Checkpoint {
		t.Errorf("record 1 = %#v", evs[0].Event)
	}
	if re, ok := evs[1].Event.(session.RawEvent); !ok || re.Type != "new_kind" {
		t.Errorf("record 2 = %#v", evs[1].Event)
	}
	if !evs[1].Time.Equal(fixedTime.Add(500 * time.Millisecond)) {
		t.Errorf("record 2 time %v", evs[1].Time)
	}
	if got := session.Fold(evs); len(got) != 2 || got[1].Blocks == nil {
		t.Errorf("Fold = %#v", got)
	}
	if h, err := cp.Append(t.Context(), "ref", []session.Event{userText("more")}, 3); err != nil || h != 4 {
		t.Fatalf("Append = %d, %v", h, err)
	}
	if !strings.HasPrefix(string(readFile(t, filepath.Join(dir, "ref.jsonl"))), log) {
		t.Error("appending rewrote existing records")
	}
}

func TestInvalidSessionIDsAreRejected(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	ctx := t.Context()
	ops := map[string]func(id string) error{
		"Append": func(id string) error {
			_, err := cp.Append(ctx, id, []session.Event{userText("x")}, session.AnyHead)
			return err
		},
		"Read":     func(id string) error { _, err := cp.Read(ctx, id, 0); return err },
		"Head":     func(id string) error { _, err := cp.Head(ctx, id); return err },
		"Delete":   func(id string) error { return cp.Delete(ctx, id) },
		"Truncate": func(id string) error { return cp.Truncate(ctx, id, 0, session.AnyHead) },
		"Verify":   func(id string) error { _, err := cp.Verify(ctx, id); return err },
		"Scan": func(id string) error {
			for _, err := range cp.Scan(ctx, id, 0) {
				return err
			}
			return nil
		},
		"Path": func(id string) error { _, err := cp.Path(id); return err },
	}
	for _, id := range []string{"", "a/b", "../x", "..", ".", "a.b", "a b", "ä", "x\n", "a\\b", "/abs", "id.jsonl"} {
		for name, op := range ops {
			err := op(id)
			se := storageError(t, err, "File session ids must contain only letters, digits, underscores or hyphens")
			if se.Kind != storage.KindCheckpoint {
				t.Errorf("%s(%q): kind %q", name, id, se.Kind)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("invalid ids left files behind: %v", ents)
	}
	for _, id := range []string{"a", "A-9_z", "0", "550e8400-e29b-41d4-a716-446655440000", "agent-1_child"} {
		if err := ops["Append"](id); err != nil {
			t.Errorf("Append(%q): %v", id, err)
		}
	}
}

func TestConstructionChecksCodecBeforeCreatingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	_, err := session.NewFileCheckpointer(dir, session.FileOptions{Encoding: storage.Encoding{Codec: badIDCodec{}}})
	storageError(t, err, "Invalid storage codec")
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("directory created despite an invalid codec: %v", err)
	}
	cp := newCP(t, dir, session.FileOptions{})
	st, err := os.Stat(cp.Dir())
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, %v; want 0700", st.Mode(), err)
	}
}

type badIDCodec struct{ failingCodec }

func (badIDCodec) ID() string { return "bad id!" }

func TestNewFilesAreOwnerOnly(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{Durable: true})
	appendTexts(t, cp, "m", "a", "b")
	st, err := os.Stat(filepath.Join(dir, "m.jsonl"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v, %v; want 0600", st.Mode(), err)
	}
	if err := cp.Truncate(t.Context(), "m", 1, 2); err != nil {
		t.Fatal(err)
	}
	st, err = os.Stat(filepath.Join(dir, "m.jsonl"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("log mode after truncate %v, %v; want 0600", st.Mode(), err)
	}
}

func TestFreshInstanceReadsTheDurableHead(t *testing.T) {
	dir := t.TempDir()
	appendTexts(t, newCP(t, dir, session.FileOptions{Durable: true}), "d", "1", "2", "3")
	cold := newCP(t, dir, session.FileOptions{})
	if h, err := cold.Head(t.Context(), "d"); err != nil || h != 3 {
		t.Errorf("Head = %d, %v; want 3", h, err)
	}
}

func TestHeadCacheSeesOtherWriters(t *testing.T) {
	dir := t.TempDir()
	ctx := t.Context()
	a := newCP(t, dir, session.FileOptions{})
	b := newCP(t, dir, session.FileOptions{})
	appendTexts(t, a, "shared", "a1")
	if h, _ := a.Head(ctx, "shared"); h != 1 {
		t.Fatalf("head %d", h)
	}
	appendTexts(t, b, "shared", "b1", "b2")
	if h, err := a.Head(ctx, "shared"); err != nil || h != 3 {
		t.Errorf("after another instance appended: Head = %d, %v; want 3", h, err)
	}
	if _, err := a.Append(ctx, "shared", []session.Event{userText("a2")}, 1); !errors.Is(err, session.ErrConflict) {
		t.Errorf("stale expectedHead through a warm cache: %v, want a conflict", err)
	}
	if err := b.Truncate(ctx, "shared", 1, 3); err != nil {
		t.Fatal(err)
	}
	if h, err := a.Head(ctx, "shared"); err != nil || h != 1 {
		t.Errorf("after another instance truncated: Head = %d, %v; want 1", h, err)
	}
	// A writer that does not use this package at all.
	line := `{"seq":2,"sessionId":"shared","parentSeq":1,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"ext"}}}` + "\n"
	f, err := os.OpenFile(filepath.Join(dir, "shared.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	if h, err := a.Append(ctx, "shared", []session.Event{userText("a3")}, 2); err != nil || h != 3 {
		t.Errorf("Append after an external write = %d, %v; want 3", h, err)
	}
	if got := readTexts(t, a, "shared"); !slices.Equal(got, []string{"a1", "ext", "a3"}) {
		t.Errorf("log holds %v", got)
	}
}

func TestTwoInstancesWithSameExpectedHeadOneWins(t *testing.T) {
	for _, cc := range codecMatrix(t) {
		t.Run(cc.name, func(t *testing.T) {
			dir := t.TempDir()
			opts := session.FileOptions{Encoding: storage.Encoding{Codec: cc.codec}}
			cps := []*session.FileCheckpointer{newCP(t, dir, opts), newCP(t, dir, opts)}
			appendTexts(t, cps[0], "race", "base")
			for round := range 4 {
				errs := make(chan error, 2)
				for i, cp := range cps {
					go func() {
						_, err := cp.Append(t.Context(), "race", []session.Event{userText("w" + string(rune('0'+i)))}, int64(round+1))
						errs <- err
					}()
				}
				var wins int
				for range 2 {
					if err := <-errs; err == nil {
						wins++
					} else if !errors.Is(err, session.ErrConflict) {
						t.Fatalf("round %d: %v", round, err)
					}
				}
				if wins != 1 {
					t.Fatalf("round %d: %d winners", round, wins)
				}
			}
			if got := readTexts(t, cps[1], "race"); len(got) != 5 {
				t.Errorf("log holds %v", got)
			}
		})
	}
}

func TestTruncateKeepsRawLinesByteForByte(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{ "seq":1, "sessionId":"raw", "parentSeq":null, "ts":"2026-07-22T12:00:00.000Z", "event":{"type":"user","message":{"role":"user","content":"\u0041 spaced"}} }`,
		``,
		`{"event":{"type":"x_custom","n":1},"ts":"2026-07-22T12:00:00.000Z","parentSeq":1,"sessionId":"raw","seq":2}`,
		`{"seq":3,"sessionId":"raw","parentSeq":2,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"drop me"}}}`,
	}
	log := strings.Join(lines, "\n") + "\n"
	path := filepath.Join(dir, "raw.jsonl")
	if err := os.WriteFile(path, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	cp := newCP(t, dir, session.FileOptions{})
	if err := cp.Truncate(t.Context(), "raw", 2, 3); err != nil {
		t.Fatal(err)
	}
	if got, want := string(readFile(t, path)), strings.Join(lines[:3], "\n")+"\n"; got != want {
		t.Errorf("after truncate:\n%q\nwant\n%q", got, want)
	}
	if h, _ := newCP(t, dir, session.FileOptions{}).Head(t.Context(), "raw"); h != 2 {
		t.Errorf("a cold instance sees head %d", h)
	}
	if err := cp.Truncate(t.Context(), "raw", 0, 2); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); len(got) != 0 {
		t.Errorf("truncate to 0 left %q", got)
	}
}

func TestTruncateOfMissingLogCreatesNoFile(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	if err := cp.Truncate(t.Context(), "ghost", 0, 0); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("truncate left %v", ents)
	}
}

func TestListSortsByModTimeAndSkipsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	for _, id := range []string{"old", "new", "mid", "tie-b", "tie-a"} {
		appendTexts(t, cp, id, id)
	}
	set := func(id string, at time.Time) {
		if err := os.Chtimes(filepath.Join(dir, id+".jsonl"), at, at); err != nil {
			t.Fatal(err)
		}
	}
	set("old", fixedTime)
	set("mid", fixedTime.Add(time.Hour))
	set("new", fixedTime.Add(2*time.Hour))
	set("tie-a", fixedTime.Add(30*time.Minute))
	set("tie-b", fixedTime.Add(30*time.Minute))
	for _, name := range []string{"notes.txt", "x.jsonl.broken-1", ".y.jsonl.abc.tmp", "z.jsonl.lock/", "dir.jsonl/", ".jsonl"} {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			os.Mkdir(p, 0o700)
		} else {
			os.WriteFile(p, []byte("x"), 0o600)
		}
	}
	infos, err := cp.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range infos {
		got = append(got, in.ID)
	}
	if want := []string{"new", "mid", "tie-a", "tie-b", "old"}; !slices.Equal(got, want) {
		t.Errorf("List = %v, want %v", got, want)
	}
	if !infos[0].ModTime.Equal(fixedTime.Add(2 * time.Hour)) {
		t.Errorf("ModTime %v", infos[0].ModTime)
	}
}

func TestSymlinkedLogIsRefused(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	appendTexts(t, cp, "victim", "a")
	outside := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	if err := os.Rename(filepath.Join(dir, "victim.jsonl"), outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "victim.jsonl")); err != nil {
		t.Fatal(err)
	}
	before := string(readFile(t, outside))
	ctx := t.Context()
	_, err := cp.Head(ctx, "victim")
	storageError(t, err, "Symlink")
	_, err = cp.Read(ctx, "victim", 0)
	storageError(t, err, "Symlink")
	_, err = cp.Append(ctx, "victim", []session.Event{userText("b")}, session.AnyHead)
	storageError(t, err, "Symlink")
	storageError(t, cp.Truncate(ctx, "victim", 0, session.AnyHead), "Symlink")
	_, err = cp.List(ctx)
	storageError(t, err, "Symlink")
	if after := string(readFile(t, outside)); after != before {
		t.Error("the symlink target changed")
	}
}

func TestSymlinkedDirectoryIsRefused(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "sessions")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	_, err := session.NewFileCheckpointer(link, session.FileOptions{})
	storageError(t, err, "must not be a symlink")
}

func TestReplacedDirectoryIsDetected(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "sessions")
	cp := newCP(t, dir, session.FileOptions{})
	appendTexts(t, cp, "s", "a")
	if err := os.Rename(dir, dir+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := cp.Append(t.Context(), "s", []session.Event{userText("b")}, session.AnyHead)
	storageError(t, err, "Storage directory changed")
	_, err = cp.Read(t.Context(), "s", 0)
	storageError(t, err, "Storage directory changed")
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("wrote into the new directory: %v", ents)
	}
	if got := strings.Count(string(readFile(t, filepath.Join(dir+".moved", "s.jsonl"))), "\n"); got != 1 {
		t.Errorf("the moved log has %d lines", got)
	}
}

// TestValidLineWithoutNewlineIsATornTail checks that a last record lacking
// its newline, valid as it may be, was never acknowledged: it does not
// read, and the next append sets it aside and takes its seq.
func TestValidLineWithoutNewlineIsATornTail(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	appendTexts(t, cp, "nl", "a", "b")
	path := filepath.Join(dir, "nl.jsonl")
	b := readFile(t, path)
	if err := os.WriteFile(path, b[:len(b)-1], 0o600); err != nil { // drop the last '\n'
		t.Fatal(err)
	}
	if got := readTexts(t, cp, "nl"); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("read %v", got)
	}
	appendTexts(t, cp, "nl", "c")
	if got := readTexts(t, newCP(t, dir, session.FileOptions{}), "nl"); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("read %v after appending to a log with a torn tail", got)
	}
	aside, _ := filepath.Glob(path + ".torn-*")
	if len(aside) != 1 {
		t.Fatalf("torn copies %v", aside)
	}
	start := bytes.IndexByte(b, '\n') + 1
	if got := readFile(t, aside[0]); !bytes.Equal(got, b[start:len(b)-1]) {
		t.Errorf("torn copy %q", got)
	}
}

func TestOverlongLinesAreCorruptRecordsAndNeverWritten(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	session.SetMaxLine(cp, 300)
	appendTexts(t, cp, "long", "short")
	before := readFile(t, filepath.Join(dir, "long.jsonl"))
	_, err := cp.Append(t.Context(), "long", []session.Event{userText(strings.Repeat("x", 400))}, session.AnyHead)
	storageError(t, err, "line length limit")
	if after := readFile(t, filepath.Join(dir, "long.jsonl")); string(after) != string(before) {
		t.Error("an overlong record was written")
	}
	// A line longer than the limit in the file (written by someone else)
	// is reported without being read into memory.
	big := newCP(t, dir, session.FileOptions{})
	appendTexts(t, big, "long", strings.Repeat("y", 100<<10), "after")
	_, err = cp.Read(t.Context(), "long", 0)
	se := storageError(t, err, "Corrupt checkpoint record 2")
	if se.Record != "2" || strings.Contains(err.Error(), "yyyy") {
		t.Errorf("error %v", err)
	}
	problems, err := cp.Verify(t.Context(), "long")
	if err != nil || len(problems) != 1 || problems[0].Kind != storage.ProblemTooLong || problems[0].Tail {
		t.Errorf("Verify = %+v, %v", problems, err)
	}
}

func TestEncodeFailureLeavesLogByteIdentical(t *testing.T) {
	dir := t.TempDir()
	ok := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: failingCodec{}}})
	appendTexts(t, ok, "enc", "1", "2")
	path := filepath.Join(dir, "enc.jsonl")
	before := readFile(t, path)
	failing := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: failingCodec{failOn: "4"}}})
	_, err := failing.Append(t.Context(), "enc", []session.Event{userText("3"), userText("4")}, 2)
	se := storageError(t, err, "Storage encode failed (checkpoint)")
	if se.Record != "4" || se.File != path {
		t.Errorf("error names file %q record %q", se.File, se.Record)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("error %q leaks the codec's error text", err)
	}
	if after := readFile(t, path); string(after) != string(before) {
		t.Error("a failed encode changed the log")
	}
	if h, _ := failing.Head(t.Context(), "enc"); h != 2 {
		t.Errorf("head %d after a failed encode", h)
	}
}

func TestLockIsHeldWhileTheCodecRuns(t *testing.T) {
	dir := t.TempDir()
	var sawLock []bool
	c := failingCodec{during: func() {
		_, err := os.Stat(filepath.Join(dir, "locked.jsonl.lock"))
		sawLock = append(sawLock, err == nil)
	}}
	cp := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: c}})
	appendTexts(t, cp, "locked", "a", "b")
	if len(sawLock) != 2 || !sawLock[0] || !sawLock[1] {
		t.Errorf("lock directory present during encode: %v", sawLock)
	}
	if _, err := os.Stat(filepath.Join(dir, "locked.jsonl.lock")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock directory left behind: %v", err)
	}
}

func TestOtherProcessesLockIsHonored(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	appendTexts(t, cp, "busy", "a")
	// A live holder (fresh lock directory) blocks every operation until
	// the context ends.
	if err := os.Mkdir(filepath.Join(dir, "busy.jsonl.lock"), 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := cp.Append(ctx, "busy", []session.Event{userText("b")}, session.AnyHead); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Append under another holder's lock: %v", err)
	}
	if got := strings.Count(string(readFile(t, filepath.Join(dir, "busy.jsonl"))), "\n"); got != 1 {
		t.Errorf("log has %d lines", got)
	}
	// List takes no lock.
	if infos, err := cp.List(t.Context()); err != nil || len(infos) != 1 {
		t.Errorf("List = %v, %v", infos, err)
	}
}

func TestDeleteRemovesOnlyTheLog(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	appendTexts(t, cp, "del", "a")
	ctxDir := filepath.Join(dir, "del.context")
	os.Mkdir(ctxDir, 0o700)
	if err := cp.Delete(t.Context(), "del"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "del.jsonl")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("log still there: %v", err)
	}
	if _, err := os.Stat(ctxDir); err != nil {
		t.Errorf("Delete removed the context directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "del.jsonl.lock")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock left behind: %v", err)
	}
}

func TestTailReadMemoryDoesNotGrowWithTheLog(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a few thousand records")
	}
	measure := func(records int) (allocs float64, bytes uint64) {
		dir := t.TempDir()
		cp := newCP(t, dir, session.FileOptions{})
		texts := make([]string, records)
		for i := range texts {
			texts[i] = fmt.Sprintf("record %d %s", i, strings.Repeat("x", 500))
		}
		appendTexts(t, cp, "tail", texts...)
		read := func() {
			evs, err := cp.Read(t.Context(), "tail", int64(records-10))
			if err != nil || len(evs) != 10 {
				t.Fatalf("Read = %d, %v", len(evs), err)
			}
		}
		read() // warm the head cache
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		allocs = testing.AllocsPerRun(5, read)
		runtime.ReadMemStats(&after)
		return allocs, (after.TotalAlloc - before.TotalAlloc) / 6
	}
	smallAllocs, smallBytes := measure(200)
	bigAllocs, bigBytes := measure(4000)
	t.Logf("Read(head-10): %v allocs, %d B for 200 records; %v allocs, %d B for 4000", smallAllocs, smallBytes, bigAllocs, bigBytes)
	if bigAllocs > smallAllocs+20 || bigBytes > smallBytes+64<<10 {
		t.Errorf("reading the last 10 records of a 20x longer log costs %v allocs / %d B instead of %v / %d",
			bigAllocs, bigBytes, smallAllocs, smallBytes)
	}
}

// TestOverlongEncodedRecordsAreNeverWritten checks the line limit against
// the stored form of an encoded record, which is longer than its
// plaintext: a record whose plaintext fits but whose envelope does not is
// refused, and the log is unchanged.
func TestOverlongEncodedRecordsAreNeverWritten(t *testing.T) {
	dir := t.TempDir()
	enc := storage.Encoding{Codec: aead(t, codec.XChaCha20Poly1305, "k1", 1)}
	cp := newCP(t, dir, session.FileOptions{Encoding: enc})
	session.SetMaxLine(cp, 600)
	appendTexts(t, cp, "long", "short")
	before := readFile(t, filepath.Join(dir, "long.jsonl"))
	// About 500 bytes of plaintext, about 770 stored.
	_, err := cp.Append(t.Context(), "long", []session.Event{userText("short"), userText(strings.Repeat("x", 400))}, session.AnyHead)
	storageError(t, err, "line length limit")
	if after := readFile(t, filepath.Join(dir, "long.jsonl")); string(after) != string(before) {
		t.Error("a batch holding an overlong record was written")
	}
	if got := readTexts(t, cp, "long"); !slices.Equal(got, []string{"short"}) {
		t.Errorf("read %v", got)
	}
}

// TestDurableAppendMakesANewLogsNameDurableFirst checks the order of a
// durable append that creates the log: the directory is synced while the
// file is still empty, so that a later append (which does not sync the
// directory) never depends on a failed first write having synced it; and a
// failed directory sync removes the empty file, so that the next append
// creates it and syncs again.
func TestDurableAppendMakesANewLogsNameDurableFirst(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{Durable: true})
	log := filepath.Join(dir, "s1.jsonl")
	var sizes []int64
	fail := true
	session.SetSyncDir(cp, func(d string) error {
		if d != dir {
			t.Errorf("synced %s, want %s", d, dir)
		}
		fi, err := os.Stat(log)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, fi.Size())
		if fail {
			fail = false
			return errors.New("injected: cannot sync directory")
		}
		return nil
	})
	if _, err := cp.Append(t.Context(), "s1", []session.Event{userText("a")}, session.AnyHead); err == nil {
		t.Fatal("Append succeeded although the directory sync failed")
	}
	if _, err := os.Stat(log); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the empty log was left after the failed sync: %v", err)
	}
	appendTexts(t, cp, "s1", "b")
	appendTexts(t, cp, "s1", "c") // the log exists: no sync
	if !slices.Equal(sizes, []int64{0, 0}) {
		t.Errorf("the directory was synced with the log at sizes %v, want [0 0]", sizes)
	}
	if got := readTexts(t, cp, "s1"); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("read %v", got)
	}
}

// An append leaves its lock directory parked (filelock.IdleName) for the
// next lock of the directory, so that a turn's hold and the appends after it
// rename one directory instead of creating and removing one each; reads of
// a directory without one leave none.
func TestAppendsParkTheLockDirectoryForTheNextLock(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parking needs no-replace renames (Linux)")
	}
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	idle := filepath.Join(dir, filelock.IdleName)
	if _, err := cp.Head(t.Context(), "s"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(idle); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a read parked a lock directory: %v", err)
	}
	if _, err := cp.Append(t.Context(), "s", []session.Event{userText("one")}, 0); err != nil {
		t.Fatal(err)
	}
	parked, err := os.Lstat(idle)
	if err != nil {
		t.Fatalf("no parked lock directory after an append: %v", err)
	}
	release, err := cp.Hold(t.Context(), "s")
	if err != nil {
		t.Fatal(err)
	}
	lock, err := os.Lstat(filepath.Join(dir, "s.jsonl"+filelock.Suffix))
	if err != nil || !os.SameFile(lock, parked) {
		t.Fatalf("the hold did not take the parked directory: %v", err)
	}
	if _, err := cp.Append(t.Context(), "s", []session.Event{userText("two")}, 1); err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	again, err := os.Lstat(idle)
	if err != nil || !os.SameFile(again, parked) {
		t.Fatalf("the hold's lock directory was not parked again: %v", err)
	}
	if h, err := cp.Head(t.Context(), "s"); err != nil || h != 2 {
		t.Fatalf("Head = %d, %v", h, err)
	}
}
