package storage

import "context"

// FreezeCodec checks c as [ValidateCodec] does and returns a Codec that
// encodes and decodes with c but reports, for good, the ID c reported now.
// A host that changes what its codec's ID returns after handing it over
// therefore cannot make one store write records under two ids (which no
// single configuration could read back): changing the id requires an
// explicit migration. The result is an [AppendEncoder], [AppendDecoder] or
// [Checker] exactly when c is. Freezing a frozen codec returns it unchanged. The
// error is a *[Error].
func FreezeCodec(c Codec) (Codec, error) {
	if f, ok := c.(frozen); ok {
		return f, nil
	}
	id, err := checkedID(c)
	if err != nil {
		return nil, err
	}
	base := &frozenCodec{c: c, id: id}
	ae, enc := c.(AppendEncoder)
	ad, dec := c.(AppendDecoder)
	ch, chk := c.(Checker)
	switch {
	case chk:
		return &frozenChecker{frozenAppendCodec{base, ae, ad}, ch}, nil
	case enc && dec:
		return &frozenAppendCodec{base, ae, ad}, nil
	case enc:
		return &frozenAppendEncoder{base, ae}, nil
	case dec:
		return &frozenAppendDecoder{base, ad}, nil
	}
	return base, nil
}

// Frozen checks e and returns the copy of it a store keeps: a namespace,
// if given, must pass [ValidateNamespace], and a codec, if any, is frozen
// with [FreezeCodec]. The built-in file stores call it when they are
// created. The error is a *[Error].
func (e Encoding) Frozen() (Encoding, error) {
	if e.Namespace != "" {
		if err := ValidateNamespace(e.Namespace); err != nil {
			return Encoding{}, err
		}
	}
	if e.Codec != nil {
		c, err := FreezeCodec(e.Codec)
		if err != nil {
			return Encoding{}, err
		}
		e.Codec = c
	}
	return e, nil
}

// frozen is implemented by the codecs FreezeCodec returns. Their ID was
// checked once, so the per-record paths skip checking it again.
type frozen interface {
	Codec
	frozenID() string
}

// frozenCodec is a Codec whose ID was read once.
type frozenCodec struct {
	c  Codec
	id string
}

func (f *frozenCodec) ID() string       { return f.id }
func (f *frozenCodec) frozenID() string { return f.id }

func (f *frozenCodec) Encode(ctx context.Context, plaintext []byte, sc Context) ([]byte, error) {
	return f.c.Encode(ctx, plaintext, sc)
}

func (f *frozenCodec) Decode(ctx context.Context, encoded []byte, sc Context) ([]byte, error) {
	return f.c.Decode(ctx, encoded, sc)
}

// frozenAppendEncoder is a frozen AppendEncoder.
type frozenAppendEncoder struct {
	*frozenCodec
	ae AppendEncoder
}

func (f *frozenAppendEncoder) AppendEncode(ctx context.Context, dst, plaintext []byte, sc Context) ([]byte, error) {
	return f.ae.AppendEncode(ctx, dst, plaintext, sc)
}

// frozenAppendDecoder is a frozen AppendDecoder.
type frozenAppendDecoder struct {
	*frozenCodec
	ad AppendDecoder
}

func (f *frozenAppendDecoder) AppendDecode(ctx context.Context, dst, encoded []byte, sc Context) ([]byte, error) {
	return f.ad.AppendDecode(ctx, dst, encoded, sc)
}

// frozenAppendCodec is a frozen codec that is both.
type frozenAppendCodec struct {
	*frozenCodec
	ae AppendEncoder
	ad AppendDecoder
}

func (f *frozenAppendCodec) AppendEncode(ctx context.Context, dst, plaintext []byte, sc Context) ([]byte, error) {
	return f.ae.AppendEncode(ctx, dst, plaintext, sc)
}

func (f *frozenAppendCodec) AppendDecode(ctx context.Context, dst, encoded []byte, sc Context) ([]byte, error) {
	return f.ad.AppendDecode(ctx, dst, encoded, sc)
}

// frozenChecker is a frozen Checker.
type frozenChecker struct {
	frozenAppendCodec
	ch Checker
}

func (f *frozenChecker) NewCheck() Check { return f.ch.NewCheck() }

// codecID returns the ID of e's codec after checking the codec, which a
// frozen codec needs only once.
func (e Encoding) codecID() (string, error) {
	if f, ok := e.Codec.(frozen); ok {
		return f.frozenID(), nil
	}
	return checkedID(e.Codec)
}
