package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// corruption is one damaged-log case for checkCorruption.
type corruption struct {
	codec   storage.Codec // the configuration that writes and reads the log
	records int           // records written before the damage, one batch each
	base    []byte        // the log before the damage, if already written (see writeLog)
	corrupt func(t *testing.T, path string)
	// bad is the record a strict read must name, or 0 if the damaged log
	// still reads (then it holds left records).
	bad int64
	// left is the number of records readable after the damage: with
	// bad == 0 the log's head, otherwise what a repair keeps. Unless
	// repairable, a repair must refuse and change nothing.
	left       int64
	repairable bool
	// torn says that the damage leaves bytes after the last newline (a
	// torn tail): with bad == 0 the log reads, Scan and Verify report the
	// tail, and the next Append sets it aside.
	torn bool
	// light skips the strict Head, Append and Truncate checks, for the
	// hundreds of cases of the every-offset test.
	light bool
}

const secret = "SECRET-PAYLOAD"

// checkCorruption writes a log, damages it, then reads it strictly, repairs
// it if allowed, reads it again, appends, and reads once more, checking
// every step (the STYLE.md §7 pattern).
func checkCorruption(t *testing.T, c corruption) {
	t.Helper()
	dir := t.TempDir()
	enc := storage.Encoding{Codec: c.codec}
	if c.base == nil {
		c.base = writeLog(t, c.codec, c.records)
	}
	path := filepath.Join(dir, "log.jsonl")
	if err := os.WriteFile(path, c.base, 0o600); err != nil {
		t.Fatal(err)
	}
	c.corrupt(t, path)
	damaged := dirSnapshot(t, dir)
	ctx := t.Context()

	// 1. A strict reader names the bad record and changes nothing.
	strict := newCP(t, dir, session.FileOptions{Encoding: enc})
	evs, err := strict.Read(ctx, "log", 0)
	switch {
	case c.bad == 0:
		if err != nil {
			t.Fatalf("strict Read of a log that should read: %v", err)
		}
		if int64(len(evs)) != c.left {
			t.Fatalf("strict Read gave %d records, want %d", len(evs), c.left)
		}
		checkTornReported(t, strict, path, c.left, c.torn)
		sameSnapshot(t, "reading a log with a torn tail", damaged, dirSnapshot(t, dir))
	default:
		checkBadRecord(t, err, path, c.bad)
		if c.light {
			sameSnapshot(t, "a strict read of a damaged log", damaged, dirSnapshot(t, dir))
			break
		}
		_, herr := strict.Head(ctx, "log")
		checkBadRecord(t, herr, path, c.bad)
		_, aerr := strict.Append(ctx, "log", []session.Event{userText("x")}, session.AnyHead)
		checkBadRecord(t, aerr, path, c.bad)
		checkBadRecord(t, strict.Truncate(ctx, "log", 0, session.AnyHead), path, c.bad)
		sameSnapshot(t, "strict operations on a damaged log", damaged, dirSnapshot(t, dir))
	}

	// 2. A repairing reader repairs a torn plaintext tail only.
	repairing := newCP(t, dir, session.FileOptions{Encoding: enc, RepairTail: true})
	evs, err = repairing.Read(ctx, "log", 0)
	switch {
	case c.bad == 0:
		if err != nil || int64(len(evs)) != c.left {
			t.Fatalf("repairing Read = %d records, %v", len(evs), err)
		}
		sameSnapshot(t, "reading an intact log with RepairTail", damaged, dirSnapshot(t, dir))
	case c.repairable:
		if err != nil {
			t.Fatalf("repairing Read: %v", err)
		}
		if int64(len(evs)) != c.left {
			t.Fatalf("repair kept %d records, want %d", len(evs), c.left)
		}
		checkRepairOutput(t, dir, damaged["log.jsonl"], c.left)
	default:
		checkBadRecord(t, err, path, c.bad)
		sameSnapshot(t, "RepairTail on a damage it must not repair", damaged, dirSnapshot(t, dir))
		return
	}

	// 3. Read again, 4. append, 5. read once more, from cold instances.
	if got := readTexts(t, newCP(t, dir, session.FileOptions{Encoding: enc}), "log"); int64(len(got)) != c.left {
		t.Fatalf("second read: %d records, want %d", len(got), c.left)
	}
	beforeAppend := readFile(t, path)
	if h, err := strict.Append(ctx, "log", []session.Event{userText("after")}, c.left); err != nil || h != c.left+1 {
		t.Fatalf("Append after recovery = %d, %v", h, err)
	}
	checkTornSetAside(t, dir, beforeAppend, c.torn)
	got := readTexts(t, newCP(t, dir, session.FileOptions{Encoding: enc}), "log")
	if int64(len(got)) != c.left+1 || got[len(got)-1] != "after" {
		t.Fatalf("final read %v", got)
	}
	for i, s := range got[:c.left] {
		if want := fmt.Sprintf("%s-%d", secret, i+1); s != want {
			t.Fatalf("record %d is %q, want %q", i+1, s, want)
		}
	}
}

// checkTornReported checks that Scan yields head records and then, for a
// torn log, a *TornTailError (and nothing for an intact one), and that
// Verify ends with the matching ProblemTorn.
func checkTornReported(t *testing.T, cp *session.FileCheckpointer, path string, head int64, torn bool) {
	t.Helper()
	var n int64
	var errs []error
	for _, err := range cp.Scan(t.Context(), "log", 0) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	if n != head {
		t.Errorf("Scan yielded %d records, want %d", n, head)
	}
	if !torn {
		if len(errs) != 0 {
			t.Errorf("Scan of an intact log yielded %v", errs)
		}
		return
	}
	var te *session.TornTailError
	if len(errs) != 1 || !errors.As(errs[0], &te) || !errors.Is(errs[0], session.ErrTornTail) {
		t.Fatalf("Scan errors %v, want one *TornTailError", errs)
	}
	b := readFile(t, path)
	end := int64(bytes.LastIndexByte(b, '\n') + 1)
	if te.File != path || te.Head != head || te.Offset != end || te.Bytes != int64(len(b))-end || te.SessionID != "log" {
		t.Errorf("TornTailError %+v, want file %s head %d offset %d bytes %d", *te, path, head, end, int64(len(b))-end)
	}
	if strings.Contains(te.Error(), secret) {
		t.Errorf("error leaks record contents: %v", te)
	}
	probs, err := cp.Verify(t.Context(), "log")
	if err != nil || len(probs) == 0 {
		t.Fatalf("Verify = %v, %v", probs, err)
	}
	last := probs[len(probs)-1]
	if last.Kind != storage.ProblemTorn || last.File != path || last.Record != strconv.FormatInt(head+1, 10) || last.Offset != end || !last.Tail || last.Repairable || !errors.As(last.Err, &te) {
		t.Errorf("Verify's last problem %+v, want a torn tail at record %d offset %d", last, head+1, end)
	}
}

// checkTornSetAside checks, after an Append to a log that held before, that
// a torn tail was moved into exactly one <id>.jsonl.torn-* file, byte for
// byte, and that the log kept every byte before it.
func checkTornSetAside(t *testing.T, dir string, before []byte, torn bool) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "log.jsonl.torn-*"))
	if !torn {
		if len(matches) != 0 {
			t.Errorf("torn copies %v for a log without a torn tail", matches)
		}
		return
	}
	if len(matches) != 1 {
		t.Fatalf("torn copies: %v, want one", matches)
	}
	end := bytes.LastIndexByte(before, '\n') + 1
	if got := readFile(t, matches[0]); !bytes.Equal(got, before[end:]) {
		t.Errorf("the torn copy holds %q, want %q", got, before[end:])
	}
	if st, err := os.Stat(matches[0]); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("torn copy mode %v, %v", st, err)
	}
	if after := readFile(t, filepath.Join(dir, "log.jsonl")); !bytes.HasPrefix(after, before[:end]) || len(after) == end || after[len(after)-1] != '\n' {
		t.Errorf("the log after the append does not keep the complete records and add whole lines")
	}
}

// writeLog returns a log of session "log" holding records user events,
// one batch each, written under c with a fixed clock.
func writeLog(t testing.TB, c storage.Codec, records int) []byte {
	t.Helper()
	if records == 0 {
		return []byte{}
	}
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: c}})
	session.SetClock(cp, func() time.Time { return fixedTime })
	for i := range records {
		appendTexts(t, cp, "log", fmt.Sprintf("%s-%d", secret, i+1))
	}
	return readFile(t, filepath.Join(dir, "log.jsonl"))
}

// checkBadRecord checks the error for a corrupt record: a *storage.Error
// naming the file and the record, holding no payload.
func checkBadRecord(t *testing.T, err error, path string, rec int64) {
	t.Helper()
	var se *storage.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T), want *storage.Error", err, err)
	}
	if se.File != path || se.Record != fmt.Sprint(rec) {
		t.Errorf("error names file %q record %q, want %q record %d: %v", se.File, se.Record, path, rec, err)
	}
	if se.Kind != storage.KindCheckpoint {
		t.Errorf("error kind %q", se.Kind)
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "payload\":") {
		t.Errorf("error leaks record contents: %v", err)
	}
}

// checkRepairOutput checks that the damaged file was copied aside byte for
// byte and that the log now holds exactly its first `left` record lines.
func checkRepairOutput(t *testing.T, dir, damaged string, left int64) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "log.jsonl.broken-*"))
	if len(matches) != 1 {
		t.Fatalf("broken copies: %v, want one", matches)
	}
	if got := string(readFile(t, matches[0])); got != damaged {
		t.Errorf("the copy aside is not the damaged file")
	}
	st, err := os.Stat(matches[0])
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("copy mode %v, %v", st.Mode(), err)
	}
	repaired := string(readFile(t, filepath.Join(dir, "log.jsonl")))
	if !strings.HasPrefix(damaged, repaired) {
		t.Errorf("the repaired log is not a prefix of the damaged one")
	}
	if n := int64(strings.Count(repaired, "\n")); n != left || (left > 0 && !strings.HasSuffix(repaired, "\n")) {
		t.Errorf("the repaired log has %d lines, want %d whole lines", n, left)
	}
}

// lastLine returns the offsets of the last line of the file (without its
// newline).
func lastLine(t *testing.T, path string) (start, end int) {
	b := readFile(t, path)
	end = len(b)
	if end > 0 && b[end-1] == '\n' {
		end--
	}
	return bytes.LastIndexByte(b[:end], '\n') + 1, end
}

func cutAt(n int) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		if err := os.Truncate(path, int64(n)); err != nil {
			t.Fatal(err)
		}
	}
}

func appendBytes(data []byte) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Write(data); err != nil {
			t.Fatal(err)
		}
	}
}

// replaceLine replaces line i (1-based) of the file with repl.
func replaceLine(i int, repl func(old []byte) []byte) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		lines := bytes.SplitAfter(readFile(t, path), []byte("\n"))
		old := bytes.TrimSuffix(lines[i-1], []byte("\n"))
		lines[i-1] = append(repl(old), '\n')
		if err := os.WriteFile(path, bytes.Join(lines, nil), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCutAtEveryOffsetOfTheLastLine(t *testing.T) {
	for _, cc := range []codecCase{{name: "plaintext"}, {name: "gzip", codec: codec.Gzip()}, {name: "xchacha20poly1305", codec: aead(t, codec.XChaCha20Poly1305, "k1", 1)}} {
		t.Run(cc.name, func(t *testing.T) {
			base := writeLog(t, cc.codec, 3)
			end := len(base) - 1 // the last line's newline
			start := bytes.LastIndexByte(base[:end], '\n') + 1
			// The cases wait on the disk more than on the CPU, so run
			// them eight at a time whatever -parallel says.
			cuts := make(chan int)
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(func() {
					for cut := range cuts {
						c := corruption{codec: cc.codec, base: base, corrupt: cutAt(cut), light: true}
						switch {
						case cut == start: // the whole last record is gone: a valid log
							c.left = 2
						case cut > end: // the record is whole, with its newline
							c.left = 3
						default: // a torn tail, even a whole record without its newline
							c.left, c.torn = 2, true
						}
						t.Run(fmt.Sprintf("cut%d", cut-start), func(t *testing.T) { checkCorruption(t, c) })
					}
				})
			}
			for cut := start; cut <= end+1; cut++ {
				cuts <- cut
			}
			close(cuts)
			wg.Wait()
		})
	}
}

func TestZeroFilledTail(t *testing.T) {
	for _, cc := range []codecCase{{name: "plaintext"}, {name: "zstd", codec: codec.Zstd()}} {
		plain := cc.codec == nil
		t.Run(cc.name+"/last line zeroed", func(t *testing.T) {
			checkCorruption(t, corruption{codec: cc.codec, records: 4, left: 3, torn: true,
				corrupt: func(t *testing.T, path string) {
					b := readFile(t, path)
					start, _ := lastLine(t, path)
					clear(b[start:]) // the newline too, as after a power loss
					os.WriteFile(path, b, 0o600)
				}})
		})
		t.Run(cc.name+"/zero block after the last line", func(t *testing.T) {
			checkCorruption(t, corruption{codec: cc.codec, records: 4, left: 4, torn: true,
				corrupt: appendBytes(make([]byte, 4096))})
		})
		t.Run(cc.name+"/zero block ending in a newline", func(t *testing.T) {
			checkCorruption(t, corruption{codec: cc.codec, records: 4, bad: 5, left: 4, repairable: plain,
				corrupt: appendBytes(append(make([]byte, 4096), '\n'))})
		})
	}
}

func TestGarbageAfterTheLastNewline(t *testing.T) {
	for _, garbage := range []string{"x", "{\"seq\":", "\x00\x01\x02", "{\"seq\":5}x", "\xff\xfe garbage", "[", " "} {
		t.Run(fmt.Sprintf("torn %q", garbage), func(t *testing.T) {
			checkCorruption(t, corruption{records: 2, left: 2, torn: true, corrupt: appendBytes([]byte(garbage))})
		})
		t.Run(fmt.Sprintf("line %q", garbage+"\n"), func(t *testing.T) {
			if strings.TrimSpace(garbage) == "" {
				return // a blank line
			}
			checkCorruption(t, corruption{records: 2, bad: 3, left: 2, repairable: true, corrupt: appendBytes([]byte(garbage + "\n"))})
		})
	}
	t.Run("encoded torn", func(t *testing.T) {
		checkCorruption(t, corruption{codec: codec.Gzip(), records: 2, left: 2, torn: true, corrupt: appendBytes([]byte("garbage"))})
	})
	t.Run("encoded line", func(t *testing.T) {
		checkCorruption(t, corruption{codec: codec.Gzip(), records: 2, bad: 3, left: 2, corrupt: appendBytes([]byte("garbage\n"))})
	})
	t.Run("bad line then a torn tail", func(t *testing.T) {
		checkCorruption(t, corruption{records: 2, bad: 3, left: 2, repairable: true, corrupt: appendBytes([]byte("garbage\n{\"se"))})
	})
	t.Run("garbage then a blank line", func(t *testing.T) {
		checkCorruption(t, corruption{records: 2, bad: 3, left: 2, repairable: true, corrupt: appendBytes([]byte("garbage\n\n  \n"))})
	})
	t.Run("blank lines only", func(t *testing.T) {
		checkCorruption(t, corruption{records: 2, left: 2, corrupt: appendBytes([]byte("\n \t\r\n\n"))})
	})
}

func TestValidJSONThatIsNotTheNextRecordIsNeverRepaired(t *testing.T) {
	for name, line := range map[string]string{
		"wrong seq":        `{"seq":9,"sessionId":"log","parentSeq":8,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"x"}}}`,
		"wrong session":    `{"seq":3,"sessionId":"other","parentSeq":2,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"x"}}}`,
		"wrong parent":     `{"seq":3,"sessionId":"log","parentSeq":null,"ts":"2026-07-22T12:00:00.000Z","event":{"type":"user","message":{"role":"user","content":"x"}}}`,
		"no event type":    `{"seq":3,"sessionId":"log","parentSeq":2,"ts":"2026-07-22T12:00:00.000Z","event":{}}`,
		"bad ts":           `{"seq":3,"sessionId":"log","parentSeq":2,"ts":"noon","event":{"type":"user","message":{"role":"user","content":"x"}}}`,
		"not an object":    `[1,2,3]`,
		"a duplicate line": "", // filled below
	} {
		t.Run(name, func(t *testing.T) {
			corrupt := appendBytes([]byte(line + "\n"))
			if line == "" {
				corrupt = func(t *testing.T, path string) {
					start, end := lastLine(t, path)
					appendBytes(readFile(t, path)[start:end+1])(t, path)
				}
			}
			checkCorruption(t, corruption{records: 2, bad: 3, left: 2, corrupt: corrupt})
		})
	}
}

func TestBadRecordMidFileNamesTheRecord(t *testing.T) {
	for _, cc := range codecMatrix(t) {
		t.Run(cc.name+"/garbage", func(t *testing.T) {
			checkCorruption(t, corruption{codec: cc.codec, records: 4, bad: 2,
				corrupt: replaceLine(2, func([]byte) []byte { return []byte("not json at all") })})
		})
		t.Run(cc.name+"/one flipped byte", func(t *testing.T) {
			checkCorruption(t, corruption{codec: cc.codec, records: 4, bad: 3,
				corrupt: replaceLine(3, func(old []byte) []byte {
					b := bytes.Clone(old)
					i := bytes.LastIndex(b, []byte(`"}`)) - 6 // inside the payload or the message
					if cc.codec == nil {
						i = bytes.Index(b, []byte(`"seq":3`)) + 6
					}
					b[i] ^= 0x01
					return b
				})})
		})
		t.Run(cc.name+"/torn record then more records", func(t *testing.T) {
			checkCorruption(t, corruption{codec: cc.codec, records: 4, bad: 2,
				corrupt: replaceLine(2, func(old []byte) []byte { return old[:len(old)/2] })})
		})
	}
}

func TestSwappedEncodedRecordsDoNotDecode(t *testing.T) {
	for _, cc := range codecMatrix(t) {
		if !cc.hides {
			continue
		}
		t.Run(cc.name, func(t *testing.T) {
			checkCorruption(t, corruption{codec: cc.codec, records: 3, bad: 1,
				corrupt: func(t *testing.T, path string) {
					lines := bytes.SplitAfter(readFile(t, path), []byte("\n"))
					lines[0], lines[1] = lines[1], lines[0]
					os.WriteFile(path, bytes.Join(lines, nil), 0o600)
				}})
		})
	}
}

// encodedLine returns the stored form of record seq of session "log"
// under c.
func encodedLine(t *testing.T, c storage.Codec, seq int64, text string) []byte {
	t.Helper()
	rec := session.StoredEvent{Seq: seq, SessionID: "log", ParentSeq: seq - 1, Time: fixedTime, Event: userText(text)}
	plain, err := rec.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	out, err := storage.Encoding{Codec: c}.Encode(context.Background(), storage.KindCheckpoint, "log", fmt.Sprint(seq), plain)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func TestValidLineUnderTheWrongCodecIsNeverRepaired(t *testing.T) {
	gz, zs := codec.Gzip(), codec.Zstd()
	k1 := aead(t, codec.XChaCha20Poly1305, "k1", 1)
	for _, tt := range []struct {
		name         string
		log, lastBy  storage.Codec
		torn         bool
		wantRepaired bool
	}{
		{name: "zstd line in a gzip log", log: gz, lastBy: zs},
		{name: "plaintext line in an encrypted log", log: k1, lastBy: nil},
		{name: "encrypted line with another key id", log: k1, lastBy: aead(t, codec.XChaCha20Poly1305, "k2", 1)},
		{name: "encrypted line with another key", log: k1, lastBy: aead(t, codec.XChaCha20Poly1305, "k1", 2)},
		{name: "envelope in a plaintext log", log: nil, lastBy: gz},
		{name: "torn envelope in a plaintext log", log: nil, lastBy: gz, torn: true},
		{name: "torn line of another key in an encrypted log", log: k1, lastBy: aead(t, codec.XChaCha20Poly1305, "k1", 2), torn: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := corruption{codec: tt.log, records: 2, bad: 3,
				corrupt: func(t *testing.T, path string) {
					line := encodedLine(t, tt.lastBy, 3, secret+"-3")
					if tt.torn {
						// A missing newline is framing: whatever the bytes
						// before it, they are a torn tail, set aside by the
						// next append rather than decoded.
						line = line[:len(line)/2]
					}
					appendBytes(line)(t, path)
				}}
			if tt.torn {
				c.bad, c.left, c.torn = 0, 2, true
			}
			checkCorruption(t, c)
		})
	}
}

func TestRepairNamesTheCopyAfterTheClockAndNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{RepairTail: true})
	session.SetClock(cp, func() time.Time { return fixedTime })
	appendTexts(t, cp, "log", "a", "b")
	path := filepath.Join(dir, "log.jsonl")
	appendBytes([]byte("{\"seq\":3,\"sess\n"))(t, path)
	damaged := readFile(t, path)
	ms := fixedTime.UnixMilli()
	taken := filepath.Join(dir, fmt.Sprintf("log.jsonl.broken-%d", ms))
	if err := os.WriteFile(taken, []byte("an earlier copy"), 0o600); err != nil {
		t.Fatal(err)
	}
	if h, err := cp.Head(t.Context(), "log"); err != nil || h != 2 {
		t.Fatalf("Head = %d, %v", h, err)
	}
	if got := string(readFile(t, taken)); got != "an earlier copy" {
		t.Error("the repair overwrote an earlier copy")
	}
	if got := readFile(t, filepath.Join(dir, fmt.Sprintf("log.jsonl.broken-%d", ms+1))); !bytes.Equal(got, damaged) {
		t.Errorf("copy aside = %q", got)
	}
}

func TestVerifyReportsEveryProblemAndChangesNothing(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{RepairTail: true})
	appendTexts(t, cp, "v", "1", "2", "3", "4", "5")
	path := filepath.Join(dir, "v.jsonl")
	replaceLine(2, func([]byte) []byte { return []byte("garbage") })(t, path)
	replaceLine(4, func(old []byte) []byte {
		return bytes.Replace(old, []byte(`"content":"4"`), []byte(`"content":4`), 1)
	})(t, path)
	appendBytes([]byte("{\"seq\":6"))(t, path)
	before := dirSnapshot(t, dir)
	problems, err := cp.Verify(t.Context(), "v")
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		rec  int64
		kind storage.ProblemKind
		tail bool
	}
	wants := []want{{2, storage.ProblemSyntax, false}, {4, storage.ProblemEvent, false}, {6, storage.ProblemTorn, true}}
	if len(problems) != len(wants) {
		t.Fatalf("Verify = %+v", problems)
	}
	lines := bytes.SplitAfter(readFile(t, path), []byte("\n"))
	for i, w := range wants {
		p := problems[i]
		if p.Record != strconv.FormatInt(w.rec, 10) || p.Kind != w.kind || p.Tail != w.tail || p.Repairable {
			t.Errorf("problem %d = %+v, want %+v", i, p, w)
		}
		if off := int64(len(bytes.Join(lines[:w.rec-1], nil))); p.Offset != off {
			t.Errorf("problem %d offset %d, want %d", i, p.Offset, off)
		}
		if w.kind == storage.ProblemTorn {
			var te *session.TornTailError
			if !errors.As(p.Err, &te) || te.Head != 5 || te.Bytes != 8 {
				t.Errorf("torn problem's error %v", p.Err)
			}
			continue
		}
		checkBadRecord(t, p.Err, path, w.rec)
	}
	sameSnapshot(t, "Verify", before, dirSnapshot(t, dir))

	// A lone malformed last line is reported as repairable, and still not
	// repaired; so is one followed by a torn tail.
	appendTexts(t, cp, "w", "1")
	appendBytes([]byte("{\n"))(t, filepath.Join(dir, "w.jsonl"))
	before = dirSnapshot(t, dir)
	problems, err = cp.Verify(t.Context(), "w")
	if err != nil || len(problems) != 1 || !problems[0].Repairable || !problems[0].Tail {
		t.Errorf("Verify = %+v, %v", problems, err)
	}
	sameSnapshot(t, "Verify with RepairTail", before, dirSnapshot(t, dir))
	appendBytes([]byte("{"))(t, filepath.Join(dir, "w.jsonl"))
	before = dirSnapshot(t, dir)
	problems, err = cp.Verify(t.Context(), "w")
	if err != nil || len(problems) != 2 || !problems[0].Repairable || problems[1].Kind != storage.ProblemTorn {
		t.Errorf("Verify = %+v, %v", problems, err)
	}
	sameSnapshot(t, "Verify with RepairTail", before, dirSnapshot(t, dir))
	if problems, err := cp.Verify(t.Context(), "missing"); err != nil || problems != nil {
		t.Errorf("Verify of a missing log = %v, %v", problems, err)
	}
}

func TestScanYieldsTheReadablePrefixThenTheError(t *testing.T) {
	dir := t.TempDir()
	cp := newCP(t, dir, session.FileOptions{RepairTail: true})
	appendTexts(t, cp, "s", "1", "2", "3", "4")
	path := filepath.Join(dir, "s.jsonl")
	replaceLine(3, func([]byte) []byte { return []byte("{broken") })(t, path)
	before := dirSnapshot(t, dir)
	var got []string
	var errs []error
	for se, err := range cp.Scan(t.Context(), "s", 0) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, textsOf([]session.StoredEvent{se})...)
	}
	if !slices.Equal(got, []string{"1", "2"}) || len(errs) != 1 {
		t.Fatalf("Scan yielded %v and errors %v", got, errs)
	}
	checkBadRecord(t, errs[0], path, 3)
	sameSnapshot(t, "Scan", before, dirSnapshot(t, dir))

	// sinceSeq, breaking out early, and ranging twice.
	seq := cp.Scan(t.Context(), "s", 1)
	for range 2 {
		for se, err := range seq {
			if err != nil || se.Seq != 2 {
				t.Fatalf("first yield = %d, %v", se.Seq, err)
			}
			break
		}
	}
	// The lock was released by the break: a write goes through at once.
	if err := cp.Truncate(t.Context(), "s", 2, session.AnyHead); !errors.Is(err, err) || err == nil {
		// The log is corrupt at record 3, so truncate fails, but not on the lock.
		checkBadRecord(t, err, path, 3)
	}
	for range cp.Scan(t.Context(), "nobody", 0) {
		t.Error("Scan of an unknown session yielded something")
	}
}
