package codec

import (
	"io"

	"github.com/lite-agent/lite-agent-go/storage"
)

// GzipWithLimit returns the codec of Gzip with a decoded-size cap of
// maxSize bytes, so that tests can exceed the cap cheaply.
func GzipWithLimit(maxSize int) storage.Codec { return newGzip(maxSize) }

// ZstdWithLimit returns the codec of Zstd with a decoded-size cap of
// maxSize bytes.
func ZstdWithLimit(maxSize int) storage.Codec { return newZstd(maxSize) }

// NewAEADWithNonces returns the codec of NewAEAD drawing its nonces from
// nonces instead of crypto/rand, so that tests can build reproducible
// envelopes. Its output decodes under the codec of NewAEAD.
func NewAEADWithNonces(opts AEADOptions, nonces io.Reader) (storage.Codec, error) {
	c, err := newAEAD(opts, nonces)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// DecodedSizeLimit returns the decoded-size cap of a codec built by Gzip or
// Zstd, or -1 for any other codec.
func DecodedSizeLimit(c storage.Codec) int {
	switch c := c.(type) {
	case *gzipCodec:
		return c.maxSize
	case *zstdCodec:
		return c.maxSize
	}
	return -1
}
