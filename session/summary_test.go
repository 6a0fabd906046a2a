package session_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

func TestSummariesReadTitleUpdatedAndRecords(t *testing.T) {
	long := strings.Repeat("word ", 40)
	for _, cc := range []codecCase{{name: "plaintext"}, {name: "gzip", codec: codec.Gzip()}, {name: "xchacha20poly1305", codec: aead(t, codec.XChaCha20Poly1305, "k1", 1)}} {
		t.Run(cc.name, func(t *testing.T) {
			dir := t.TempDir()
			cp := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: cc.codec}})
			clock := fixedTime
			session.SetClock(cp, func() time.Time { return clock })
			internal := session.UserEvent{Message: model.UserText("internal note"), Origin: session.OriginInternal}
			big := strings.Repeat("z", 40<<10) // records wider than the read window
			for _, tt := range []struct {
				id     string
				events [][]session.Event
			}{
				{"plain", [][]session.Event{{userText("  fix the\n\tbuild  ")}, {userText("and more")}}},
				{"long", [][]session.Event{{userText(long)}}},
				{"internal-first", [][]session.Event{{internal, userText("the real prompt")}}},
				{"no-prompt", [][]session.Event{{session.AssistantEvent{Message: model.Message{Role: model.RoleAssistant, Text: "hello"}}}}},
				{"wide", [][]session.Event{{userText(big)}, {userText("second")}, {userText(big)}}},
			} {
				for _, batch := range tt.events {
					clock = clock.Add(time.Second)
					if _, err := cp.Append(t.Context(), tt.id, batch, session.AnyHead); err != nil {
						t.Fatal(err)
					}
				}
			}
			// A torn tail, and an empty log.
			appendBytes([]byte(`{"seq":3,"sess`))(t, filepath.Join(dir, "plain.jsonl"))
			if err := os.WriteFile(filepath.Join(dir, "empty.jsonl"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			// With no record, the file's time is the last activity.
			if err := os.Chtimes(filepath.Join(dir, "empty.jsonl"), fixedTime, fixedTime); err != nil {
				t.Fatal(err)
			}
			sums, err := cp.Summaries(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			type row struct {
				id, title string
				records   int64
				torn      bool
				updated   time.Time
			}
			want := []row{
				{"wide", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz…", 3, false, fixedTime.Add(8 * time.Second)},
				{"no-prompt", "", 1, false, fixedTime.Add(5 * time.Second)},
				{"internal-first", "the real prompt", 2, false, fixedTime.Add(4 * time.Second)},
				{"long", strings.TrimSpace(long[:session.TitleRunes-1]) + "…", 1, false, fixedTime.Add(3 * time.Second)},
				{"plain", "fix the build", 2, true, fixedTime.Add(2 * time.Second)},
			}
			if len(sums) != len(want)+1 {
				t.Fatalf("%d summaries, want %d: %+v", len(sums), len(want)+1, sums)
			}
			for i, w := range want {
				s := sums[i]
				got := row{s.ID, s.Title, s.Records, s.Torn, s.Updated}
				if got.id != w.id || got.title != w.title && !(w.id == "long" && strings.HasSuffix(got.title, "…") && len([]rune(got.title)) == session.TitleRunes) ||
					got.records != w.records || got.torn != w.torn || !got.updated.Equal(w.updated) || s.Err != nil {
					t.Errorf("summary %d = %+v, want %+v", i, s, w)
				}
				if st, err := os.Stat(filepath.Join(dir, s.ID+".jsonl")); err != nil || st.Size() != s.Size {
					t.Errorf("%s: size %d, file %v %v", s.ID, s.Size, st, err)
				}
				if n := len([]rune(s.Title)); n > session.TitleRunes {
					t.Errorf("%s: title of %d runes", s.ID, n)
				}
			}
			if e := sums[len(sums)-1]; e.ID != "empty" || e.Records != 0 || e.Err != nil || e.Size != 0 || !e.Updated.Equal(fixedTime) {
				t.Errorf("empty log summary %+v", e)
			}
			// Summaries read: they change nothing and take no lock.
			for _, name := range entryNames(t, dir) {
				if strings.HasSuffix(name, ".lock") {
					t.Errorf("lock left: %s", name)
				}
			}
		})
	}
}

func TestSummariesReportBadEndsWithoutFailing(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{})
	appendTexts(t, cp, "badlast", "a")
	appendTexts(t, cp, "good", "b")
	appendBytes([]byte("garbage "+secret+"\n"))(t, filepath.Join(dir, "badlast.jsonl"))
	appendTexts(t, cp, "badfirst", "c", "d")
	replaceLine(1, func([]byte) []byte { return []byte(`{"seq":9}`) })(t, filepath.Join(dir, "badfirst.jsonl"))
	if err := os.Symlink(filepath.Join(dir, "good.jsonl"), filepath.Join(dir, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "adir.jsonl"), 0o700)
	sums, err := cp.Summaries(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]session.Summary{}
	for _, s := range sums {
		byID[s.ID] = s
	}
	if len(byID) != 4 || byID["good"].Err != nil || byID["good"].Title != "b" {
		t.Fatalf("summaries %+v", sums)
	}
	for _, id := range []string{"badlast", "badfirst", "link"} {
		var se *storage.Error
		if err := byID[id].Err; !errors.As(err, &se) || strings.Contains(err.Error(), secret) {
			t.Errorf("%s: error %v, want a *storage.Error without payload", id, err)
		}
	}
	if s := byID["badfirst"]; s.Records != 2 || s.Title != "" {
		t.Errorf("badfirst: %+v, want the last record read and no title", s)
	}
	// Wrong codec: every log is reported, none fails the listing.
	gz := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: codec.Gzip()}})
	sums, err = gz.Summaries(t.Context())
	if err != nil || len(sums) != 4 {
		t.Fatalf("summaries under the wrong codec: %d, %v", len(sums), err)
	}
	for _, s := range sums {
		if s.Err == nil {
			t.Errorf("%s read under the wrong codec", s.ID)
		}
	}
	// The other way round: encoded logs listed without a codec are a codec
	// mismatch naming the codec found, not corrupt records.
	edir := t.TempDir()
	appendTexts(t, newCP(t, edir, session.FileOptions{Encoding: storage.Encoding{Codec: codec.Gzip()}}), "enc", "a", "b")
	sums, err = newCP(t, edir, session.FileOptions{}).Summaries(t.Context())
	if err != nil || len(sums) != 1 {
		t.Fatalf("summaries of an encoded log without a codec: %d, %v", len(sums), err)
	}
	var se *storage.Error
	if !errors.As(sums[0].Err, &se) || !se.CodecMismatch() || se.Found != codec.Gzip().ID() {
		t.Errorf("encoded log without a codec: %v, want a codec mismatch naming %s", sums[0].Err, codec.Gzip().ID())
	}
}

// writeSessions writes n plaintext logs of 4 to 12 records of about 400
// bytes each directly (a listing benchmark needs many, fast).
func writeSessions(tb testing.TB, dir string, n int) {
	tb.Helper()
	for i := range n {
		id := fmt.Sprintf("s%05d", i)
		var b []byte
		for seq := int64(1); seq <= int64(4+i%9); seq++ {
			ev := userText(fmt.Sprintf("prompt %d of session %d %s", seq, i, strings.Repeat("x", 350)))
			line, err := session.StoredEvent{Seq: seq, SessionID: id, ParentSeq: seq - 1, Time: fixedTime.Add(time.Duration(i) * time.Second), Event: ev}.MarshalJSON()
			if err != nil {
				tb.Fatal(err)
			}
			b = append(append(b, line...), '\n')
		}
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), b, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkSessionsList10000 summarizes 10,000 sessions and reports the
// ratio to the raw operation of an ls -l, reading the directory and
// lstat-ing every entry, measured in the same run ("x-lstat").
func BenchmarkSessionsList10000(b *testing.B) {
	dir := b.TempDir()
	writeSessions(b, dir, 10000)
	cp := newCP(b, dir, session.FileOptions{})
	raw := func() {
		ents, err := os.ReadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range ents {
			if _, err := os.Lstat(filepath.Join(dir, e.Name())); err != nil {
				b.Fatal(err)
			}
		}
	}
	var rawTime, listTime time.Duration
	for b.Loop() {
		start := time.Now()
		raw()
		rawTime += time.Since(start)
		start = time.Now()
		sums, err := cp.Summaries(b.Context())
		if err != nil || len(sums) != 10000 {
			b.Fatalf("%d summaries, %v", len(sums), err)
		}
		listTime += time.Since(start)
	}
	b.ReportMetric(float64(listTime)/float64(b.N)/1e6, "list-ms/op")
	b.ReportMetric(float64(rawTime)/float64(b.N)/1e6, "lstat-ms/op")
	b.ReportMetric(float64(listTime)/float64(rawTime), "x-lstat")
}
