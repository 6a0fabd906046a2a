package codec_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/lite-agent/lite-agent-go/storage/codec/codectest"
)

func TestCodecConformance(t *testing.T) {
	cases := []struct {
		name  string
		codec func(t *testing.T) storage.Codec
		opts  codectest.Options
	}{
		{"gzip", func(*testing.T) storage.Codec { return codec.Gzip() }, codectest.Options{}},
		{"zstd", func(*testing.T) storage.Codec { return codec.Zstd() }, codectest.Options{}},
		{"xchacha20poly1305", func(t *testing.T) storage.Codec {
			return newTestAEAD(t, codec.XChaCha20Poly1305, "k1", testKey("k1"))
		}, codectest.Options{Authenticated: true}},
		{"aes256gcm", func(t *testing.T) storage.Codec {
			return newTestAEAD(t, codec.AES256GCM, "k1", testKey("k1"))
		}, codectest.Options{Authenticated: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { codectest.Run(t, c.codec, c.opts) })
	}
}
