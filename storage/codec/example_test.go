package codec_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// An AEAD codec inside a storage.Encoding: the envelope names the codec and
// key version in clear, the payload decodes only as the record it was
// written for, and the key comes from the host on every call.
func ExampleNewAEAD() {
	ctx := context.Background()

	// The host owns the keys (a KMS, a keychain, a file it protects); the
	// SDK asks for one by id and never stores it. This demo key is fixed.
	keys := map[string][]byte{"k1": []byte("0123456789abcdef0123456789abcdef")}
	c, err := codec.NewAEAD(codec.AEADOptions{
		KeyID: "k1", // XChaCha20-Poly1305 by default
		Key: func(_ context.Context, id string) ([]byte, error) {
			k, ok := keys[id]
			if !ok {
				return nil, fmt.Errorf("unknown key %q", id)
			}
			return k, nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	enc := storage.Encoding{Codec: c, Namespace: "acme", ProjectID: "0123abcd"}

	record := []byte(`{"seq":1,"type":"user","text":"deploy with token s3cr3t"}`)
	stored, err := enc.Encode(ctx, storage.KindCheckpoint, "session-1", "1", record)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.SplitAfter(string(stored), `"payload":`)[0], "…")
	fmt.Println("contains the token:", strings.Contains(string(stored), "s3cr3t"))

	plain, err := enc.Decode(ctx, storage.KindCheckpoint, "session-1", "1", stored)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(plain))

	// The same bytes presented as record 2 do not authenticate.
	_, err = enc.Decode(ctx, storage.KindCheckpoint, "session-1", "2", stored)
	var se *storage.Error
	fmt.Println(errors.As(err, &se), err)
	// Output:
	// {"liteAgentStorage":1,"codec":"xchacha20poly1305.v1.k1","payload": …
	// contains the token: false
	// {"seq":1,"type":"user","text":"deploy with token s3cr3t"}
	// true Storage decode failed (checkpoint) record 2
}

// Compression codecs shrink records; they hide nothing.
func ExampleZstd() {
	ctx := context.Background()
	enc := storage.Encoding{Codec: codec.Zstd()}

	record := []byte(strings.Repeat(`{"type":"tool_result","text":"ok"}`, 30))
	stored, err := enc.Encode(ctx, storage.KindSpill, "project", "ref-1", record)
	if err != nil {
		fmt.Println(err)
		return
	}
	plain, err := enc.Decode(ctx, storage.KindSpill, "project", "ref-1", stored)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(stored[:len(`{"liteAgentStorage":1,"codec":"zstd-v1"`)]))
	fmt.Println("smaller than the record:", len(stored) < len(record))
	fmt.Println("round trip:", string(plain) == string(record))
	// Output:
	// {"liteAgentStorage":1,"codec":"zstd-v1"
	// smaller than the record: true
	// round trip: true
}
