package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// scanOutcome is everything a reader can observe of a log.
type scanOutcome struct {
	Events   []session.StoredEvent
	ReadErr  string
	Head     int64
	HeadErr  string
	Problems []storage.Problem
	Tail     []session.StoredEvent
	Since    int64
}

// observe reads the log "log" under dir with a checkpointer whose parallel
// scan starts at parallelMin bytes.
func observe(t *testing.T, dir string, c storage.Codec, parallelMin, since int64) scanOutcome {
	t.Helper()
	cp := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: c}})
	session.SetParallelMin(cp, parallelMin)
	ctx := t.Context()
	var o scanOutcome
	var err error
	if o.Events, err = cp.Read(ctx, "log", 0); err != nil {
		o.ReadErr = err.Error()
	}
	if o.Head, err = cp.Head(ctx, "log"); err != nil {
		o.HeadErr = err.Error()
	}
	if o.Problems, err = cp.Verify(ctx, "log"); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	for i := range o.Problems {
		o.Problems[i].Err = fmt.Errorf("%v", o.Problems[i].Err) // compare texts
	}
	o.Since = since
	if o.Tail, err = cp.Read(ctx, "log", since); err != nil {
		o.Tail = nil
	}
	return o
}

// TestParallelScanMatchesSerial checks that reading a log on several cores
// yields exactly what the serial reader yields, event for event and error
// for error, for intact logs and for logs damaged anywhere.
func TestParallelScanMatchesSerial(t *testing.T) {
	aead, err := codec.NewAEAD(codec.AEADOptions{KeyID: "k1", Key: testKey(1)})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const records = 2500 // several chunks of 1024 records
	for _, cc := range []struct {
		name  string
		codec storage.Codec
	}{{"plaintext", nil}, {"xchacha", aead}} {
		base := writeLog(t, cc.codec, 0)
		{
			dir := t.TempDir()
			cp := newCP(t, dir, session.FileOptions{Encoding: storage.Encoding{Codec: cc.codec}})
			var evs []session.Event
			for i := range records {
				evs = append(evs, userText(fmt.Sprintf("%s-%d", secret, i)))
			}
			if _, err := cp.Append(t.Context(), "log", evs, 0); err != nil {
				t.Fatal(err)
			}
			base = readFile(t, filepath.Join(dir, "log.jsonl"))
		}
		lines := bytes.SplitAfter(base, []byte("\n"))
		lines = lines[:len(lines)-1] // the empty piece after the last '\n'
		damages := map[string]func() []byte{
			"intact": func() []byte { return base },
			"no final newline": func() []byte {
				return base[:len(base)-1]
			},
			"blank lines": func() []byte {
				out := bytes.Clone(lines[0])
				for _, l := range lines[1:] {
					out = append(append(out, "\n  \n"...), l...)
				}
				return append(out, "\n\n"...)
			},
			"torn tail": func() []byte {
				return append(bytes.Clone(base), lines[5][:len(lines[5])/2]...)
			},
			"garbage at 1500": func() []byte {
				return replaceAt(lines, 1499, []byte("garbage\n"))
			},
			"two bad records": func() []byte {
				out := replaceAt(lines, 99, []byte("{}\n"))
				return replaceAt(bytes.SplitAfter(out, []byte("\n")), 2100, []byte("{\n"))
			},
			"swapped records": func() []byte {
				ls := append([][]byte(nil), lines...)
				ls[1023], ls[1024] = ls[1024], ls[1023]
				return bytes.Join(ls, nil)
			},
			"bad last record": func() []byte {
				return replaceAt(lines, records-1, []byte("[1]\n"))
			},
		}
		for i := range 6 {
			// Random single-byte damage anywhere in the log.
			damages[fmt.Sprintf("random byte %d", i)] = func() []byte {
				out := bytes.Clone(base)
				out[rng.IntN(len(out))] ^= byte(1 + rng.IntN(255))
				return out
			}
		}
		for name, damage := range damages {
			t.Run(cc.name+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "log.jsonl")
				if err := os.WriteFile(path, damage(), 0o600); err != nil {
					t.Fatal(err)
				}
				since := int64(rng.IntN(records))
				serial := observe(t, dir, cc.codec, 1<<62, since)
				parallel := observe(t, dir, cc.codec, 1, since)
				if !reflect.DeepEqual(serial, parallel) {
					t.Errorf("parallel read differs from serial:\nserial:   %d events, %q, head %d %q, %d problems %v\nparallel: %d events, %q, head %d %q, %d problems %v",
						len(serial.Events), serial.ReadErr, serial.Head, serial.HeadErr, len(serial.Problems), serial.Problems,
						len(parallel.Events), parallel.ReadErr, parallel.Head, parallel.HeadErr, len(parallel.Problems), parallel.Problems)
				}
				if name == "intact" && (len(serial.Events) != records || serial.ReadErr != "") {
					t.Errorf("intact log read %d events, %q", len(serial.Events), serial.ReadErr)
				}
			})
		}
	}
}

// replaceAt returns the lines joined, with line i replaced by repl.
func replaceAt(lines [][]byte, i int, repl []byte) []byte {
	ls := append([][]byte(nil), lines...)
	ls[i] = repl
	return bytes.Join(ls, nil)
}

// TestParallelReadStopsOnCancel checks that a context cancelled while
// workers are decoding ends the read with the context's error, and that
// the read returns only once they have stopped (the session is released
// and reads again at once).
func TestParallelReadStopsOnCancel(t *testing.T) {
	c := &hookCodec{}
	cp := newCP(t, t.TempDir(), session.FileOptions{Encoding: storage.Encoding{Codec: c}})
	const records = 20000 // 20 chunks: the workers are some chunks ahead at most
	appendNumbered(t, cp, "c", records)
	session.SetParallelMin(cp, 1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c.set(func(n int64) {
		if n == 1500 { // mid-read, in a later chunk
			cancel()
		}
	})
	if _, err := cp.Read(ctx, "c", 0); err != context.Canceled {
		t.Fatalf("Read cancelled mid-way = %v", err)
	}
	if n := c.calls.Load(); n > records/2 {
		t.Errorf("the read went on to decode %d of %d records after the cancel at 1500", n, records)
	}
	c.set(nil)
	got, err := cp.Read(t.Context(), "c", records-10)
	if err != nil || len(got) != 10 || got[0].Seq != records-9 {
		t.Fatalf("Read after cancel = %d events, %v", len(got), err)
	}
}

// hookCodec stores records as they are and calls its hook, if set, with
// the number of each Decode call.
type hookCodec struct {
	calls atomic.Int64
	hook  atomic.Pointer[func(n int64)]
}

// set installs f (nil for none) and restarts the count.
func (c *hookCodec) set(f func(n int64)) {
	c.calls.Store(0)
	if f == nil {
		c.hook.Store(nil)
		return
	}
	c.hook.Store(&f)
}

func (*hookCodec) ID() string { return "hook-v1" }
func (*hookCodec) Encode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	return bytes.Clone(p), nil
}
func (c *hookCodec) Decode(_ context.Context, p []byte, _ storage.Context) ([]byte, error) {
	n := c.calls.Add(1)
	if f := c.hook.Load(); f != nil {
		(*f)(n)
	}
	return bytes.Clone(p), nil
}

// TestCodecPanicDuringParallelReadIsAnError checks that a codec panicking
// on a worker goroutine neither crashes the process nor reaches the caller
// as a panic: storage.Encoding turns it into the *storage.Error of a
// failed decode, as in a serial read.
func TestCodecPanicDuringParallelReadIsAnError(t *testing.T) {
	c := &hookCodec{}
	cp := newCP(t, t.TempDir(), session.FileOptions{Encoding: storage.Encoding{Codec: c}})
	appendNumbered(t, cp, "p", 3000)
	session.SetParallelMin(cp, 1)
	c.set(func(int64) { panic("codec bug") })
	_, err := cp.Read(t.Context(), "p", 0)
	var se *storage.Error
	if !errors.As(err, &se) || se.Op != "decode" {
		t.Fatalf("Read with a panicking codec = %v, want the *storage.Error of a failed decode", err)
	}
	// The read released the session: it can be read again.
	c.set(nil)
	if got, err := cp.Read(t.Context(), "p", 2990); err != nil || len(got) != 10 {
		t.Fatalf("Read after the panic = %d events, %v", len(got), err)
	}
}

// appendNumbered appends n user events "0", "1", … to session id in one
// batch: a log of 3000 such events spans several parallel chunks.
func appendNumbered(t *testing.T, cp session.Checkpointer, id string, n int) {
	t.Helper()
	evs := make([]session.Event, n)
	for i := range evs {
		evs[i] = userText(fmt.Sprint(i))
	}
	if _, err := cp.Append(t.Context(), id, evs, 0); err != nil {
		t.Fatal(err)
	}
}
