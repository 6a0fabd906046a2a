package task

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

var plain = storage.Encoding{}

func TestTasksPersistAcrossInstances(t *testing.T) {
	dir := t.TempDir()
	a := newFile(t, dir, "shared", plain)
	mustCreate(t, a, "one")
	mustCreate(t, a, "two")
	mustUpdate(t, a, "2", UpdateInput{AddBlockedBy: []string{"1"}, Metadata: map[string]any{"k": "v"}})
	want, err := a.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b := newFile(t, dir, "shared", plain)
	got, err := b.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("second instance sees %+v, want %+v", got, want)
	}
	if tk := mustCreate(t, b, "three"); tk.ID != "3" {
		t.Fatalf("second instance created id %s, want 3", tk.ID)
	}
}

func TestListsAreSeparatePerListID(t *testing.T) {
	dir := t.TempDir()
	private := newFile(t, dir, DefaultListID("session-a", ""), plain)
	other := newFile(t, dir, DefaultListID("session-b", ""), plain)
	mustCreate(t, private, "mine")
	if ts, err := other.List(t.Context()); err != nil || len(ts) != 0 {
		t.Fatalf("session b sees %v, %v", ts, err)
	}
	shared1 := newFile(t, dir, DefaultListID("session-a", "team"), plain)
	shared2 := newFile(t, dir, DefaultListID("session-b", "team"), plain)
	mustCreate(t, shared1, "ours")
	if ts, err := shared2.List(t.Context()); err != nil || len(ts) != 1 || ts[0].Subject != "ours" {
		t.Fatalf("shared list seen as %v, %v", ts, err)
	}
}

func TestRecordFilesArePrettyJSONWithPrivateModes(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	tk := mustCreate(t, s, "a <b> & c")
	want, err := Marshal(tk)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "list", "1.json")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || !bytes.HasPrefix(got, []byte("{\n  \"id\": \"1\",\n")) {
		t.Fatalf("file holds %q, want %q", got, want)
	}
	for p, mode := range map[string]fs.FileMode{path: 0o600, filepath.Join(dir, "list"): 0o700} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != mode {
			t.Errorf("%s has mode %v, want %v", p, st.Mode().Perm(), mode)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "list.lock")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock directory left behind: %v", err)
	}
}

func TestTraversalIDIsSanitized(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	mustCreate(t, s, "one")
	// A valid-looking record just outside the list directory.
	secret := []byte(`{"id":"secret","subject":"s","status":"pending","blockedBy":[],"blocks":[]}`)
	if err := os.WriteFile(filepath.Join(dir, "secret.json"), secret, 0o600); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	for _, id := range []string{"../secret", "..", "/etc/passwd", "..\\secret"} {
		if _, ok, err := s.Get(t.Context(), id); ok || err != nil {
			t.Errorf("Get(%q) = %v, %v; want not found", id, ok, err)
		}
		if _, err := s.Update(t.Context(), id, UpdateInput{Subject: ptr("x")}); !errors.Is(err, ErrNotFound) {
			t.Errorf("Update(%q) error = %v, want not found", id, err)
		}
		if _, err := s.Update(t.Context(), "1", UpdateInput{AddBlockedBy: []string{id}}); !errors.Is(err, ErrNotFound) {
			t.Errorf("edge to %q: error = %v, want not found", id, err)
		}
	}
	assertSameFiles(t, before, snapshot(t, dir))
	if got := fileStem("../secret") + recordExt; got != "___secret.json" {
		t.Fatalf("file name of ../secret is %q", got)
	}
}

func TestAliasedIDIsNotFound(t *testing.T) {
	// "1?" and "1_" share the file name 1_.json; only the id stored in it
	// may read it.
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	rec := []byte(`{"id":"1_","subject":"s","status":"pending","blockedBy":[],"blocks":[]}`)
	mkdir(t, filepath.Join(dir, "list")) // a list written by another program
	if err := os.WriteFile(filepath.Join(dir, "list", "1_.json"), rec, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Get(t.Context(), "1?"); ok || err != nil {
		t.Fatalf("Get(1?) = %v, %v; want not found", ok, err)
	}
	if tk, ok, err := s.Get(t.Context(), "1_"); !ok || err != nil || tk.ID != "1_" {
		t.Fatalf("Get(1_) = %+v, %v, %v", tk, ok, err)
	}
}

func TestRejectedCycleWritesNeitherSide(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	mustCreate(t, s, "a")
	mustCreate(t, s, "b")
	mustUpdate(t, s, "2", UpdateInput{AddBlockedBy: []string{"1"}})
	before := snapshot(t, dir)
	if _, err := s.Update(t.Context(), "1", UpdateInput{AddBlockedBy: []string{"2"}, Status: ptr(Failed)}); !errors.Is(err, ErrCycle) {
		t.Fatalf("error = %v, want ErrCycle", err)
	}
	assertSameFiles(t, before, snapshot(t, dir))
}

func TestTwoInstancesCreatingConcurrentlyGetIDs1And2(t *testing.T) {
	for round := range 10 {
		dir := t.TempDir()
		stores := []*FileStore{newFile(t, dir, "list", plain), newFile(t, dir, "list", plain)}
		start := make(chan struct{})
		ids := make([]string, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, s := range stores {
			wg.Go(func() {
				<-start
				tk, err := s.Create(t.Context(), CreateInput{Subject: "racer"})
				ids[i], errs[i] = tk.ID, err
			})
		}
		close(start)
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatal(errs)
		}
		slices.Sort(ids)
		if !slices.Equal(ids, []string{"1", "2"}) {
			t.Fatalf("round %d: ids %v, want [1 2]", round, ids)
		}
	}
}

func TestGoroutinesSharingOneStoreLoseNoUpdates(t *testing.T) {
	s := newFile(t, t.TempDir(), "list", plain)
	mustCreate(t, s, "counter")
	const workers, each = 4, 10
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				if _, err := s.Update(t.Context(), "1", UpdateInput{Metadata: map[string]any{string(rune('a' + w)): i + 1}}); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Create(t.Context(), CreateInput{Subject: "x"}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	got := mustGet(t, s, "1")
	for w := range workers {
		if v := got.Metadata[string(rune('a'+w))]; v != float64(each) {
			t.Errorf("worker %d counter = %v, want %d", w, v, each)
		}
	}
	if ts, err := s.List(t.Context()); err != nil || len(ts) != 1+workers*each {
		t.Fatalf("List = %d tasks, %v", len(ts), err)
	}
}

func TestCorruptRecordFailsClosedNamingFileAndRecord(t *testing.T) {
	const marker = "PAYLOAD-MARKER-7f3a"
	cases := map[string]string{
		"not JSON":       "{\"id\": \"2\", " + marker,
		"empty":          "",
		"wrong id":       `{"id":"3","subject":"` + marker + `","status":"pending","blockedBy":[],"blocks":[]}`,
		"unknown status": `{"id":"2","subject":"` + marker + `","status":"` + marker + `","blockedBy":[],"blocks":[]}`,
		"edges missing":  `{"id":"2","subject":"` + marker + `","status":"pending"}`,
		"zero filled":    "\x00\x00\x00\x00",
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s := newFile(t, dir, "list", plain)
			mustCreate(t, s, "one")
			mustCreate(t, s, "two")
			mustCreate(t, s, "three")
			path := filepath.Join(dir, "list", "2.json")
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, dir)
			ops := map[string]func() error{
				"List": func() error { _, err := s.List(t.Context()); return err },
				"Get":  func() error { _, _, err := s.Get(t.Context(), "2"); return err },
				"Render": func() error {
					_, err := s.Render(t.Context(), RenderOptions{})
					return err
				},
				"Create": func() error { _, err := s.Create(t.Context(), CreateInput{Subject: "four"}); return err },
				"Update": func() error {
					_, err := s.Update(t.Context(), "1", UpdateInput{AddBlocks: []string{"2"}})
					return err
				},
			}
			for op, fn := range ops {
				err := fn()
				se := asStorageError(t, err, "Corrupt task record")
				if se.File != path || se.Record != "2" || se.Kind != storage.KindTask {
					t.Errorf("%s: error names file %q record %q kind %q", op, se.File, se.Record, se.Kind)
				}
				if strings.Contains(err.Error(), marker) {
					t.Errorf("%s: error %q carries record content", op, err)
				}
			}
			assertSameFiles(t, before, snapshot(t, dir))
		})
	}
}

func TestTempFilesAreIgnored(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	mustCreate(t, s, "one")
	if err := os.WriteFile(filepath.Join(dir, "list", ".1.json.0123456789ab.tmp"), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ts, err := s.List(t.Context()); err != nil || len(ts) != 1 {
		t.Fatalf("List = %v, %v", ts, err)
	}
}

func TestSymlinkedRecordIsRefused(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	mustCreate(t, s, "one")
	outside := filepath.Join(dir, "outside.json")
	valid := []byte(`{"id":"2","subject":"outside","status":"pending","blockedBy":[],"blocks":[]}`)
	if err := os.WriteFile(outside, valid, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "list", "2.json")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	checks := map[string]func() error{
		"Get":  func() error { _, _, err := s.Get(t.Context(), "2"); return err },
		"List": func() error { _, err := s.List(t.Context()); return err },
		"Update": func() error {
			_, err := s.Update(t.Context(), "2", UpdateInput{Subject: ptr("overwritten")})
			return err
		},
		"edge": func() error {
			_, err := s.Update(t.Context(), "1", UpdateInput{AddBlockedBy: []string{"2"}})
			return err
		},
	}
	for name, fn := range checks {
		se := asStorageError(t, fn(), "Symlink")
		if !strings.HasSuffix(se.File, "2.json") || se.Record != "2" {
			t.Errorf("%s: error names %q record %q", name, se.File, se.Record)
		}
	}
	assertSameFiles(t, before, snapshot(t, dir))
}

func TestSymlinkedListDirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "elsewhere"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, "list")); err != nil {
		t.Fatal(err)
	}
	_, err := NewFileStore(dir, "list", plain)
	asStorageError(t, err, "must not be a symlink")
}

func TestReplacedDirectoryIsDetected(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	mustCreate(t, s, "one")
	listDir := filepath.Join(dir, "list")
	if err := os.Rename(listDir, filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(listDir, 0o700); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	for name, fn := range map[string]func() error{
		"Get":    func() error { _, _, err := s.Get(t.Context(), "1"); return err },
		"List":   func() error { _, err := s.List(t.Context()); return err },
		"Create": func() error { _, err := s.Create(t.Context(), CreateInput{Subject: "x"}); return err },
		"Update": func() error { _, err := s.Update(t.Context(), "1", UpdateInput{Subject: ptr("x")}); return err },
	} {
		t.Run(name, func(t *testing.T) { asStorageError(t, fn(), "Storage directory changed") })
	}
	assertSameFiles(t, before, snapshot(t, dir))
}

func TestDirectoryReplacedDuringEncodeIsDetected(t *testing.T) {
	dir := t.TempDir()
	bc := newBlockingCodec(xorCodec{id: "xor-v1"})
	s := newFile(t, dir, "list", storage.Encoding{Codec: bc})
	mustCreate(t, s, "one")
	bc.arm()
	done := make(chan error, 1)
	go func() {
		_, err := s.Update(t.Context(), "1", UpdateInput{Subject: ptr("changed")})
		done <- err
	}()
	<-bc.entered
	listDir := filepath.Join(dir, "list")
	if err := os.Rename(listDir, filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(listDir, 0o700); err != nil {
		t.Fatal(err)
	}
	movedBefore := snapshot(t, filepath.Join(dir, "moved"))
	close(bc.released)
	asStorageError(t, <-done, "Storage directory changed")
	assertSameFiles(t, movedBefore, snapshot(t, filepath.Join(dir, "moved")))
	if ents, _ := os.ReadDir(listDir); len(ents) != 0 {
		t.Fatalf("write landed in the replacement directory: %v", ents)
	}
}

func TestInvalidListIDsAreRejectedBeforeCreatingAnything(t *testing.T) {
	for _, id := range []string{"", " ", "a b", "..", ".", "/", "a/b", "../x", "é", "list\x00", "tab\t", "ok.json"} {
		t.Run(id, func(t *testing.T) {
			tasksDir := filepath.Join(t.TempDir(), "tasks")
			_, err := NewFileStore(tasksDir, id, plain)
			se := asStorageError(t, err, "File task-list ids must contain only letters, digits, underscores or hyphens")
			if !strings.Contains(err.Error(), "task-list ids") || se.Op != "validate" {
				t.Errorf("error = %v", err)
			}
			if _, err := os.Lstat(tasksDir); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("tasks directory was created: %v", err)
			}
		})
	}
}

func TestInvalidCodecIsRejectedBeforeCreatingAnything(t *testing.T) {
	tasksDir := filepath.Join(t.TempDir(), "tasks")
	_, err := NewFileStore(tasksDir, "list", storage.Encoding{Codec: xorCodec{id: "bad id!"}})
	asStorageError(t, err, "Invalid storage codec")
	if _, err := os.Lstat(tasksDir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("tasks directory was created: %v", err)
	}
}

func TestLockIsHeldWhileCodecRuns(t *testing.T) {
	for _, side := range []string{"encode", "decode"} {
		t.Run(side, func(t *testing.T) {
			dir := t.TempDir()
			bc := newBlockingCodec(xorCodec{id: "xor-v1"})
			s := newFile(t, dir, "list", storage.Encoding{Codec: bc})
			other := newFile(t, dir, "list", storage.Encoding{Codec: xorCodec{id: "xor-v1"}})
			if side == "decode" {
				mustCreate(t, s, "existing")
			}
			bc.arm()
			done := make(chan error, 1)
			go func() {
				var err error
				if side == "encode" {
					_, err = s.Create(t.Context(), CreateInput{Subject: "slow"})
				} else {
					_, _, err = s.Get(t.Context(), "1")
				}
				done <- err
			}()
			sc := <-bc.entered
			if sc.Kind != storage.KindTask || sc.ScopeID != "list" || sc.RecordID != "1" {
				t.Errorf("codec context = %+v", sc)
			}
			if st, err := os.Lstat(filepath.Join(dir, "list.lock")); err != nil || !st.IsDir() {
				t.Fatalf("lock directory missing while the codec runs: %v", err)
			}
			// Another store's read must wait for the lock: with a short
			// deadline it can only give up.
			ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
			_, _, err := other.Get(ctx, "1")
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("second store's Get returned %v while the lock was held", err)
			}
			close(bc.released)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if _, ok, err := other.Get(t.Context(), "1"); !ok || err != nil {
				t.Fatalf("Get after release = %v, %v", ok, err)
			}
		})
	}
}

func TestEncodeFailureOnSecondTouchedRecordCommitsNothing(t *testing.T) {
	dir := t.TempDir()
	fc := &failingCodec{Codec: codec.Gzip(), failOn: []string{"2"}}
	s := newFile(t, dir, "list", storage.Encoding{Codec: fc})
	mustCreate(t, s, "one")
	mustCreate(t, s, "two")
	fc.armed.Store(true)
	before := snapshot(t, dir)
	_, err := s.Update(t.Context(), "1", UpdateInput{AddBlockedBy: []string{"2"}, Subject: ptr("changed")})
	se := asStorageError(t, err, "Storage encode failed (task)")
	if se.Record != "2" || !strings.HasSuffix(se.File, "2.json") {
		t.Errorf("error names %q record %q", se.File, se.Record)
	}
	if strings.Contains(err.Error(), codecSecret) {
		t.Errorf("error %q leaks the codec's message", err)
	}
	assertSameFiles(t, before, snapshot(t, dir))
}

// codecCases is the codec matrix: plaintext and every ready-made codec.
func codecCases(t *testing.T) map[string]storage.Codec {
	return map[string]storage.Codec{
		"plaintext":         nil,
		"gzip":              codec.Gzip(),
		"zstd":              codec.Zstd(),
		"xchacha20poly1305": newAEAD(t, codec.XChaCha20Poly1305, "k1", testKey("k1")),
		"aes256gcm":         newAEAD(t, codec.AES256GCM, "k1", testKey("k1")),
	}
}

func TestCodecMatrixRoundTrips(t *testing.T) {
	const secret = "Subject-Secret-31337"
	for name, c := range codecCases(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			enc := storage.Encoding{Codec: c, Namespace: "acme", ProjectID: "0123456789abcdef"}
			s := newFile(t, dir, "list", enc)
			if _, err := s.Create(t.Context(), CreateInput{Subject: secret, Description: secret + " details", Metadata: map[string]any{"k": secret}}); err != nil {
				t.Fatal(err)
			}
			mustCreate(t, s, "second")
			mustUpdate(t, s, "2", UpdateInput{AddBlockedBy: []string{"1"}, Status: ptr(Pending), Owner: ptr("owner-bob")})
			want, err := s.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			fresh := newFile(t, dir, "list", enc)
			got, err := fresh.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || len(got) != 2 || got[0].Subject != secret || !slices.Equal(got[1].BlockedBy, []string{"1"}) {
				t.Fatalf("fresh store reads %+v, want %+v", got, want)
			}
			text, err := fresh.Render(t.Context(), RenderOptions{})
			if err != nil || text != "[ ] #1 "+secret+" (pending)\n[ ] #2 second (pending) [blockedBy: 1] @owner-bob" {
				t.Fatalf("Render = %q, %v", text, err)
			}
			for _, id := range []string{"1", "2"} {
				raw, err := os.ReadFile(filepath.Join(dir, "list", id+".json"))
				if err != nil {
					t.Fatal(err)
				}
				if c == nil {
					if !bytes.HasPrefix(raw, []byte("{\n  \"id\"")) {
						t.Errorf("plaintext record %s is %q", id, raw)
					}
					continue
				}
				if !bytes.HasPrefix(raw, []byte(`{"liteAgentStorage":1,"codec":"`+c.ID()+`","payload":"`)) || bytes.Contains(raw, []byte("\n")) {
					t.Errorf("record %s is not a one-line envelope: %q", id, raw)
				}
				// Words of 7 or more characters: a 3-letter one (the owner was
				// "bob") turned up in random base64 about once in a thousand runs.
				for _, leak := range []string{secret, "subject", "blockedBy", "owner-bob"} {
					if bytes.Contains(raw, []byte(leak)) {
						t.Errorf("record %s shows %q: %q", id, leak, raw)
					}
				}
			}
		})
	}
}

func TestAEADBindsRecordContext(t *testing.T) {
	dir := t.TempDir()
	key := testKey("k1")
	s := newFile(t, dir, "list", storage.Encoding{Codec: newAEAD(t, codec.XChaCha20Poly1305, "k1", key)})
	mustCreate(t, s, "one")
	mustCreate(t, s, "two")
	// A record moved to another task's file, or to another list, no
	// longer decodes.
	one, err := os.ReadFile(filepath.Join(dir, "list", "1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "list", "2.json"), one, 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Get(t.Context(), "2")
	asStorageError(t, err, "Storage decode failed (task)")

	other := newFile(t, dir, "other", storage.Encoding{Codec: newAEAD(t, codec.XChaCha20Poly1305, "k1", key)})
	mkdir(t, filepath.Join(dir, "other")) // a list written by another program
	if err := os.WriteFile(filepath.Join(dir, "other", "1.json"), one, 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = other.Get(t.Context(), "1")
	asStorageError(t, err, "Storage decode failed (task)")
}

func TestChangingTheCodecRequiresMigration(t *testing.T) {
	gz := codec.Gzip()
	aead := func(key string) storage.Codec { return newAEAD(t, codec.XChaCha20Poly1305, "k1", testKey(key)) }
	cases := []struct {
		name          string
		written, read storage.Codec
		want          string
	}{
		{"codec enabled over plaintext", nil, gz, "migration"},
		{"codec removed", gz, nil, "Encoded storage requires its configured codec"},
		{"codec id changed", gz, codec.Zstd(), "migration"},
		{"key version changed", aead("k1"), newAEAD(t, codec.XChaCha20Poly1305, "k2", testKey("k1")), "migration"},
		{"wrong key", aead("k1"), aead("other"), "Storage decode failed (task)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			w := newFile(t, dir, "list", storage.Encoding{Codec: c.written})
			mustCreate(t, w, "one")
			mustCreate(t, w, "two")
			mustUpdate(t, w, "2", UpdateInput{AddBlockedBy: []string{"1"}})
			before := snapshot(t, dir)
			r := newFile(t, dir, "list", storage.Encoding{Codec: c.read})
			for op, fn := range map[string]func() error{
				"Get":    func() error { _, _, err := r.Get(t.Context(), "1"); return err },
				"List":   func() error { _, err := r.List(t.Context()); return err },
				"Render": func() error { _, err := r.Render(t.Context(), RenderOptions{ActiveOnly: true}); return err },
				"Create": func() error { _, err := r.Create(t.Context(), CreateInput{Subject: "mixed"}); return err },
				"Update": func() error {
					_, err := r.Update(t.Context(), "2", UpdateInput{Status: ptr(Cancelled)})
					return err
				},
			} {
				err := fn()
				se := asStorageError(t, err, c.want)
				if se.File == "" || se.Record == "" || !strings.HasSuffix(se.File, se.Record+".json") {
					t.Errorf("%s: error %v does not name file and record", op, err)
				}
			}
			assertSameFiles(t, before, snapshot(t, dir))
		})
	}
}

func TestLockDirectoryOfAnotherProgramIsHonoured(t *testing.T) {
	// A program that knows only the lock-directory convention holds the
	// list: no operation may proceed until the directory is gone.
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	mustCreate(t, s, "one")
	lockDir := filepath.Join(dir, "list.lock")
	if err := os.Mkdir(lockDir, 0o700); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	for name, op := range map[string]func(context.Context) error{
		"Update": func(ctx context.Context) error {
			_, err := s.Update(ctx, "1", UpdateInput{Subject: ptr("x")})
			return err
		},
		"Get": func(ctx context.Context) error { _, _, err := s.Get(ctx, "1"); return err },
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
		err := op(ctx)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s under a foreign lock returned %v", name, err)
		}
	}
	assertSameFiles(t, before, snapshot(t, dir))
	if err := os.Remove(lockDir); err != nil {
		t.Fatal(err)
	}
	if got := mustUpdate(t, s, "1", UpdateInput{Subject: ptr("x")}); got.Subject != "x" {
		t.Fatalf("got %+v", got)
	}
}

func TestNonNumericRecordsSortAfterNumericOnesAndDoNotBreakIDs(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	rec := []byte(`{"id":"imported","subject":"from elsewhere","status":"pending","blockedBy":[],"blocks":[]}`)
	mkdir(t, filepath.Join(dir, "list")) // a list written by another program
	if err := os.WriteFile(filepath.Join(dir, "list", "imported.json"), rec, 0o600); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "one")
	ts, err := s.List(t.Context())
	if err != nil || len(ts) != 2 || ts[0].ID != "1" || ts[1].ID != "imported" {
		t.Fatalf("List = %+v, %v", ts, err)
	}
	if s.ListID() != "list" || s.Dir() != filepath.Join(dir, "list") {
		t.Fatalf("ListID %q Dir %q", s.ListID(), s.Dir())
	}
}

func TestWaitForAStuckHolderIsBounded(t *testing.T) {
	dir := t.TempDir()
	bc := newBlockingCodec(xorCodec{id: "xor-v1"})
	holder := newFile(t, dir, "list", storage.Encoding{Codec: bc})
	mustCreate(t, holder, "one")
	bc.arm()
	done := make(chan error, 1)
	go func() {
		_, _, err := holder.Get(t.Context(), "1")
		done <- err
	}()
	<-bc.entered
	waiter := newFile(t, dir, "list", storage.Encoding{Codec: xorCodec{id: "xor-v1"}})
	waiter.lock.Timeout = 200 * time.Millisecond
	_, _, err := waiter.Get(t.Context(), "1")
	asStorageError(t, err, "lock is held by another process")
	close(bc.released)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, ok, err := waiter.Get(t.Context(), "1"); !ok || err != nil {
		t.Fatalf("Get after the holder finished = %v, %v", ok, err)
	}
}

// mkdir creates dir, as another program writing a list would.
func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
}

func TestListDirectoryIsCreatedByTheFirstWriteOnly(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "lazy", plain)
	list := filepath.Join(dir, "lazy")
	if s.Dir() != list {
		t.Errorf("Dir() = %q, want %q", s.Dir(), list)
	}
	if _, ok, err := s.Get(t.Context(), "1"); ok || err != nil {
		t.Fatalf("Get on a missing list = %v, %v", ok, err)
	}
	if ts, err := s.List(t.Context()); len(ts) != 0 || err != nil {
		t.Fatalf("List on a missing list = %v, %v", ts, err)
	}
	if _, err := s.Render(t.Context(), RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("reads of a missing list created %v", ents)
	}
	mustCreate(t, s, "first")
	if st, err := os.Lstat(list); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
		t.Fatalf("list directory after Create: %v, %v", st, err)
	}
	if ts, err := s.List(t.Context()); len(ts) != 1 || err != nil {
		t.Fatalf("List after Create = %v, %v", ts, err)
	}
	// An existing symlinked list is still refused at construction.
	if err := os.Symlink(list, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := NewFileStore(dir, "link", plain); err == nil {
		t.Error("a symlinked list directory was accepted")
	}
}

// A tasks directory (the data home's <project>/tasks) that another local
// user or a crashed tool left as a link elsewhere: a list under it is
// refused, and nothing is written through the link (a run created
// <elsewhere>/<session id>/1.json before).
func TestSymlinkedTasksDirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	tasks := filepath.Join(dir, "tasks")
	if err := os.Symlink(elsewhere, tasks); err != nil {
		t.Fatal(err)
	}
	s, err := NewFileStore(tasks, "list", plain)
	if err == nil {
		_, err = s.Create(t.Context(), CreateInput{Subject: "x"})
	}
	asStorageError(t, err, "must not be a symlink")
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("%d entries written through the linked tasks directory", len(ents))
	}
}
