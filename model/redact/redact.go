// Package redact masks secrets in model requests before they leave the
// process: a [Redactor] is a model middleware ([Redactor.Middleware]) for
// liteagent.Options.ModelMiddleware or model.Use.
//
// It replaces with "[redacted]" what the permission package's default
// redactor catches (API keys and tokens after their names, bearer and basic
// credentials, sk-…, AWS, GitHub and Slack keys, JWTs, e-mail addresses,
// private key blocks), the host's own patterns, and literal secrets the
// host names or the redactor learns at run time ([Redactor.Learn],
// [Redactor.Codec]). It looks at the system prompt and at every message's
// text, tool call inputs (each JSON string) and tool results; tool
// definitions and provider-native blocks (such as signed thinking blocks,
// which a change would invalidate) are sent as they are. Requests that the
// provider counts (model.TokenCounter) are masked the same way.
//
// Redaction is best effort: a secret split across two messages, or
// encoded (base64, escaped) in a way no pattern catches, goes out.
package redact

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	secrets "github.com/lite-agent/lite-agent-go/internal/redact"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Mask is what replaces each secret.
const Mask = "[redacted]"

// Options configures a [Redactor]. The zero value masks what the default
// patterns catch.
type Options struct {
	// Patterns are more regular expressions whose matches are masked. A
	// pattern that matches the empty string is an error.
	Patterns []*regexp.Regexp
	// Secrets are literal strings masked wherever they appear, such as
	// the keys the host holds. Empty strings are ignored.
	Secrets []string
	// NoDefaults leaves out the default patterns, so that only Patterns
	// and the literal secrets are masked.
	NoDefaults bool
	// MinLearned is the length, in bytes, of the shortest line that
	// [Redactor.Codec] learns (after trimming white space); zero means 16.
	// Shorter lines are too common to mask.
	MinLearned int
}

// A Redactor masks secrets in model requests. Create it with [New]. It is
// safe for concurrent use.
type Redactor struct {
	patterns   []*regexp.Regexp
	defaults   bool
	minLearned int

	mu       sync.Mutex          // guards the fields below
	literal  map[string]struct{} // the literal secrets
	replacer *strings.Replacer   // masks literal; nil when it must be rebuilt
	gen      uint64              // counts the changes of literal
	// masked caches the masked form of long strings, since each request
	// repeats the conversation so far; cached counts its keys' bytes. It
	// is cleared when a secret is learned and when it grows past
	// maxCached.
	masked map[string]string
	cached int
}

// Strings shorter than minCached bytes are masked anew each time; the
// cache of longer ones holds at most maxCached bytes of them.
const (
	minCached = 256
	maxCached = 64 << 20
)

// New returns a Redactor configured by opts.
func New(opts Options) (*Redactor, error) {
	r := &Redactor{
		patterns:   slices.Clone(opts.Patterns),
		defaults:   !opts.NoDefaults,
		minLearned: cmp.Or(opts.MinLearned, 16),
		literal:    map[string]struct{}{},
		masked:     map[string]string{},
	}
	for i, p := range r.patterns {
		if p == nil {
			return nil, fmt.Errorf("redact: pattern %d is nil", i)
		}
		if p.MatchString("") {
			return nil, fmt.Errorf("redact: pattern %q matches the empty string", p)
		}
	}
	r.Learn(opts.Secrets...)
	return r, nil
}

// Learn adds literal secrets to mask from now on. Empty strings are
// ignored.
func (r *Redactor) Learn(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range secrets {
		if _, ok := r.literal[s]; ok || s == "" {
			continue
		}
		r.literal[s] = struct{}{}
		r.replacer = nil
		r.gen++
		clear(r.masked)
		r.cached = 0
	}
}

// A snapshot is the literal secrets as one request masks them: their
// replacer (nil when there are none) and the generation it belongs to.
type snapshot struct {
	lit *strings.Replacer
	gen uint64
}

// literals returns the current snapshot of the literal secrets.
func (r *Redactor) literals() snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.replacer == nil && len(r.literal) > 0 {
		// Longer secrets first: at one position, the replacer takes the
		// first that matches.
		keys := make([]string, 0, len(r.literal))
		for s := range r.literal {
			keys = append(keys, s)
		}
		slices.SortFunc(keys, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
		pairs := make([]string, 0, 2*len(keys))
		for _, s := range keys {
			pairs = append(pairs, s, Mask)
		}
		r.replacer = strings.NewReplacer(pairs...)
	}
	return snapshot{r.replacer, r.gen}
}

// String returns s with every secret masked: the literal secrets first,
// then the host's patterns, then the default ones.
func (r *Redactor) String(s string) string {
	return r.mask(r.literals(), s)
}

// mask is String with the literal secrets taken once per request. Long
// strings are looked up in, and added to, the cache of r, unless a secret
// was learned since the snapshot was taken.
func (r *Redactor) mask(lit snapshot, s string) string {
	if len(s) < minCached {
		return r.maskNow(lit.lit, s)
	}
	r.mu.Lock()
	m, ok := r.masked[s]
	current := r.gen == lit.gen
	r.mu.Unlock()
	if ok && current {
		return m
	}
	m = r.maskNow(lit.lit, s)
	if !current {
		return m
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gen == lit.gen { // no secret learned meanwhile
		if r.cached+len(s) > maxCached {
			clear(r.masked)
			r.cached = 0
		}
		r.masked[s] = m
		r.cached += len(s)
	}
	return m
}

// maskNow masks s.
func (r *Redactor) maskNow(lit *strings.Replacer, s string) string {
	if s == "" {
		return s
	}
	if lit != nil {
		s = lit.Replace(s)
	}
	for _, p := range r.patterns {
		s = p.ReplaceAllLiteralString(s, Mask)
	}
	if r.defaults {
		s = secrets.String(s)
	}
	return s
}

// Middleware returns the model middleware that masks each request (see the
// package doc) before it is sent or counted.
func (r *Redactor) Middleware() model.Middleware {
	return model.Middleware{Request: func(_ context.Context, req model.Request) (model.Request, error) {
		return r.Request(req), nil
	}}
}

// Request returns req with its secrets masked. req itself, its messages
// and blocks are left unchanged.
func (r *Redactor) Request(req model.Request) model.Request {
	lit := r.literals()
	req.System = r.mask(lit, req.System)
	msgs := make([]model.Message, len(req.Messages))
	for i, m := range req.Messages {
		m.Text = r.mask(lit, m.Text)
		if m.Blocks != nil {
			blocks := make([]model.Block, len(m.Blocks))
			for j, b := range m.Blocks {
				switch b.Type {
				case model.BlockText:
					b.Text = r.mask(lit, b.Text)
				case model.BlockToolCall:
					b.Input = r.json(lit, b.Input)
				case model.BlockToolResult, model.BlockCompaction:
					b.Content = r.mask(lit, b.Content)
				}
				blocks[j] = b
			}
			m.Blocks = blocks
		}
		msgs[i] = m
	}
	req.Messages = msgs
	return req
}

// json masks every string of the JSON value in, keys included. It returns
// in itself when nothing changed; input that is not JSON is masked as
// text.
func (r *Redactor) json(lit snapshot, in json.RawMessage) json.RawMessage {
	if len(in) == 0 {
		return in
	}
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return json.RawMessage(r.mask(lit, string(in)))
	}
	v, changed := r.walk(lit, v)
	if !changed {
		return in
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage(`"` + Mask + `"`)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// walk masks the strings of v and reports whether any changed.
func (r *Redactor) walk(lit snapshot, v any) (any, bool) {
	switch x := v.(type) {
	case string:
		m := r.mask(lit, x)
		return m, m != x
	case []any:
		changed := false
		for i, e := range x {
			var c bool
			x[i], c = r.walk(lit, e)
			changed = changed || c
		}
		return x, changed
	case map[string]any:
		out := make(map[string]any, len(x))
		changed := false
		// Keys that mask to themselves first, then the others in key
		// order: keys masked alike (two secrets) keep every value, under
		// "[redacted]", "[redacted]#2", … alike at each request.
		keys := slices.Sorted(maps.Keys(x))
		masked := make(map[string]string, len(keys))
		for _, k := range keys {
			masked[k] = r.mask(lit, k)
		}
		slices.SortStableFunc(keys, func(a, b string) int {
			return cmp.Compare(boolInt(masked[a] != a), boolInt(masked[b] != b))
		})
		for _, k := range keys {
			e, mk := x[k], masked[k]
			if _, dup := out[mk]; dup {
				base := mk
				for n := 2; ; n++ {
					mk = base + "#" + strconv.Itoa(n)
					_, used := out[mk]
					if _, orig := x[mk]; !used && !orig {
						break
					}
				}
			}
			me, c := r.walk(lit, e)
			out[mk] = me
			changed = changed || c || mk != k
		}
		return out, changed
	}
	return v, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Codec returns c with learning: every record of the context archive (kind
// storage.KindArchive: the tool results and notes taken out of the model's
// context) that it decodes teaches r each of its lines of at least
// Options.MinLearned bytes, so that they are masked in every later
// request, however they come back (the context tool reading the archive, a
// resumed session). Pass it as the agent's storage codec in place of c.
// Learning costs one pass over the decoded bytes; the lines are kept in
// memory for r's life.
//
// With no codec nothing is decoded, so nothing is learned: archives of
// plaintext homes are not secret at rest.
func (r *Redactor) Codec(c storage.Codec) (storage.Codec, error) {
	if c == nil {
		return nil, errors.New("redact: Codec needs a codec")
	}
	return learningCodec{Codec: c, r: r}, nil
}

// learningCodec is the codec Codec returns.
type learningCodec struct {
	storage.Codec
	r *Redactor
}

// Decode decodes with the wrapped codec and learns the lines of archive
// records.
func (c learningCodec) Decode(ctx context.Context, encoded []byte, sc storage.Context) ([]byte, error) {
	plain, err := c.Codec.Decode(ctx, encoded, sc)
	if err == nil && sc.Kind == storage.KindArchive {
		c.r.learnLines(plain)
	}
	return plain, err
}

// learnLines learns the lines of text that are long enough.
func (r *Redactor) learnLines(text []byte) {
	var lines []string
	for line := range bytes.Lines(text) {
		if line = bytes.TrimSpace(line); len(line) >= r.minLearned {
			lines = append(lines, string(line))
		}
	}
	r.Learn(lines...)
}
