package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
)

// textEvent returns the i-th test event of session s1.
func textEvent(i int) engine.Event {
	return engine.Event{Type: engine.EventTextDelta, SessionID: "s1", Turn: 1, Text: fmt.Sprintf("record %d", i)}
}

// writeLog appends n test events to a new log in dir with opts and
// returns the log's files, oldest first.
func writeLog(t *testing.T, path string, n int, opts Options) []string {
	t.Helper()
	opts.NoSync = true
	l, err := NewLog(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l.now = func() time.Time { clock = clock.Add(time.Millisecond); return clock }
	for i := 1; i <= n; i++ {
		if err := l.Append(t.Context(), textEvent(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := Files(path)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func readLines(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(b, []byte("\n"))[:bytes.Count(b, []byte("\n"))]
}

func writeLines(t *testing.T, path string, lines [][]byte) {
	t.Helper()
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
}

// editLines applies edit to the lines of path.
func editLines(t *testing.T, path string, edit func([][]byte) [][]byte) {
	t.Helper()
	writeLines(t, path, edit(readLines(t, path)))
}

// rehash returns line (a record with its newline) with its prevHash
// replaced and its hash recomputed without a key, as someone who can
// write the file but holds no key would.
func rehash(t *testing.T, line []byte, prevHash string, event json.RawMessage) []byte {
	t.Helper()
	rec, err := decodeRecord(bytes.TrimSuffix(line, []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	if event == nil {
		event = rec.event
	}
	out, _ := encodeRecord(nil, rec.ts, rec.sessionID, rec.seq, prevHash, event)
	return out
}

// TestVerifyFindsEveryBreak breaks a rotated chain of 12 records in three
// files (records 1-4 in FILE.2, 5-8 in FILE.1, 9-12 in FILE) in every way
// and checks that Verify names the first broken record.
func TestVerifyFindsEveryBreak(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	type want struct {
		file   int // index into the files verified
		line   int
		seq    int64
		reason Reason
	}
	cases := []struct {
		name string
		key  []byte // the key the log is written with
		vkey []byte // the key it is verified with
		// corrupt changes the files (FILE.2, FILE.1, FILE) and returns
		// those to verify.
		corrupt func(t *testing.T, f []string) []string
		want    *want
		torn    bool
	}{
		{name: "intact", corrupt: nil},
		{name: "intact keyed", key: key, vkey: key},
		{name: "edit the event", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[1], func(l [][]byte) [][]byte {
				l[1] = bytes.Replace(l[1], []byte("record 6"), []byte("record X"), 1)
				return l
			})
			return f
		}, want: &want{1, 2, 6, ReasonHash}},
		{name: "edit the timestamp", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[0], func(l [][]byte) [][]byte {
				l[2] = bytes.Replace(l[2], []byte(`"ts":"2026`), []byte(`"ts":"2025`), 1)
				return l
			})
			return f
		}, want: &want{0, 3, 3, ReasonHash}},
		{name: "edit the seq", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[2], func(l [][]byte) [][]byte {
				l[0] = bytes.Replace(l[0], []byte(`"seq":9`), []byte(`"seq":10`), 1)
				return l
			})
			return f
		}, want: &want{2, 1, 10, ReasonHash}},
		{name: "edit and rehash without the key", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[1], func(l [][]byte) [][]byte {
				rec, _ := decodeRecord(bytes.TrimSuffix(l[0], []byte("\n")))
				l[1] = rehash(t, l[1], rec.hash, json.RawMessage(`{"text":"forged","type":"text_delta"}`))
				return l
			})
			return f
		}, want: &want{1, 3, 7, ReasonPrevHash}},
		{name: "edit and rehash a keyed log", key: key, vkey: key, corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[1], func(l [][]byte) [][]byte {
				rec, _ := decodeRecord(bytes.TrimSuffix(l[0], []byte("\n")))
				l[1] = rehash(t, l[1], rec.hash, json.RawMessage(`{"text":"forged","type":"text_delta"}`))
				return l
			})
			return f
		}, want: &want{1, 2, 6, ReasonHash}},
		{name: "delete a record", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[1], func(l [][]byte) [][]byte { return append(l[:1:1], l[2:]...) })
			return f
		}, want: &want{1, 2, 7, ReasonSeq}},
		{name: "delete the first record of a file", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[2], func(l [][]byte) [][]byte { return l[1:] })
			return f
		}, want: &want{2, 1, 10, ReasonSeq}},
		{name: "delete the last record of a rotated file", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[0], func(l [][]byte) [][]byte { return l[:3] })
			return f
		}, want: &want{1, 1, 5, ReasonSeq}},
		{name: "reorder two records", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[0], func(l [][]byte) [][]byte {
				l[1], l[2] = l[2], l[1]
				return l
			})
			return f
		}, want: &want{0, 2, 3, ReasonSeq}},
		{name: "duplicate a record", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[2], func(l [][]byte) [][]byte { return append(l[:3:3], l[2], l[3]) })
			return f
		}, want: &want{2, 4, 11, ReasonSeq}},
		{name: "replace a record's prevHash and rehash it", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[0], func(l [][]byte) [][]byte {
				l[2] = rehash(t, l[2], strings.Repeat("0", 64), nil)
				return l
			})
			return f
		}, want: &want{0, 3, 3, ReasonPrevHash}},
		{name: "cut the last line mid-record", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[2], func(l [][]byte) [][]byte {
				l[3] = l[3][:len(l[3])/2]
				return l
			})
			return f
		}, torn: true},
		{name: "cut a middle line mid-record", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[2], func(l [][]byte) [][]byte {
				l[1] = append(l[1][:len(l[1])/2:len(l[1])/2], '\n')
				return l
			})
			return f
		}, want: &want{2, 2, 0, ReasonMalformed}},
		{name: "cut a rotated file mid-record", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[1], func(l [][]byte) [][]byte {
				l[3] = l[3][:len(l[3])-10]
				return l
			})
			return f
		}, want: &want{1, 4, 0, ReasonTorn}},
		{name: "garbage line", corrupt: func(t *testing.T, f []string) []string {
			editLines(t, f[1], func(l [][]byte) [][]byte { return append(l[:2:2], append([][]byte{[]byte("not json\n")}, l[2:]...)...) })
			return f
		}, want: &want{1, 3, 0, ReasonMalformed}},
		{name: "swap the rotated files", corrupt: func(t *testing.T, f []string) []string {
			a, _ := os.ReadFile(f[0])
			b, _ := os.ReadFile(f[1])
			os.WriteFile(f[0], b, 0o600)
			os.WriteFile(f[1], a, 0o600)
			return f
		}, want: &want{1, 1, 1, ReasonSeq}},
		{name: "files given out of order", corrupt: func(t *testing.T, f []string) []string {
			return []string{f[1], f[0], f[2]}
		}, want: &want{1, 1, 1, ReasonSeq}},
		{name: "drop the middle file", corrupt: func(t *testing.T, f []string) []string {
			if err := os.Remove(f[1]); err != nil {
				t.Fatal(err)
			}
			files, err := Files(f[2])
			if err != nil {
				t.Fatal(err)
			}
			return files
		}, want: &want{1, 1, 9, ReasonSeq}},
		{name: "wrong key", key: key, vkey: []byte("another key, not the one written"), want: &want{0, 1, 1, ReasonHash}},
		{name: "keyed log verified without a key", key: key, want: &want{0, 1, 1, ReasonHash}},
		{name: "plain log verified with a key", vkey: key, want: &want{0, 1, 1, ReasonHash}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			files := writeLog(t, path, 12, Options{Key: tc.key, MaxBytes: rotateAt4(t, tc.key), MaxFiles: 10})
			if len(files) != 3 {
				t.Fatalf("the log has %d files, want 3: %v", len(files), files)
			}
			verified := files
			if tc.corrupt != nil {
				verified = tc.corrupt(t, files)
			}
			rep, err := Verify(t.Context(), verified, tc.vkey)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if !rep.OK() {
					t.Fatalf("Verify found a break in an intact chain: %v", rep.Broken)
				}
				if (rep.Torn != nil) != tc.torn {
					t.Fatalf("Torn = %v, want torn %v", rep.Torn, tc.torn)
				}
				wantRecords := int64(12)
				if tc.torn {
					wantRecords = 11
				}
				if rep.Records != wantRecords || rep.FirstSeq != 1 || !rep.Start {
					t.Fatalf("report %+v, want %d records from seq 1", rep, wantRecords)
				}
				return
			}
			b := rep.Broken
			if b == nil {
				t.Fatalf("Verify found no break; report %+v", rep)
			}
			w := tc.want
			if b.File != verified[w.file] || b.Line != w.line || b.Seq != w.seq || b.Reason != w.reason {
				t.Fatalf("broken at %s line %d seq %d (%s: %s), want %s line %d seq %d (%s)",
					b.File, b.Line, b.Seq, b.Reason, b.Detail, verified[w.file], w.line, w.seq, w.reason)
			}
			if !strings.Contains(b.Error(), b.File) || !strings.Contains(b.Error(), fmt.Sprintf("line %d", w.line)) {
				t.Fatalf("the error %q does not name the record", b.Error())
			}
		})
	}
}

// rotateAt4 returns a MaxBytes that puts records 1-4, 5-8 and 9-12 of
// writeLog in a file each: a little more than four records 2 to 9 (the
// first record, whose prevHash is empty, is smaller, and records 10 to 12
// two bytes larger).
func rotateAt4(t *testing.T, key []byte) int64 {
	t.Helper()
	lines := readLines(t, writeLog(t, filepath.Join(t.TempDir(), "two.jsonl"), 2, Options{Key: key})[0])
	return 4*int64(len(lines[1])) + 16
}

func TestVerifyNeedsFiles(t *testing.T) {
	if _, err := Verify(t.Context(), nil, nil); err == nil {
		t.Fatal("Verify of no files succeeded")
	}
	if _, err := Verify(t.Context(), []string{filepath.Join(t.TempDir(), "missing")}, nil); err == nil {
		t.Fatal("Verify of a missing file succeeded")
	}
}

func TestVerifyStopsWithContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	files := writeLog(t, path, 2, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Verify(ctx, files, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Verify with a cancelled context: %v, want context.Canceled", err)
	}
}
