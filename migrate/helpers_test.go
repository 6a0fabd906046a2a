package migrate_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/lite-agent/lite-agent-go/task"
)

// secret appears in every fixture record; an encoded destination must not
// show it anywhere. The hyphen keeps it out of any base64 text.
const secret = "s3cret-payload"

// namedCodec is one configuration of the codec matrix.
type namedCodec struct {
	name  string
	codec storage.Codec // nil for plaintext
	hides bool          // the stored bytes do not show the plaintext
}

func aead(t testing.TB, keyID string, fill byte) storage.Codec {
	t.Helper()
	c, err := newAEAD(keyID, fill)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newAEAD returns an XChaCha20-Poly1305 codec whose key is 32 bytes of fill.
// The callback hands out the same slice every time, as a key held in memory
// would be: the codec neither keeps nor modifies it.
func newAEAD(keyID string, fill byte) (storage.Codec, error) {
	key := bytes.Repeat([]byte{fill}, codec.KeySize)
	return codec.NewAEAD(codec.AEADOptions{
		KeyID: keyID,
		Key: func(context.Context, string) ([]byte, error) {
			return key, nil
		},
	})
}

// codecMatrix is plaintext, gzip, zstd, AEAD key 1 and AEAD key 2.
func codecMatrix(t testing.TB) []namedCodec {
	return []namedCodec{
		{name: "plain"},
		{name: "gzip", codec: codec.Gzip(), hides: true},
		{name: "zstd", codec: codec.Zstd(), hides: true},
		{name: "aead-k1", codec: aead(t, "k1", 1), hides: true},
		{name: "aead-k2", codec: aead(t, "k2", 2), hides: true},
	}
}

// fixture is a data home holding one project written through the normal
// stores.
type fixture struct {
	home, workdir string
	opts          storage.Options
	paths         storage.ProjectPaths
	sessions      []string
	refs          map[string][]string // archive refs by session
	lists         []string
	spillRefs     []string
}

func (f fixture) enc() storage.Encoding {
	return storage.Encoding{Codec: f.opts.Codec, Namespace: f.paths.Namespace, ProjectID: f.paths.Hash}
}

func (f fixture) projectDir() string { return f.paths.ProjectDir() }

func resolve(t testing.TB, workdir string, opts storage.Options) storage.ProjectPaths {
	t.Helper()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: opts})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// buildProject writes, through the stores, two sessions of several batches
// (user, assistant, tool call and result, file snapshot), a context archive
// of three notes for one of them, a private task list with dependencies, a
// shared list, and two spilled outputs.
func buildProject(t testing.TB, home, workdir string, c storage.Codec, namespace string) fixture {
	t.Helper()
	ctx := context.Background()
	f := fixture{home: home, workdir: workdir, opts: storage.Options{Namespace: namespace, Home: home, Codec: c}, refs: map[string][]string{}}
	f.paths = resolve(t, workdir, f.opts)
	enc := f.enc()

	cp, err := session.NewFileCheckpointer(f.paths.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	before := "old " + secret
	for _, sid := range []string{"s1", "agent-general-0badc0de"} {
		f.sessions = append(f.sessions, sid)
		batches := [][]session.Event{
			{session.UserEvent{Message: model.UserText("hello " + secret + " " + sid)}},
			{
				session.AssistantEvent{Message: model.AssistantBlocks(
					model.Block{Type: model.BlockText, Text: "running <tool> & " + secret},
					model.Block{Type: model.BlockToolCall, ID: "c1", Name: "bash", Input: []byte(`{"command":"ls"}`)},
				)},
				session.ToolResultEvent{Result: model.Block{Type: model.BlockToolResult, ID: "c1", Content: "a.txt\n" + secret}, Turn: 1},
				session.FileSnapshotEvent{Path: "a.txt", Before: &before, Encoding: "utf8", After: strings.Repeat("ab", 32), Turn: 1},
			},
			{session.AssistantEvent{Message: model.AssistantText("done ✓ " + secret), Usage: model.Usage{InputTokens: 900, OutputTokens: 12, CacheReadTokens: 300}, InputEstimate: 500, Model: "claude-sonnet-4-5"}},
		}
		for _, b := range batches {
			if _, err := cp.Append(ctx, sid, b, session.AnyHead); err != nil {
				t.Fatal(err)
			}
		}
	}

	ar, err := archive.NewFileArchive(storage.SessionContextDir(f.paths.SessionsDir, "s1"), archive.Options{Encoding: enc, SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	for i, content := range []string{
		"first note " + secret,
		strings.Repeat("second note "+secret+" ", 200),
		"third note 界😀<&> " + secret,
	} {
		e, err := ar.Put(ctx, content, map[string]any{"kind": "tool-result", "seq": i + 1})
		if err != nil {
			t.Fatal(err)
		}
		f.refs["s1"] = append(f.refs["s1"], e.Ref)
	}

	for _, list := range []string{"s1", "shared"} {
		st, err := task.NewFileStore(f.paths.TasksDir, list, enc)
		if err != nil {
			t.Fatal(err)
		}
		f.lists = append(f.lists, list)
		if list == "shared" {
			// The mark agents leave on their shared list; migrations copy it.
			if err := st.MarkShared(); err != nil {
				t.Fatal(err)
			}
		}
		for _, subj := range []string{"design " + secret, "build", "ship"} {
			if _, err := st.Create(ctx, task.CreateInput{Subject: subj, Description: "d " + secret, Metadata: map[string]any{"n": 1}}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.Update(ctx, "2", task.UpdateInput{AddBlockedBy: []string{"1"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Update(ctx, "3", task.UpdateInput{AddBlockedBy: []string{"2"}}); err != nil {
			t.Fatal(err)
		}
		done := task.Completed
		if _, err := st.Update(ctx, "1", task.UpdateInput{Status: &done}); err != nil {
			t.Fatal(err)
		}
	}

	sp, err := spill.NewFileStore(f.paths.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"spilled " + secret, strings.Repeat("big output "+secret+"\n", 500)} {
		ref, err := sp.Put(ctx, body)
		if err != nil {
			t.Fatal(err)
		}
		f.spillRefs = append(f.spillRefs, ref)
	}
	return f
}

// contents is what the normal stores read from a project: the comparison
// point of every round trip.
type contents struct {
	Sessions map[string][]string // session id -> JSON of each record
	Archives map[string][]string // session id -> search result, then each note read whole
	Tasks    map[string][]task.Task
	Spill    map[string]string
}

// read opens the project f describes, with encoding enc, through the normal
// stores and returns what they read. Any error fails the test.
func read(t testing.TB, f fixture, paths storage.ProjectPaths, enc storage.Encoding) contents {
	t.Helper()
	ctx := context.Background()
	c := contents{Sessions: map[string][]string{}, Archives: map[string][]string{}, Tasks: map[string][]task.Task{}, Spill: map[string]string{}}
	cp, err := session.NewFileCheckpointer(paths.SessionsDir, session.FileOptions{Encoding: enc})
	if err != nil {
		t.Fatal(err)
	}
	for _, sid := range f.sessions {
		evs, err := cp.Read(ctx, sid, 0)
		if err != nil {
			t.Fatalf("read session %s: %v", sid, err)
		}
		for _, ev := range evs {
			b, err := ev.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			c.Sessions[sid] = append(c.Sessions[sid], string(b))
		}
	}
	for sid, refs := range f.refs {
		ar, err := archive.NewFileArchive(storage.SessionContextDir(paths.SessionsDir, sid), archive.Options{Encoding: enc, SessionID: sid, MaxReadBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		res, err := ar.Search(ctx, archive.Query{Text: "note", Limit: 10})
		if err != nil {
			t.Fatalf("search archive %s: %v", sid, err)
		}
		c.Archives[sid] = append(c.Archives[sid], res)
		for i, ref := range refs {
			page, err := ar.Read(ctx, archive.ReadRequest{Ref: ref, Generation: int64(i + 1), Limit: 1 << 19})
			if err != nil {
				t.Fatalf("read archive %s: %v", sid, err)
			}
			c.Archives[sid] = append(c.Archives[sid], page)
		}
	}
	for _, list := range f.lists {
		st, err := task.NewFileStore(paths.TasksDir, list, enc)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := st.List(ctx)
		if err != nil {
			t.Fatalf("list tasks %s: %v", list, err)
		}
		c.Tasks[list] = ts
	}
	sp, err := spill.NewFileStore(paths.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range f.spillRefs {
		body, ok, err := sp.Get(ctx, ref)
		if err != nil || !ok {
			t.Fatalf("spill %s: %v %v", ref, ok, err)
		}
		c.Spill[ref] = body
	}
	return c
}

// treeHash describes every entry under root (type, mode and, for files,
// the SHA-256 of the content), to prove that a tree did not change.
func treeHash(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		desc := info.Mode().String()
		switch {
		case info.Mode().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			desc += " " + hex.EncodeToString(sum[:])
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			desc += " -> " + target
		}
		out[rel] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// unchanged fails the test if root no longer hashes to before.
func unchanged(t testing.TB, root string, before map[string]string) {
	t.Helper()
	after := treeHash(t, root)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("source changed: %s: %q, was %q", k, after[k], v)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("source changed: %s appeared", k)
		}
	}
}

// files lists the regular files under root, relative, sorted.
func files(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == root {
			return filepath.SkipDir
		}
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, path)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// wantNoSecret fails the test if any file under root shows the secret.
func wantNoSecret(t testing.TB, root string) {
	t.Helper()
	for _, rel := range files(t, root) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s shows the plaintext", rel)
		}
	}
}

// equalContents fails the test unless got equals want.
func equalContents(t testing.TB, got, want contents) {
	t.Helper()
	g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want)
	if g != w {
		t.Errorf("destination differs from source:\n got %.400s\nwant %.400s", g, w)
	}
}

// oneLine fails the test if err's message spans lines.
func oneLine(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	if strings.ContainsAny(err.Error(), "\n\r") {
		t.Errorf("error spans lines: %q", err)
	}
}
