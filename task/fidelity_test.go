package task

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tsRecord is task 1 as the reference implementation writes it
// (JSON.stringify(task, null, 2)), with a member this package does not know
// ("priority"), metadata keys out of sorted order, a number written as
// 1.5e1 and a lone UTF-16 surrogate in the description.
const tsRecord = `{
  "id": "1",
  "subject": "Ship it",
  "priority": "high",
  "description": "half \ud800 a pair",
  "status": "pending",
  "blockedBy": [],
  "blocks": [],
  "metadata": {
    "zeta": 1.5e1,
    "alpha": {
      "y": 1,
      "x": 2
    }
  },
  "createdAt": 1740000000000,
  "updatedAt": 1749999999999,
  "x-host": [
    1,
    "two"
  ]
}`

func TestRewriteKeepsWhatItDoesNotKnow(t *testing.T) {
	tests := []struct {
		name string
		in   UpdateInput
		want string
	}{
		{
			name: "status",
			in:   UpdateInput{Status: ptr(InProgress)},
			want: strings.NewReplacer(`"status": "pending"`, `"status": "in_progress"`,
				`"updatedAt": 1749999999999`, `"updatedAt": 1750000000000`).Replace(tsRecord),
		},
		{
			name: "metadata merge keeps key order",
			in:   UpdateInput{Metadata: map[string]any{"alpha": "flat", "new": true}},
			want: strings.NewReplacer(`"alpha": {
      "y": 1,
      "x": 2
    }`, `"alpha": "flat",
    "new": true`, `"updatedAt": 1749999999999`, `"updatedAt": 1750000000000`).Replace(tsRecord),
		},
		{
			name: "owner and activeForm are added after the known order",
			in:   UpdateInput{Owner: ptr("ana"), ActiveForm: ptr("Shipping")},
			want: strings.NewReplacer(`"updatedAt": 1749999999999,`, `"updatedAt": 1750000000000,`,
				"\n  ]\n}", "\n  ],\n  \"activeForm\": \"Shipping\",\n  \"owner\": \"ana\"\n}").Replace(tsRecord),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := newFile(t, dir, "list", plain)
			file := filepath.Join(dir, "list", "1.json")
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(tsRecord), 0o600); err != nil {
				t.Fatal(err)
			}
			mustUpdate(t, s, "1", tt.in)
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("rewritten record:\n%s\nwant:\n%s", got, tt.want)
			}
			// What the store reads back is the update.
			tk, ok, err := s.Get(context.Background(), "1")
			if err != nil || !ok {
				t.Fatalf("Get: %v %v", ok, err)
			}
			if tt.in.Status != nil && tk.Status != *tt.in.Status || tt.in.Owner != nil && tk.Owner != *tt.in.Owner {
				t.Errorf("read back %+v", tk)
			}
		})
	}
}

func TestGoWrittenRecordRewritesAsMarshal(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "list", plain)
	if _, err := s.Create(context.Background(), CreateInput{Subject: "a", Metadata: map[string]any{"b": 1, "a": []any{"x"}}}); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, s, "1", UpdateInput{Owner: ptr("o")})
	tk := mustUpdate(t, s, "1", UpdateInput{Owner: ptr(""), Status: ptr(InProgress)})
	got, err := os.ReadFile(filepath.Join(dir, "list", "1.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Marshal(tk)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("record:\n%s\nwant Marshal's:\n%s", got, want)
	}
}

func TestTaskFileNamesFollowTheReference(t *testing.T) {
	rec := func(id string) string {
		return `{"id":"` + id + `","subject":"s","description":"","status":"pending","blockedBy":[],"blocks":[],"createdAt":1,"updatedAt":1}`
	}
	tests := []struct {
		name  string
		files map[string]string // file name -> record
		id    string
		// after an update of id: the files left
		after []string
	}{
		{name: "reference name", files: map[string]string{"a_b.json": rec("a.b")}, id: "a.b", after: []string{"a_b.json"}},
		{name: "legacy Go name moves", files: map[string]string{"a.b.json": rec("a.b")}, id: "a.b", after: []string{"a_b.json"}},
		{name: "both names: the reference one counts", files: map[string]string{"a.b.json": rec("a.b"), "a_b.json": rec("a.b")}, id: "a.b", after: []string{"a_b.json"}},
		{name: "numeric", files: map[string]string{"7.json": rec("7")}, id: "7", after: []string{"7.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s := newFile(t, dir, "list", plain)
			if err := os.MkdirAll(filepath.Join(dir, "list"), 0o700); err != nil {
				t.Fatal(err)
			}
			for name, data := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, "list", name), []byte(data), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if _, ok, err := s.Get(context.Background(), tt.id); !ok || err != nil {
				t.Fatalf("Get(%q) = %v, %v", tt.id, ok, err)
			}
			all, err := s.List(context.Background())
			if err != nil || len(all) != 1 || all[0].ID != tt.id {
				t.Fatalf("List = %+v, %v; want one task %s", all, err, tt.id)
			}
			mustUpdate(t, s, tt.id, UpdateInput{Status: ptr(Review)})
			ents, err := os.ReadDir(filepath.Join(dir, "list"))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			if strings.Join(names, ",") != strings.Join(tt.after, ",") {
				t.Errorf("files after the update: %v, want %v", names, tt.after)
			}
			if tk, ok, err := s.Get(context.Background(), tt.id); !ok || err != nil || tk.Status != Review {
				t.Errorf("after update Get = %+v %v %v", tk, ok, err)
			}
		})
	}
}

// FuzzMergeRecord checks the rewrite of any record the store accepts: the
// result is a record the store accepts, it reads back as the updated task,
// and every member the Task type does not hold is still there.
func FuzzMergeRecord(f *testing.F) {
	f.Add([]byte(tsRecord), "in_progress", "o")
	f.Add([]byte(`{"id":"1","subject":"s","status":"pending","blockedBy":[],"blocks":[],"owner":null,"x":{"b":1,"a":2}}`), "completed", "")
	f.Fuzz(func(t *testing.T, orig []byte, status, owner string) {
		task, err := decodeRecord("1", orig)
		if err != nil || !Status(status).Valid() {
			return
		}
		upd := cloneTask(task)
		upd.Status, upd.Owner = Status(status), owner
		updated, err := Marshal(upd)
		if err != nil {
			return
		}
		out, err := mergeRecord(orig, task, updated)
		if err != nil {
			t.Fatalf("mergeRecord(%q): %v", orig, err)
		}
		back, err := decodeRecord("1", out)
		if err != nil {
			t.Fatalf("merged record %q does not decode: %v", out, err)
		}
		// Compared as read back, since Marshal writes invalid UTF-8 as
		// \ufffd escapes that read back as the character.
		want, _ := Marshal(upd)
		if w, err := decodeRecord("1", want); err == nil {
			want, _ = Marshal(w)
		}
		got, _ := Marshal(back)
		if string(got) != string(want) {
			t.Fatalf("merged record reads as\n%s\nwant\n%s", got, want)
		}
		om, _ := members(orig)
		bm, _ := members(out)
		known, _ := members(updated)
		for _, m := range om {
			if _, isKnown := find(known, m.key); isKnown || m.key == "owner" || m.key == "activeForm" || m.key == "metadata" || m.key == "execution" {
				continue
			}
			if _, ok := find(bm, m.key); !ok && string(m.raw) != "null" {
				t.Fatalf("member %q of %q was dropped: %q", m.key, orig, out)
			}
		}
	})
}

func TestMarkSharedCreatesNoDirectoryAndMarksTheFirstWrite(t *testing.T) {
	dir := t.TempDir()
	s := newFile(t, dir, "team", plain)
	if err := s.MarkShared(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "team")); err == nil {
		t.Fatal("MarkShared created the list directory")
	}
	if IsShared(dir, "team") {
		t.Error("a missing list counts as shared")
	}
	mustCreate(t, s, "a")
	if !IsShared(dir, "team") {
		t.Error("the first write did not mark the list")
	}
	all, err := s.List(context.Background())
	if err != nil || len(all) != 1 {
		t.Errorf("List = %v, %v: the mark is not a record", all, err)
	}
	other := newFile(t, dir, "solo", plain)
	mustCreate(t, other, "b")
	if IsShared(dir, "solo") {
		t.Error("an unmarked list counts as shared")
	}
}
