package session_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/session/sessiontest"
	"github.com/lite-agent/lite-agent-go/storage"
)

// viewLog writes session "s": 50 records, a view through 50 at seq 51, then
// 10 more, and returns the log's path.
func viewLog(t *testing.T, dir string, opts session.FileOptions) string {
	t.Helper()
	cp := newCP(t, dir, opts)
	var evs []session.Event
	for i := range 50 {
		evs = append(evs, userText(strings.Repeat("before ", i)))
	}
	evs = append(evs, session.ContextViewEvent{ThroughSeq: 50, View: json.RawMessage(`{"generation":1}`)})
	for i := range 10 {
		evs = append(evs, userText(strings.Repeat("after ", i+1)))
	}
	if _, err := cp.Append(t.Context(), "s", evs, 0); err != nil {
		t.Fatal(err)
	}
	p, _ := cp.Path("s")
	return p
}

// setLine replaces line i (from 1) of the log at p.
func setLine(t *testing.T, p string, i int, with string) {
	t.Helper()
	lines := bytes.Split(readFile(t, p), []byte("\n"))
	lines[i-1] = []byte(with)
	if err := os.WriteFile(p, bytes.Join(lines, []byte("\n")), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestReadFromViewReadsOnlyTheTail shows, for every codec and a fresh
// checkpointer (no cached head), that ReadFromView does not read the
// records the view covers (damage there goes unseen, while Read reports
// it) and does read those after it (damage there fails it as Read fails).
func TestReadFromViewReadsOnlyTheTail(t *testing.T) {
	for _, cc := range codecMatrix(t) {
		t.Run(cc.name, func(t *testing.T) {
			opts := session.FileOptions{Encoding: storage.Encoding{Codec: cc.codec, Namespace: "acme", ProjectID: "0123456789abcdef"}}
			dir := t.TempDir()
			p := viewLog(t, dir, opts)
			want, err := newCP(t, dir, opts).Read(t.Context(), "s", 50)
			if err != nil {
				t.Fatal(err)
			}
			line10 := readLine(t, p, 10)
			setLine(t, p, 10, `{"not":"a record"}`)
			if _, err := newCP(t, dir, opts).Read(t.Context(), "s", 0); err == nil {
				t.Fatal("Read of a log damaged at record 10 succeeded")
			}
			cp := newCP(t, dir, opts)
			v, after, err := cp.ReadFromView(t.Context(), "s")
			if err != nil {
				t.Fatalf("ReadFromView with damage before the view: %v", err)
			}
			if v == nil || v.Seq != 51 || !reflect.DeepEqual(after, want) {
				t.Fatalf("ReadFromView = view %v, %d records; want the view at 51 and records 51..61", v, len(after))
			}
			if h, err := cp.Append(t.Context(), "s", []session.Event{userText("next")}, 61); err != nil || h != 62 {
				t.Fatalf("Append after ReadFromView = %d, %v; want 62", h, err)
			}

			// Damage after the view only: ReadFromView fails as Read does.
			setLine(t, p, 10, string(line10))
			setLine(t, p, 55, `{"not":"a record"}`)
			_, rerr := newCP(t, dir, opts).Read(t.Context(), "s", 0)
			_, _, err = newCP(t, dir, opts).ReadFromView(t.Context(), "s")
			if err == nil || rerr == nil || err.Error() != rerr.Error() {
				t.Fatalf("ReadFromView of a log damaged at record 55: %v; Read: %v", err, rerr)
			}
		})
	}
}

func readLine(t *testing.T, p string, i int) []byte {
	t.Helper()
	return bytes.Split(readFile(t, p), []byte("\n"))[i-1]
}

// TestReadFromViewTornAndRepairedTails: a torn tail is ignored and set
// aside by the next append, as after Read; a malformed last line is
// repaired under RepairTail and an error without it, as by Read.
func TestReadFromViewTornAndRepairedTails(t *testing.T) {
	dir := t.TempDir()
	p := viewLog(t, dir, session.FileOptions{})
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":62,"sessionId":"s","par`)
	f.Close()
	cp := newCP(t, dir, session.FileOptions{})
	v, after, err := cp.ReadFromView(t.Context(), "s")
	if err != nil || v == nil || v.Seq != 51 || len(after) != 11 {
		t.Fatalf("ReadFromView with a torn tail = %v, %d records, %v", v, len(after), err)
	}
	if h, err := cp.Append(t.Context(), "s", []session.Event{userText("next")}, 61); err != nil || h != 62 {
		t.Fatalf("Append = %d, %v; want 62", h, err)
	}
	if torn, _ := filepath.Glob(p + ".torn-*"); len(torn) != 1 {
		t.Fatalf("torn copies: %v, want one", torn)
	}
	if got := readTexts(t, newCP(t, dir, session.FileOptions{}), "s"); len(got) != 62 {
		t.Fatalf("Read after the append: %d records, want 62", len(got))
	}

	// A malformed last line (complete, with its newline).
	f, _ = os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"seq\":63,\x00\x00\x00\n")
	f.Close()
	if _, _, err := newCP(t, dir, session.FileOptions{}).ReadFromView(t.Context(), "s"); err == nil {
		t.Fatal("ReadFromView of a malformed last line succeeded without RepairTail")
	}
	v, after, err = newCP(t, dir, session.FileOptions{RepairTail: true}).ReadFromView(t.Context(), "s")
	if err != nil || v == nil || v.Seq != 51 || len(after) != 12 {
		t.Fatalf("ReadFromView with RepairTail = %v, %d records, %v", v, len(after), err)
	}
	if broken, _ := filepath.Glob(p + ".broken-*"); len(broken) != 1 {
		t.Fatalf("broken copies: %v, want one", broken)
	}
}

func TestLatestView(t *testing.T) {
	rec := func(seq int64, ev session.Event) session.StoredEvent { return session.StoredEvent{Seq: seq, Event: ev} }
	v := func(through int64) session.Event { return session.ContextViewEvent{ThroughSeq: through} }
	u := userText("u")
	tests := []struct {
		name              string
		records           []session.StoredEvent
		wantView, wantCut int64 // seq of the view (0: none), seq of after[0]
	}{
		{"none", []session.StoredEvent{rec(1, u), rec(2, u)}, 0, 1},
		{"empty", nil, 0, 0},
		{"last", []session.StoredEvent{rec(1, u), rec(2, u), rec(3, v(2))}, 3, 3},
		{"earlier through", []session.StoredEvent{rec(1, u), rec(2, u), rec(3, u), rec(4, v(1)), rec(5, u)}, 4, 2},
		{"invalid skipped", []session.StoredEvent{rec(1, u), rec(2, v(1)), rec(3, v(3)), rec(4, v(-2))}, 2, 2},
		{"records from a later seq", []session.StoredEvent{rec(7, u), rec(8, v(7)), rec(9, u)}, 8, 8},
	}
	for _, tt := range tests {
		view, after := session.LatestView(tt.records)
		var gotView, gotCut int64
		if view != nil {
			gotView = view.Seq
		}
		if len(after) > 0 {
			gotCut = after[0].Seq
		}
		if gotView != tt.wantView || gotCut != tt.wantCut || (len(after) > 0 && after[len(after)-1].Seq != tt.records[len(tt.records)-1].Seq) {
			t.Errorf("%s: view %d, after from %d; want %d, %d", tt.name, gotView, gotCut, tt.wantView, tt.wantCut)
		}
	}
}

// TestReadFromViewFallsBackToRead runs the suite on a checkpointer without
// a ReadFromView method, so that session.ReadFromView reads and cuts.
func TestReadFromViewFallsBackToRead(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) session.Checkpointer {
		return struct{ session.Checkpointer }{session.NewMemoryCheckpointer()}
	})
}
