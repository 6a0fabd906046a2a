package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
	"github.com/lite-agent/lite-agent-go/internal/msgjson"
	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// ViewFormat is the value of the "format" member of the context views this
// engine commits; a view of another format is not resumed from.
const ViewFormat = "lite-agent-go/context-view/1"

// viewBase is a decoded committed view: what requests start from.
type viewBase struct {
	seq         int64 // the context_view event's seq
	generation  int
	pinned      bool
	entries     []entry
	facts       factSet
	state       planState
	archiveRefs []string
	// calib is the session's calibration ratio when the view was
	// committed (0: none), which a process resuming from the view with
	// the model calibModel starts from when no assistant record after it
	// calibrates (loggedCalibration).
	calib      float64
	calibModel string
}

// A ViewError reports a context view that cannot be resumed from: another
// format, or a malformed one. The engine then reads the whole log.
type ViewError struct {
	Seq int64 // the context_view event's seq; 0 when not known
	Err error
}

// Error names the view's seq and its cause.
func (e *ViewError) Error() string { return fmt.Sprintf("context view at seq %d: %v", e.Seq, e.Err) }

// Unwrap returns the cause.
func (e *ViewError) Unwrap() error { return e.Err }

// decodeView decodes the view member of a context_view event (see the
// package documentation), strictly: a member of the wrong JSON type, an
// empty message or a results list that does not match its message's
// blocks is an error; unknown members are skipped.
func decodeView(data []byte) (*viewBase, error) {
	r := msgjson.Reader{Buf: data}
	b := &viewBase{}
	var format string
	facts := factSet{ready: true}
	if r.BeginObject() {
		for first := true; ; first = false {
			key, ok := r.NextKey(first)
			if !ok {
				break
			}
			switch string(key) {
			case "format":
				format = r.StrField("view", "format")
			case "generation":
				b.generation = int(r.IntField("view", "generation"))
			case "pinned":
				b.pinned = r.BoolField("view", "pinned")
			case "entries":
				b.entries = nil
				if array(&r, "entries") {
					for first := true; r.NextElem(first); first = false {
						b.entries = append(b.entries, readViewEntry(&r))
					}
				}
			case "facts":
				facts.list, facts.seen = nil, nil
				if array(&r, "facts") {
					for first := true; r.NextElem(first); first = false {
						f := readFact(&r)
						facts.list = append(facts.list, f)
						if facts.seen == nil {
							facts.seen = make(map[string]bool)
						}
						facts.seen[f.key] = true
					}
				}
			case "sawPrompt":
				facts.sawPrompt = r.BoolField("view", "sawPrompt")
			case "state":
				b.state = planState{}
				if raw := r.Raw(); r.Err == nil {
					if err := json.Unmarshal(raw, &b.state); err != nil {
						r.Fail(fmt.Errorf("view state: %w", err))
					}
				}
			case "calibration":
				b.calib, b.calibModel = readViewCalibration(&r)
			case "archiveRefs":
				b.archiveRefs = nil
				if array(&r, "archiveRefs") {
					for first := true; r.NextElem(first); first = false {
						b.archiveRefs = append(b.archiveRefs, r.StrField("view", "archiveRefs"))
					}
				}
			default:
				r.Skip()
			}
		}
	}
	if err := r.End(); err != nil {
		return nil, err
	}
	if format != ViewFormat {
		return nil, fmt.Errorf("format %q, want %q", format, ViewFormat)
	}
	if b.generation < 1 {
		return nil, fmt.Errorf("generation %d", b.generation)
	}
	for i, e := range b.entries {
		if e.msg.Role == "" || e.msg.Text == "" && len(e.msg.Blocks) == 0 {
			return nil, fmt.Errorf("entry %d: an empty message", i)
		}
		if e.results != nil && len(e.results) != len(e.msg.Blocks) {
			return nil, fmt.Errorf("entry %d: %d results for %d blocks", i, len(e.results), len(e.msg.Blocks))
		}
	}
	b.facts = facts
	return b, nil
}

// array consumes the '[' of member field's value, or fails.
func array(r *msgjson.Reader, field string) bool {
	if r.Peek() != '[' {
		r.FailShape(msgjson.FieldError{In: "view", Field: field, Want: "an array"})
		return false
	}
	return r.BeginArray()
}

// object consumes the '{' of an element of member field, or fails.
func object(r *msgjson.Reader, field string) bool {
	if r.Peek() != '{' {
		r.FailShape(msgjson.FieldError{In: "view", Field: field, Want: "an array of objects"})
		return false
	}
	return r.BeginObject()
}

func readViewEntry(r *msgjson.Reader) entry {
	var e entry
	if !object(r, "entries") {
		return e
	}
	for first := true; ; first = false {
		key, ok := r.NextKey(first)
		if !ok {
			break
		}
		switch string(key) {
		case "message":
			e.msg = msgjson.ReadMessage[model.Role, model.BlockType, model.Block, model.Message](r)
		case "seq":
			e.seq = r.IntField("view entry", "seq")
		case "prompt":
			e.prompt = r.BoolField("view entry", "prompt")
		case "verified":
			e.verified = r.BoolField("view entry", "verified")
		case "results":
			e.results = []resultSource{}
			if array(r, "results") {
				for first := true; r.NextElem(first); first = false {
					var src resultSource
					if object(r, "results") {
						for first := true; ; first = false {
							key, ok := r.NextKey(first)
							if !ok {
								break
							}
							switch string(key) {
							case "seq":
								src.seq = r.IntField("view result", "seq")
							case "turn":
								src.turn = int(r.IntField("view result", "turn"))
							default:
								r.Skip()
							}
						}
					}
					e.results = append(e.results, src)
				}
			}
		default:
			r.Skip()
		}
	}
	if len(e.results) == 0 {
		e.results = nil
	}
	return e
}

func readFact(r *msgjson.Reader) fact {
	var f fact
	if !object(r, "facts") {
		return f
	}
	for first := true; ; first = false {
		key, ok := r.NextKey(first)
		if !ok {
			break
		}
		switch string(key) {
		case "kind":
			f.kind = r.StrField("view fact", "kind")
		case "text":
			f.text = r.StrField("view fact", "text")
		case "key":
			f.key = r.StrField("view fact", "key")
		default:
			r.Skip()
		}
	}
	if f.key == "" {
		f.key = factKey(f.kind, f.text)
	}
	return f
}

// readViewCalibration reads a view's calibration, {"model":…,"ratio":…}:
// the ratio and the model whose tokenizer it measured; 0 and "" unless a
// ratio within the bounds a calibration takes, of a string model (a bare
// ratio, of a version that wrote none, measured a model unknown). Any
// other value is skipped: a view stays resumable whatever it holds here.
func readViewCalibration(r *msgjson.Reader) (ratio float64, forModel string) {
	if r.Peek() != '{' {
		r.Skip()
		return 0, ""
	}
	hasModel := false
	r.BeginObject()
	for first := true; ; first = false {
		key, ok := r.NextKey(first)
		if !ok {
			break
		}
		switch c := r.Peek(); {
		case string(key) == "model" && c == '"':
			forModel, hasModel = r.Str(), true
		case string(key) == "ratio" && '0' <= c && c <= '9':
			if k, err := strconv.ParseFloat(string(r.Number()), 64); err == nil && k >= minCalibration && k <= maxCalibration {
				ratio = k
			}
		default:
			r.Skip()
		}
	}
	if !hasModel {
		return 0, ""
	}
	return ratio, forModel
}

// encodeView encodes the view of generation gen: entries (without the
// facts message), the facts, the plan state, the archive refs and the
// session's calibration ratio calib (0: none) of the model calibModel.
func encodeView(gen int, pinned bool, entries []entry, fs *factSet, state planState, refs []string, calib float64, calibModel string) ([]byte, error) {
	n := 256
	for i := range entries {
		n += entries[i].size() + 64
	}
	b := make([]byte, 0, n)
	b = append(b, `{"format":`...)
	b = jsonstr.Append(b, ViewFormat)
	b = append(b, `,"generation":`...)
	b = strconv.AppendInt(b, int64(gen), 10)
	if pinned {
		b = append(b, `,"pinned":true`...)
	}
	b = append(b, `,"entries":[`...)
	for i, e := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"message":`...)
		var err error
		if b, err = e.msg.AppendJSON(b); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		if e.seq != 0 {
			b = append(b, `,"seq":`...)
			b = strconv.AppendInt(b, e.seq, 10)
		}
		if e.prompt {
			b = append(b, `,"prompt":true`...)
		}
		if e.verified {
			b = append(b, `,"verified":true`...)
		}
		if len(e.results) > 0 {
			b = append(b, `,"results":[`...)
			for j, r := range e.results {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"seq":`...)
				b = strconv.AppendInt(b, r.seq, 10)
				b = append(b, `,"turn":`...)
				b = strconv.AppendInt(b, int64(r.turn), 10)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if len(fs.list) > 0 {
		b = append(b, `,"facts":[`...)
		for i, f := range fs.list {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"kind":`...)
			b = jsonstr.Append(b, f.kind)
			b = append(b, `,"text":`...)
			b = jsonstr.Append(b, f.text)
			if f.key != factKey(f.kind, f.text) {
				b = append(b, `,"key":`...)
				b = jsonstr.Append(b, f.key)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if fs.sawPrompt {
		b = append(b, `,"sawPrompt":true`...)
	}
	if !state.empty() {
		st, err := json.Marshal(state)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"state":`...)
		b = append(b, st...)
	}
	if len(refs) > 0 {
		b = append(b, `,"archiveRefs":[`...)
		for i, ref := range refs {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonstr.Append(b, ref)
		}
		b = append(b, ']')
	}
	if calib > 0 {
		b = append(jsonstr.Append(append(b, `,"calibration":{"model":`...), calibModel), `,"ratio":`...)
		b = append(strconv.AppendFloat(b, calib, 'g', -1, 64), '}')
	}
	return append(b, '}'), nil
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
// session's next requests: in this process as after a restart.
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
	data, err := encodeView(gen, c.pinned, entries, &st.facts, c.state(), refs, st.calib.ratio, c.r.e.opts.Model)
	if err != nil {
		return fmt.Errorf("context: encode view: %w", err)
	}
	through := st.head
	if err := r.append(ctx, session.ContextViewEvent{ThroughSeq: through, View: data}); err != nil {
		return err
	}
	// The base is what a restart decodes from data (FuzzViewResume holds
	// the two equal), kept without decoding it.
	base := &viewBase{seq: st.head, generation: gen, pinned: c.pinned, entries: entries, state: c.state(), archiveRefs: refs, calib: st.calib.ratio, calibModel: c.r.e.opts.Model,
		facts: factSet{sawPrompt: st.facts.sawPrompt, list: st.facts.list, seen: st.facts.seen, ready: true}}
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
