package task

import (
	"fmt"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// BenchmarkUpdate measures one durable read-modify-write update of a task in
// a list of 50, in one process, against the raw atomic replace of a file of
// the same size measured in the same run (sub-benchmark "raw").
func BenchmarkUpdate(b *testing.B) {
	b.Run("raw", func(b *testing.B) {
		d, err := safefs.Anchor(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		data := make([]byte, 400)
		for b.Loop() {
			if err := d.WriteFile("1.json", data); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		name  string
		codec storage.Codec
	}{{"plaintext", nil}, {"gzip", codec.Gzip()}, {"xchacha20poly1305", newAEAD(b, codec.XChaCha20Poly1305, "k1", testKey("k1"))}} {
		b.Run(c.name, func(b *testing.B) {
			s := newFile(b, b.TempDir(), "bench", storage.Encoding{Codec: c.codec})
			for range 50 {
				mustCreate(b, s, "hub")
			}
			k := 0
			for b.Loop() {
				id := fmt.Sprint(k%50 + 1)
				if _, err := s.Update(b.Context(), id, UpdateInput{Metadata: map[string]any{"n": k}}); err != nil {
					b.Fatal(err)
				}
				k++
			}
		})
	}
}

// BenchmarkGet measures a locked read of one task in a list of 50.
func BenchmarkGet(b *testing.B) {
	s := newFile(b, b.TempDir(), "bench", storage.Encoding{})
	for range 50 {
		mustCreate(b, s, "hub")
	}
	for b.Loop() {
		if _, ok, err := s.Get(b.Context(), "25"); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}
