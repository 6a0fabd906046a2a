package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// ViewFormat is the value of the "format" member of the context views this
// engine commits; a view of another format is not resumed from.
const ViewFormat = "lite-agent-go/context-view/1"

// viewJSON is the "view" member of a context_view event; the package
// documentation describes it.
type viewJSON struct {
	Format      string      `json:"format"`
	Generation  int         `json:"generation"`
	Pinned      bool        `json:"pinned,omitempty"`
	Entries     []viewEntry `json:"entries"`
	Facts       []viewFact  `json:"facts,omitempty"`
	SawPrompt   bool        `json:"sawPrompt,omitempty"`
	State       *planState  `json:"state,omitempty"`
	ArchiveRefs []string    `json:"archiveRefs,omitempty"`
}

type viewEntry struct {
	Message  model.Message `json:"message"`
	Seq      int64         `json:"seq,omitempty"`
	Prompt   bool          `json:"prompt,omitempty"`
	Verified bool          `json:"verified,omitempty"`
	Results  []viewResult  `json:"results,omitempty"`
}

type viewResult struct {
	Seq  int64 `json:"seq"`
	Turn int   `json:"turn"`
}

type viewFact struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
	// Key identifies a fact whose text was shortened: the SHA-256 of its
	// whole text, so that a repeat is still recognized.
	Key string `json:"key,omitempty"`
}

// viewBase is a decoded committed view: what requests start from.
type viewBase struct {
	seq         int64 // the context_view event's seq
	generation  int
	pinned      bool
	entries     []entry
	facts       factSet
	state       planState
	archiveRefs []string
}

// A ViewError reports a context view that cannot be resumed from: another
// format, or a malformed one. The engine then reads the whole log.
type ViewError struct {
	Seq int64 // the context_view event's seq; 0 when not known
	Err error
}

func (e *ViewError) Error() string { return fmt.Sprintf("context view at seq %d: %v", e.Seq, e.Err) }

// Unwrap returns the cause.
func (e *ViewError) Unwrap() error { return e.Err }

// decodeView decodes the view member of a context_view event.
func decodeView(data json.RawMessage) (*viewBase, error) {
	var v viewJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	if v.Format != ViewFormat {
		return nil, fmt.Errorf("format %q, want %q", v.Format, ViewFormat)
	}
	if v.Generation < 1 {
		return nil, fmt.Errorf("generation %d", v.Generation)
	}
	b := &viewBase{generation: v.Generation, pinned: v.Pinned, archiveRefs: v.ArchiveRefs, entries: make([]entry, len(v.Entries))}
	for i, ve := range v.Entries {
		if ve.Message.Role == "" || ve.Message.Text == "" && len(ve.Message.Blocks) == 0 {
			return nil, fmt.Errorf("entry %d: an empty message", i)
		}
		e := entry{msg: ve.Message, seq: ve.Seq, prompt: ve.Prompt, verified: ve.Verified}
		if ve.Results != nil {
			if len(ve.Results) != len(ve.Message.Blocks) {
				return nil, fmt.Errorf("entry %d: %d results for %d blocks", i, len(ve.Results), len(ve.Message.Blocks))
			}
			e.results = make([]resultSource, len(ve.Results))
			for j, r := range ve.Results {
				e.results[j] = resultSource{seq: r.Seq, turn: r.Turn}
			}
		}
		b.entries[i] = e
	}
	b.facts = factSet{sawPrompt: v.SawPrompt, ready: true}
	for _, f := range v.Facts {
		key := f.Key
		if key == "" {
			key = factKey(f.Kind, f.Text)
		}
		b.facts.list = append(b.facts.list, fact{f.Kind, f.Text, key})
		if b.facts.seen == nil {
			b.facts.seen = make(map[string]bool)
		}
		b.facts.seen[key] = true
	}
	if v.State != nil {
		b.state = *v.State
	}
	return b, nil
}

// encodeView encodes the view of generation gen: entries (without the
// facts message), the facts, the plan state and the archive refs.
func encodeView(gen int, pinned bool, entries []entry, fs *factSet, state planState, refs []string) ([]byte, error) {
	v := viewJSON{Format: ViewFormat, Generation: gen, Pinned: pinned, Entries: make([]viewEntry, len(entries)),
		SawPrompt: fs.sawPrompt, ArchiveRefs: refs}
	for i, e := range entries {
		ve := viewEntry{Message: e.msg, Seq: e.seq, Prompt: e.prompt, Verified: e.verified}
		if e.results != nil {
			ve.Results = make([]viewResult, len(e.results))
			for j, r := range e.results {
				ve.Results[j] = viewResult{Seq: r.seq, Turn: r.turn}
			}
		}
		v.Entries[i] = ve
	}
	for _, f := range fs.list {
		vf := viewFact{Kind: f.kind, Text: f.text}
		if f.key != factKey(f.kind, f.text) {
			vf.Key = f.key
		}
		v.Facts = append(v.Facts, vf)
	}
	if !state.empty() {
		v.State = &state
	}
	return json.Marshal(v)
}

// factKey is the key that tells a fact's repeats: its kind and text, or
// for a text longer than a fact keeps, the text's SHA-256.
func factKey(kind, text string) string {
	if utf16text.Len(text) <= maxFactChars {
		return kind + "\x00" + text
	}
	sum := sha256.Sum256([]byte(text))
	return kind + "\x01" + hex.EncodeToString(sum[:])
}

// generation returns the generation of the session's latest view, 0 when
// none was loaded.
func (st *sessionState) generation() int {
	if st.view == nil {
		return 0
	}
	return st.view.generation
}

// resetFacts starts the facts over from the view's.
func (st *sessionState) resetFacts() {
	if st.view == nil {
		st.facts = factSet{ready: true}
		return
	}
	f := st.view.facts
	st.facts = factSet{sawPrompt: f.sawPrompt, list: slices.Clip(f.list), seen: maps.Clone(f.seen), ready: true}
}

// viewReader is the optional [session.Checkpointer] method that reads a
// log from its latest valid context view: the view record (nil when there
// is none) and every record after the seq it covers (every record when
// there is none).
type viewReader interface {
	ReadFromView(ctx context.Context, id string) (view *session.StoredEvent, after []session.StoredEvent, err error)
}

// readFromView reads session id from its latest valid context view,
// through the checkpointer's own ReadFromView when it has one, else by
// reading the whole log and cutting it.
func readFromView(ctx context.Context, cp session.Checkpointer, id string) (*session.StoredEvent, []session.StoredEvent, error) {
	if vr, ok := cp.(viewReader); ok {
		return vr.ReadFromView(ctx, id)
	}
	all, err := cp.Read(ctx, id, 0)
	if err != nil {
		return nil, nil, err
	}
	for i := len(all) - 1; i >= 0; i-- {
		v, ok := all[i].Event.(session.ContextViewEvent)
		if !ok || v.ThroughSeq < 0 || v.ThroughSeq >= all[i].Seq {
			continue
		}
		j := i
		for j > 0 && all[j-1].Seq > v.ThroughSeq {
			j--
		}
		return &all[i], all[j:], nil
	}
	return nil, all, nil
}

// readLog loads the session's log into the cache: with the context engine
// from its latest view, which must decode (else the whole log is read and
// projected without views), and without it whole.
func (r *run) readLog(ctx context.Context) error {
	st, cp := r.st, r.e.opts.Checkpointer
	var (
		view *session.StoredEvent
		evs  []session.StoredEvent
		base *viewBase
		err  error
	)
	if r.e.opts.Context != nil {
		view, evs, err = readFromView(ctx, cp, r.id)
	} else {
		evs, err = cp.Read(ctx, r.id, 0)
	}
	if err != nil {
		return err
	}
	if view != nil {
		if base, err = decodeView(view.Event.(session.ContextViewEvent).View); err != nil {
			r.e.log.Warn("context view not resumable; reading the whole log", "session", r.id, "err", &ViewError{Seq: view.Seq, Err: err})
			if evs, err = cp.Read(ctx, r.id, 0); err != nil {
				return err
			}
		} else {
			base.seq = view.Seq
		}
	}
	st.view, st.events = base, evs
	st.proj.ready, st.facts.ready = false, false
	st.head = 0
	if n := len(evs); n > 0 {
		st.head = evs[n-1].Seq
	} else if view != nil {
		st.head = view.Seq
	}
	return nil
}

// commit appends the run's entries as the session's next context view,
// covering the log through its head, and makes it the base of the
// session's next requests: in this process as after a restart, since the
// base is decoded from the very bytes appended.
func (c *contextRun) commit(ctx context.Context) error {
	r, st := c.r, c.r.st
	if st.head == 0 {
		return nil // an empty log: a view covers at least one event
	}
	entries := c.entries
	if c.pinned {
		entries = entries[1:]
	}
	r.facts() // scan every event
	refs := slices.Clone(c.baseRefs())
	for _, ref := range c.status.ArchiveRefs {
		if !slices.Contains(refs, ref) {
			refs = append(refs, ref)
		}
	}
	gen := st.generation() + 1
	data, err := encodeView(gen, c.pinned, entries, &st.facts, c.state(), refs)
	if err != nil {
		return fmt.Errorf("context: encode view: %w", err)
	}
	base, err := decodeView(data)
	if err != nil {
		return fmt.Errorf("context: the view committed does not decode: %w", err)
	}
	through := st.head
	if err := r.append(ctx, session.ContextViewEvent{ThroughSeq: through, View: data}); err != nil {
		return err
	}
	base.seq = st.head
	st.view, st.events = base, nil
	st.proj.ready, st.facts.ready = false, false
	c.status.Generation = gen
	c.changed = false
	return nil
}

// baseRefs returns the archive refs of the latest view.
func (c *contextRun) baseRefs() []string {
	if c.r.st.view == nil {
		return nil
	}
	return c.r.st.view.archiveRefs
}
