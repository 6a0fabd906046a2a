package session_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
)

// FuzzRepairTail appends arbitrary bytes to a valid log of n records,
// reads it with RepairTail, then appends. The garbage splits into complete
// lines and a torn tail (the bytes after its last newline). The
// properties: valid records are never lost; the read either fails having
// changed nothing, or leaves a log that is a prefix of the damaged file
// holding every valid record, with the original copied aside if anything
// was dropped; a torn tail alone never fails a read nor changes the file;
// repair(valid + one malformed line + torn tail) == valid; and after a
// successful read the next append succeeds, moving a remaining torn tail,
// byte for byte, into <id>.jsonl.torn-*.
func FuzzRepairTail(f *testing.F) {
	bases := make([][]byte, 4)
	for n := range bases {
		bases[n] = writeLog(f, nil, n)
	}
	f.Add(uint8(2), []byte(`{"seq":3,"sessionId":"log","par`))
	f.Add(uint8(0), []byte("\x00\x00\x00\x00"))
	f.Add(uint8(1), []byte("garbage\n"))
	f.Add(uint8(1), []byte("garbage\n{\"se"))
	dir := f.TempDir()
	var counter atomic.Int64
	f.Fuzz(func(t *testing.T, n uint8, garbage []byte) {
		valid := bases[int(n)%len(bases)]
		records := bytes.Count(valid, []byte("\n"))
		id := fmt.Sprintf("f%d", counter.Add(1))
		path := filepath.Join(dir, id+".jsonl")
		// The base logs are for session "log": rename the session.
		damaged := append(bytes.ReplaceAll(bytes.Clone(valid), []byte(`"sessionId":"log"`), []byte(`"sessionId":"`+id+`"`)), garbage...)
		if err := os.WriteFile(path, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		validLen := len(damaged) - len(garbage)
		lines := garbage[:bytes.LastIndexByte(garbage, '\n')+1]
		cp, err := session.NewFileCheckpointer(dir, session.FileOptions{RepairTail: true})
		if err != nil {
			t.Fatal(err)
		}
		evs, err := cp.Read(t.Context(), id, 0)
		after := readFile(t, path)
		broken, _ := filepath.Glob(path + ".broken-*")
		if err != nil {
			if !bytes.Equal(after, damaged) || len(broken) != 0 {
				t.Fatalf("a failed repair changed the log or copied it aside")
			}
			if len(lines) == 0 || singleTornLine(lines) {
				t.Fatalf("read(valid + %q) failed: %v", garbage, err)
			}
			return
		}
		if len(after) < validLen || !bytes.Equal(after, damaged[:len(after)]) {
			t.Fatalf("the repaired log is not a prefix of the damaged one holding every valid record")
		}
		if len(evs) < records {
			t.Fatalf("read %d records, the valid part holds %d", len(evs), records)
		}
		if changed := len(after) != len(damaged); changed != (len(broken) == 1) || changed && !bytes.Equal(readFile(t, broken[0]), damaged) {
			t.Fatalf("copy aside %v for a change %v", broken, changed)
		}
		if len(lines) == 0 && len(after) != len(damaged) {
			t.Fatalf("reading valid + torn tail %q changed the log", garbage)
		}
		if singleTornLine(lines) && len(after) != validLen {
			t.Fatalf("repair(valid + %q) kept %d bytes, want the %d valid ones", garbage, len(after), validLen)
		}
		if again, err := cp.Read(t.Context(), id, 0); err != nil || len(again) != len(evs) {
			t.Fatalf("reading the repaired log again: %d records, %v", len(again), err)
		}
		head, err := session.NewFileCheckpointer(dir, session.FileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if h, err := head.Append(t.Context(), id, []session.Event{userText("next")}, int64(len(evs))); err != nil || h != int64(len(evs))+1 {
			t.Fatalf("append after a successful read = %d, %v", h, err)
		}
		torn := after[bytes.LastIndexByte(after, '\n')+1:]
		aside, _ := filepath.Glob(path + ".torn-*")
		if len(torn) > 0 != (len(aside) == 1) || len(aside) > 1 || len(torn) > 0 && !bytes.Equal(readFile(t, aside[0]), torn) {
			t.Fatalf("torn tail %q, copies aside %v", torn, aside)
		}
	})
}

// singleTornLine reports whether garbage is one line (optionally ended by
// '\n') that is not blank and not JSON, and holds no envelope: the shape
// a torn or zero-filled plaintext tail has.
func singleTornLine(garbage []byte) bool {
	line := bytes.TrimSuffix(garbage, []byte("\n"))
	trimmed := bytes.Trim(line, " \t\r")
	return len(trimmed) > 0 && !bytes.Contains(line, []byte("\n")) && !json.Valid(trimmed) &&
		!bytes.Contains(line, []byte(`"liteAgentStorage"`))
}

// FuzzSummaries appends arbitrary bytes to a valid log of n records and
// summarizes it. Summaries never fails the listing for a bad log, and
// agrees with a full read wherever the full read succeeds: the same record
// count, the first prompt as title, and a torn tail exactly when the file
// has bytes after its last newline.
func FuzzSummaries(f *testing.F) {
	bases := make([][]byte, 4)
	for n := range bases {
		bases[n] = writeLog(f, nil, n)
	}
	f.Add(uint8(2), []byte(`{"seq":3,"sessionId":"log","par`))
	f.Add(uint8(1), []byte("\n\n  \n"))
	f.Fuzz(func(t *testing.T, n uint8, garbage []byte) {
		valid := bases[int(n)%len(bases)]
		dir := t.TempDir()
		path := filepath.Join(dir, "log.jsonl")
		damaged := append(bytes.Clone(valid), garbage...)
		if err := os.WriteFile(path, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		cp, err := session.NewFileCheckpointer(dir, session.FileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sums, err := cp.Summaries(t.Context())
		if err != nil || len(sums) != 1 {
			t.Fatalf("Summaries = %v, %v", sums, err)
		}
		s := sums[0]
		if s.Size != int64(len(damaged)) || s.Torn != (len(damaged) > 0 && damaged[len(damaged)-1] != '\n') {
			t.Fatalf("summary %+v of %d bytes", s, len(damaged))
		}
		if s.Err != nil && strings.Contains(s.Err.Error(), secret) {
			t.Fatalf("error leaks record contents: %v", s.Err)
		}
		// With a line limit the bases' lines fit in, an end longer than
		// the limit is read backwards (lastLineFar): it must agree.
		small, err := session.NewFileCheckpointer(dir, session.FileOptions{})
		if err != nil {
			t.Fatal(err)
		}
		session.SetMaxLine(small, 1024)
		ss, err := small.Summaries(t.Context())
		if err != nil || len(ss) != 1 || ss[0].Size != s.Size || ss[0].Torn != s.Torn {
			t.Fatalf("summary with a 1 KiB line limit %+v, %v; without %+v", ss, err, s)
		}
		if ss[0].Err == nil && s.Err == nil && (ss[0].Records != s.Records || ss[0].Title != s.Title) {
			t.Fatalf("summary with a 1 KiB line limit %+v; without %+v", ss[0], s)
		}
		evs, err := cp.Read(t.Context(), "log", 0)
		if err != nil {
			return
		}
		if s.Err != nil || s.Records != int64(len(evs)) {
			t.Fatalf("summary %+v of a log that reads %d records", s, len(evs))
		}
		if len(evs) > 0 && s.Title != textsOf(evs)[0] && strings.HasPrefix(textsOf(evs)[0], secret) {
			t.Fatalf("title %q, first prompt %q", s.Title, textsOf(evs)[0])
		}
	})
}
