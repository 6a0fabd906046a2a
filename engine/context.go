package engine

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// DefaultContextWindow is the context window the context engine assumes
// when neither [ContextOptions.Window] nor the provider gives one.
const DefaultContextWindow = 32000

// ContextOptions turns on the context engine, which keeps every model
// request within the model's context window. See the package
// documentation for what it does at each level of pressure.
type ContextOptions struct {
	// Window is the model's context window in tokens; zero means the
	// window the provider reports for the model ([model.WindowReporter]),
	// else [DefaultContextWindow]. Token counts are estimates (a quarter of
	// the length in UTF-16 code units) unless the provider counts them.
	Window int
	// Archive returns the context archive of a session. Tool results the
	// model has already seen are put there under pressure and replaced in
	// the request by their ref, which the model can read back with the
	// context tool. Nil, or a nil archive, shortens them in place instead.
	// An error ends the turn.
	Archive func(ctx context.Context, sessionID string) (archive.Archive, error)
	// Compacting, when set, is called before the levels change a request
	// of session sessionID, with its estimated size in tokens; the function
	// it returns (if not nil) is called once after them, with the size then
	// and the error that stopped them, if any. Hosts fire compact:start and
	// compact:end hooks from it.
	// [CompactingCounted] of ctx reports whether before is the
	// provider's count (as [ContextStatus.Counted]); after is then an
	// estimate scaled to it.
	Compacting func(ctx context.Context, sessionID string, before int) (done func(after int, err error))
	// Planner, when set, is level 3: over 85% of the window it is asked,
	// within [PlannerBudget], what to do with each segment of the history
	// (keep, summarize, archive); see [Planner]. Nil skips level 3.
	Planner Planner
	// PlannerBudget is how long level 3 waits for the planner; zero means
	// [DefaultPlannerBudget] (100 ms).
	PlannerBudget time.Duration
	// Summary, when set, returns the pass [Engine.Compact] runs after the
	// levels and [Options.Passes] (its summarize stage), given the call's
	// instructions: typically an LLM summary of older turns. Requests do
	// not run it; put a summary pass in Options.Passes for that.
	Summary func(instructions string) compaction.Pass
}

// The pressure thresholds of the context levels, as fractions of the
// window, and the sizes the levels shorten to, in UTF-16 code units.
const (
	level1At = 0.65
	level2At = 0.75
	level3At = 0.85
	level4At = 0.95

	minExternalized   = 256 // the smallest tool result level 1 takes out
	externalPreview   = 160 // kept of a result shortened without an archive
	shrunkMessage     = 768 // level 4: a message outside the active segment
	shrunkResult      = 256 // level 4: a tool result outside the active segment
	emergencyMessage  = 512 // level 5: each of the last two messages
	emergencyLast     = 256 // level 5: the last message alone
	maxFacts          = 20
	maxFactChars      = 512
	archivedPrefix    = "[tool result archived: "
	externalizedLabel = "[tool result externalized after presentation]"
)

// ContextStatus reports what the context engine did to one request; it is
// the payload of a context_status event, sent whenever Level is above 0.
type ContextStatus struct {
	// Level is the highest level applied, 1 to 5:
	//   1 tool results the model has seen are externalized;
	//   2 repeated reminders are replaced by a marker;
	//   4 pinned facts are prepended and messages before the current
	//     prompt are shortened, and when the request is still over the
	//     window its oldest turns are left out (see the package
	//     documentation);
	//   5 only the pinned facts and the last messages are sent.
	//   3 the planner (ContextOptions.Planner) summarized or archived
	//     earlier segments.
	Level int
	// Reason is "pressure"; "room" when levels 1 to 4 were forced because
	// the request's input left its answer less than [MinAnswerTokens] of
	// the window; or "overflow" when every level was forced: the retry of
	// a request the provider refused as too long, or one that "room" left
	// without room for its answer.
	Reason string
	// BeforeTokens and AfterTokens are the request's size before and
	// after the levels: estimates (a quarter of the characters, corrected
	// by the input the provider reported for the session's last request,
	// see the package documentation), or when
	// Counted, the provider's count of the request before the levels
	// ([model.TokenCounter]) and an estimate scaled to it after.
	BeforeTokens, AfterTokens int
	// Counted reports that BeforeTokens is the provider's count (of the
	// request, [model.TokenCounter], or stated by its refusal of it as too
	// long, [model.Error.OverflowTokens], the estimate scaled to it), and
	// AfterTokens an estimate scaled to it; false, both are estimates.
	Counted bool
	// ArchiveRefs are the archive refs that replaced tool results or
	// segments in this request.
	ArchiveRefs []string
	// Generation is the generation of the context view the request was
	// built on: the one committed for it when its levels changed
	// something, else the latest one (0: the log holds none).
	Generation int
	// PlannerUsed reports that level 3 asked the planner; PlannerFallback
	// that it failed or ran out of time, so that its plan was not used;
	// PlannerLatency how long it took.
	PlannerUsed, PlannerFallback bool
	PlannerLatency               time.Duration
}

// An entry is one message of the folded log, with what the context levels
// need to know about where it came from.
type entry struct {
	msg    model.Message
	prompt bool // a user event: it starts a segment
	// verified marks a prompt whose segment holds a verified artifact:
	// level 3 leaves such a segment alone.
	verified bool
	// seq is the seq of the event the message came from (of the first
	// result, for a message of tool results); 0 when unknown.
	seq int64
	// results holds, for a message of tool results, the seq and turn of
	// each block's event.
	results []resultSource
	// chars caches messageChars(msg) when sized; set changes msg and
	// clears it, and fits, which records that level 4 found nothing to
	// shorten in msg.
	chars int
	sized bool
	fits  bool
}

// set replaces the entry's message.
func (e *entry) set(m model.Message) { e.msg, e.sized, e.fits = m, false, false }

// size returns messageChars of the entry's message, computed once.
func (e *entry) size() int {
	if !e.sized {
		e.chars, e.sized = messageChars(e.msg), true
	}
	return e.chars
}

type resultSource struct {
	seq  int64
	turn int
}

// A projection folds a session's events into entries, as [session.Fold]
// folds them into messages, one event at a time: it starts from the
// entries of the latest committed view, if any, and takes each event once.
type projection struct {
	entries []entry
	msgs    []model.Message // the entries' messages, for requests to share
	lent    bool            // a request holds msgs: copy before changing one
	open    bool            // the last entry is a message of tool results that more results extend
	prompt  int             // index of the last prompt entry, -1 when none
	done    int             // how many events of the session's cache were folded in
	ready   bool            // reset was called: entries start from the view
	// entries[0] (and msgs[0]) is a slot for the facts message, which a
	// request fills when the latest view was pinned (pinned), or when
	// level 4 pins it: then the request shares the cache, facts included.
	pinned bool
	// texts holds the plain-text user messages seen, and repeats the
	// indices of those that repeat an earlier one: level 2's candidates,
	// kept across requests so that no request hashes the whole log.
	texts   map[string]bool
	repeats []int
	indexed int // entries[:indexed] were looked at for repeats
	baseLen int // entries[:baseLen] are the slot and the view's
}

// reset starts p over from the entries of base (nil: none).
func (p *projection) reset(base *viewBase) {
	n := 0
	if base != nil {
		n = len(base.entries)
	}
	p.start(n)
	p.done = 0
	if base == nil {
		return
	}
	p.pinned = base.pinned
	for _, e := range base.entries {
		p.push(e)
	}
	p.baseLen = len(p.entries)
}

// start empties p, leaving the facts slot and room for n entries.
func (p *projection) start(n int) {
	*p = projection{prompt: -1, ready: true, done: p.done, baseLen: 1,
		entries: make([]entry, 1, n+1), msgs: make([]model.Message, 1, n+1)}
}

// setLast replaces the message of the last entry, in a copy of msgs: the
// requests built before hold the old one.
func (p *projection) setLast(m model.Message) {
	p.set(len(p.msgs)-1, m)
}

// set replaces message i, in a copy of msgs when a request holds them.
func (p *projection) set(i int, m model.Message) {
	if p.lent {
		p.msgs, p.lent = slices.Clone(p.msgs), false
	}
	p.msgs[i] = m
}

// push appends e to the entries.
func (p *projection) push(e entry) {
	if e.prompt {
		p.prompt = len(p.entries)
	}
	p.entries = append(p.entries, e)
	p.msgs = append(p.msgs, e.msg)
}

// repeatIndex returns the indices of the entries that repeat an earlier
// plain-text user message, looking only at the entries added since it was
// last asked: level 2 asks, once the pressure calls for it.
func (p *projection) repeatIndex() []int {
	for i := max(p.indexed, 1); i < len(p.entries); i++ {
		m := p.entries[i].msg
		if m.Role != model.RoleUser || m.Blocks != nil {
			continue
		}
		if p.texts[m.Text] {
			p.repeats = append(p.repeats, i)
			continue
		}
		if p.texts == nil {
			p.texts = make(map[string]bool)
		}
		p.texts[m.Text] = true
	}
	p.indexed = len(p.entries)
	return p.repeats
}

// add folds events into p.
func (p *projection) add(events []session.StoredEvent) {
	p.entries = slices.Grow(p.entries, len(events))
	p.msgs = slices.Grow(p.msgs, len(events))
	for _, se := range events {
		switch ev := se.Event.(type) {
		case session.UserEvent:
			p.open = false
			p.push(entry{msg: ev.Message, prompt: true, seq: se.Seq})
		case session.AssistantEvent:
			p.open = false
			p.push(entry{msg: ev.Message, seq: se.Seq})
		case session.ToolResultEvent:
			src := resultSource{seq: se.Seq, turn: ev.Turn}
			if p.open {
				// Copied, never appended in place: requests built
				// before share the message.
				e := &p.entries[len(p.entries)-1]
				m := e.msg
				m.Blocks = append(m.Blocks[:len(m.Blocks):len(m.Blocks)], ev.Result)
				e.set(m)
				e.results = append(e.results[:len(e.results):len(e.results)], src)
				p.setLast(m)
				continue
			}
			p.open = true
			p.push(entry{msg: model.UserBlocks(ev.Result), seq: se.Seq, results: []resultSource{src}})
		case session.ArtifactVerifiedEvent:
			if p.prompt >= 0 {
				p.entries[p.prompt].verified = true
			}
		case session.SummaryEvent:
			p.start(len(ev.Messages))
			for _, m := range ev.Messages {
				p.push(entry{msg: m, seq: se.Seq})
			}
		}
	}
}

// projected returns the entries of the session's cached view and events,
// folding in the events not yet folded.
func (st *sessionState) projected() []entry {
	if !st.proj.ready || st.proj.done > len(st.events) {
		st.proj.reset(st.view) // not the events it was built from
	}
	st.proj.add(st.events[st.proj.done:])
	st.proj.done = len(st.events)
	return st.proj.entries
}

// tokens estimates the tokens of text of n UTF-16 code units.
func tokens(n int) int { return (n + 3) / 4 }

// messageBytes returns the UTF-8 bytes of the texts of m that
// messageChars counts.
func messageBytes(m model.Message) int {
	n := len(m.Text)
	for _, b := range m.Blocks {
		switch b.Type {
		case model.BlockText:
			n += len(b.Text)
		case model.BlockToolResult:
			n += len(b.Content)
		case model.BlockToolCall:
			n += len(b.Input)
		}
	}
	return n
}

// messageChars returns the UTF-16 length the token estimate counts in m:
// its text, tool result contents and tool call inputs.
func messageChars(m model.Message) int {
	n := utf16text.Len(m.Text)
	for _, b := range m.Blocks {
		switch b.Type {
		case model.BlockText:
			n += utf16text.Len(b.Text)
		case model.BlockToolResult:
			n += utf16text.Len(b.Content)
		case model.BlockToolCall:
			n += utf16text.Len(string(b.Input))
		}
	}
	return n
}

// window returns the context window requests are kept within: the
// options', else the one the provider reports for the model, else
// DefaultContextWindow. Without the context engine it is the window of
// the passes' model requests ([compaction.WithWindow]).
func (e *Engine) window() int {
	if e.opts.Context != nil && e.opts.Context.Window > 0 {
		return e.opts.Context.Window
	}
	if wr, ok := model.AsWindowReporter(e.opts.Provider); ok {
		if n := wr.ContextWindow(e.opts.Model); n > 0 {
			return n
		}
	}
	return DefaultContextWindow
}

// contextRun is the context engine's work on one request.
type contextRun struct {
	r       *run
	opts    *ContextOptions
	window  int
	fixed   int // tokens of the system prompt, tools and reminder
	entries []entry
	// msgs are the entries as messages, the slice the passes last
	// returned: a pass given another slice re-reads the entries from it.
	msgs   []model.Message
	pinned bool // entries[0] is the facts message level 4 added
	// changed reports that a pass changed what the base (the latest view
	// and the events after it) renders to: a view is then committed, at
	// once when durable (the planner or a host pass, whose work is not
	// redone alike), else once the events after the view weigh enough.
	changed, durable bool
	// sources maps tool call ids to their results' events, for messages
	// a host pass hands back.
	sources map[string]resultSource
	// plan is the plan level 3 used, whose state deltas are committed.
	plan *Plan
	// shared reports that entries is the session's cached projection,
	// which a level copies (own) before changing it.
	shared bool
	// indexed reports that entries have the cache's indices (offset by
	// slot), so that level 2 can use the cache's repeats: until a level
	// adds or removes entries.
	indexed bool
	// slot is the index in the cache of entries[0] while shared: 1, or
	// 0 when entries start with the cache's facts slot.
	slot int
	// rendered reports that a level set msgs itself.
	rendered bool
	status   ContextStatus
	// scale turns estimates into the provider's counts: its count of the
	// uncompacted request over the estimate, when counted.
	scale   float64
	counted bool
	// calib corrects the estimates when not counted: the session's
	// calibration by the usage of its last request.
	calib calibration
	// summaryCut is the UTF-16 code units cutSummary cut.
	summaryCut int
	// fixedBytes is the UTF-8 bytes of the system prompt, tools and
	// reminder.
	fixedBytes int
}

// measure returns the request's size in tokens: its estimate, scaled to
// the provider's count when counted, else corrected by the session's
// calibration.
func (c *contextRun) measure() int { return c.measureChars(c.chars()) }

// estimate returns the request's plain estimate: neither scaled nor
// corrected.
func (c *contextRun) estimate() int { return c.fixed + tokens(c.chars()) }

// bytes returns the UTF-8 bytes of the request's texts: the entries'
// and the fixed part's.
func (c *contextRun) bytes() int {
	n := c.fixedBytes
	for i := range c.entries {
		n += messageBytes(c.entries[i].msg)
	}
	return n
}

// chars returns the UTF-16 code units of the entries.
func (c *contextRun) chars() int {
	n := 0
	for i := range c.entries {
		n += c.entries[i].size()
	}
	return n
}

// measureChars returns the request's measure with entries of n UTF-16
// code units.
func (c *contextRun) measureChars(n int) int {
	est := c.fixed + tokens(n)
	if c.counted {
		return int(math.Min(math.Round(float64(est)*c.scale), maxTokens))
	}
	return c.calib.apply(est)
}

// tokenScale returns the provider's tokens an estimated one stands for,
// as the run measures them: its count's scale, when counted, else the
// session's calibration (0 when none).
func (c *contextRun) tokenScale() float64 {
	if c.counted {
		return c.scale
	}
	return c.calib.ratio
}

func (c *contextRun) over(fraction float64) bool {
	return float64(c.measure()) > fraction*float64(c.window)
}

// render returns the entries as messages.
func (c *contextRun) render() []model.Message {
	msgs := make([]model.Message, len(c.entries))
	for i := range c.entries {
		msgs[i] = c.entries[i].msg
	}
	return msgs
}

// adopt makes msgs, which a pass returned, the run's messages: entries are
// re-read from them, a prompt being a user message without tool results,
// and tool results finding their events by call id.
func (c *contextRun) adopt(msgs []model.Message) {
	if c.sources == nil {
		c.sources = make(map[string]resultSource)
		for _, e := range c.entries {
			for j, src := range e.results {
				if j < len(e.msg.Blocks) {
					c.sources[e.msg.Blocks[j].ID] = src
				}
			}
		}
	}
	// Prompts find their seq and verified mark by their text.
	type promptOf struct {
		seq      int64
		verified bool
	}
	prompts := make(map[string]promptOf)
	for _, e := range c.entries {
		if e.prompt && e.msg.Blocks == nil {
			prompts[e.msg.Text] = promptOf{e.seq, e.verified}
		}
	}
	facts := ""
	if c.pinned {
		facts = c.entries[0].msg.Text
	}
	c.pinned = len(msgs) > 0 && facts != "" && msgs[0].Role == model.RoleUser && msgs[0].Blocks == nil && msgs[0].Text == facts
	entries := make([]entry, len(msgs))
	for i, m := range msgs {
		e := entry{msg: m}
		results := false
		for _, b := range m.Blocks {
			if b.Type == model.BlockToolResult {
				results = true
				break
			}
		}
		switch {
		case results:
			e.results = make([]resultSource, len(m.Blocks))
			for j, b := range m.Blocks {
				e.results[j] = c.sources[b.ID]
			}
			e.seq = e.results[0].seq
		case m.Role == model.RoleUser && !(i == 0 && c.pinned):
			e.prompt = true
			if p, ok := prompts[m.Text]; ok && m.Blocks == nil {
				e.seq, e.verified = p.seq, p.verified
			}
		}
		entries[i] = e
	}
	c.entries, c.msgs = entries, msgs
	c.shared, c.indexed = false, false
}

// own makes the run's entries its own copy, before a level changes them.
func (c *contextRun) own() {
	if c.shared {
		c.entries = slices.Clone(c.entries)
		c.shared = false
	}
}

// tailTokens returns the estimated tokens of the messages the events after
// the latest view added (all of them, without a view).
func (c *contextRun) tailTokens() int {
	p := &c.r.st.proj
	n := 0
	for i := p.baseLen; i < len(p.entries); i++ {
		n += p.entries[i].size()
	}
	return tokens(n)
}

// fillSlot puts the facts as they are now in the cache's facts slot.
func (r *run) fillSlot() {
	p := &r.st.proj
	if facts := r.facts(); p.entries[0].msg.Text != facts || p.entries[0].msg.Role == "" {
		p.entries[0] = entry{msg: model.UserText(facts)}
		p.set(0, p.entries[0].msg)
	}
}

// setEntry replaces the message of entry i.
func (c *contextRun) setEntry(i int, m model.Message) {
	c.own()
	c.entries[i].set(m)
}

// contextRun starts the context engine's work on a request of r: the
// cached projection, with the facts message first when the latest view
// was pinned, and the reminder's size.
func (r *run) contextRun(reminder string) *contextRun {
	c := &contextRun{r: r, opts: r.e.opts.Context, window: r.e.window()}
	r.st.projected()
	p := &r.st.proj
	off := 1 // the facts slot is not sent
	if p.pinned {
		r.fillSlot()
		c.pinned, off = true, 0
	}
	c.entries, c.shared, c.indexed = p.entries[off:len(p.entries):len(p.entries)], true, true
	c.msgs, p.lent, c.slot = p.msgs[off:len(p.msgs):len(p.msgs)], true, off

	fixed, fixedBytes := r.fixedSize()
	c.fixed = fixed + tokens(utf16text.Len(reminder))
	c.fixedBytes = fixedBytes + len(reminder)
	c.status.Generation = r.st.generation()
	return c
}

// fixedTokens estimates the tokens of the system prompt and the tool specs
// of r's requests.
func (r *run) fixedTokens() int {
	n, _ := r.fixedSize()
	return n
}

// fixedSize returns the estimated tokens and the UTF-8 bytes of the
// system prompt and the tool specs of r's requests.
func (r *run) fixedSize() (estimate, bytes int) {
	fixed, bytes := utf16text.Len(r.e.opts.System), len(r.e.opts.System)
	if specs, err := json.Marshal(r.specs); err == nil {
		fixed += utf16text.Len(string(specs))
		bytes += len(specs)
	}
	return tokens(fixed), bytes
}

// messages builds the request's messages: the projected log as the context
// levels and the host's passes left it, then the reminder, if any. With
// force (the retry after an overflow error) every level applies whatever
// the pressure, and the host's overflow passes run.
func (r *run) messages(ctx context.Context, reminder string, force bool) ([]model.Message, *ContextStatus, error) {
	mode := forceNone
	if force {
		mode = forceOverflow
	}
	msgs, status, _, err := r.sizedMessages(ctx, reminder, mode, 0)
	return msgs, status, err
}

// A forceMode says which context levels a request applies whatever its
// pressure.
type forceMode int

const (
	// forceNone applies the levels the pressure calls for.
	forceNone forceMode = iota
	// forceRoom applies levels 1 to 4 and the host's passes (then the
	// trim and level 5 only when the request is still over the window),
	// for a request whose input leaves its answer too little room in the
	// window (see bindAnswer); without the context engine, the host's
	// overflow passes run.
	forceRoom
	// forceOverflow applies every level and the host's overflow passes:
	// the retry of a request the provider refused as too long, or one
	// forceRoom left without room for its answer.
	forceOverflow
)

// inputSize is the size of a request's input, in tokens: an estimate (a
// quarter of the UTF-16 code units of its text), scaled to the provider's
// count of the request before the levels when scaled, or that count
// itself when exact (the levels changed nothing after it), else
// corrected by the session's calibration. estimate is the plain
// estimate, which the request's usage calibrates.
type inputSize struct {
	tokens, estimate int
	scaled, exact    bool
}

// sizedMessages is messages with the mode of the levels it forces, also
// returning the size of the request's input. scale, when not 0, turns
// estimates into the provider's counts where the provider counted none
// (a refused request's count over its estimate).
func (r *run) sizedMessages(ctx context.Context, reminder string, mode forceMode, scale float64) ([]model.Message, *ContextStatus, inputSize, error) {
	opts := r.e.opts.Context
	if opts == nil {
		msgs := session.Fold(r.st.events)
		var err error
		if msgs, err = r.hostPasses(ctx, msgs, mode != forceNone, scale); err != nil {
			return nil, nil, inputSize{}, err
		}
		if reminder != "" {
			msgs = append(msgs[:len(msgs):len(msgs)], model.UserText(reminder))
		}
		if r.e.wantMaxTokens() == 0 {
			return msgs, nil, inputSize{}, nil // nothing to bind: not measured
		}
		n := 0
		for i := range msgs {
			n += messageChars(msgs[i])
		}
		est := r.fixedTokens() + tokens(n)
		size := inputSize{tokens: r.st.calib.apply(est), estimate: est}
		if scale > 0 {
			size.tokens, size.scaled = int(math.Min(math.Round(float64(est)*scale), maxTokens)), true
		}
		return msgs, nil, size, nil
	}
	c := r.contextRun(reminder)
	counted := c.msgs
	if tc, ok := model.AsTokenCounter(r.e.opts.Provider); ok {
		c.calibrate(ctx, tc, reminder)
	}
	switch {
	case c.counted:
	case scale > 0:
		c.scale, c.counted = scale, true
		counted = nil // not a count of this request
	default:
		c.calib = r.st.calib
	}
	c.status.BeforeTokens = c.measure()
	c.status.Counted = c.counted
	switch mode {
	case forceNone:
		c.status.Reason = "pressure"
	case forceRoom:
		c.status.Reason = "room"
	default:
		c.status.Reason = "overflow"
	}
	if mode != forceNone || c.over(level1At) {
		if err := c.compact(ctx, mode, false); err != nil {
			return nil, nil, inputSize{}, err
		}
	} else if err := c.host(ctx, false); err != nil {
		return nil, nil, inputSize{}, err
	}
	msgs := c.msgs
	if reminder != "" {
		msgs = append(msgs[:len(msgs):len(msgs)], model.UserText(reminder))
	}
	size := inputSize{tokens: c.measure(), estimate: c.estimate(), scaled: c.counted, exact: c.counted && !compaction.Changed(counted, c.msgs)}
	if c.status.Level == 0 {
		return msgs, nil, size, nil
	}
	return msgs, &c.status, size, nil
}

// hostPasses runs Options.Passes on msgs, and with overflow then
// Options.OverflowPasses, with the window and the scale of the request's
// measure in their context: scale, a refused request's count over its
// estimate, when not 0, else the session's calibration.
func (r *run) hostPasses(ctx context.Context, msgs []model.Message, overflow bool, scale float64) ([]model.Message, error) {
	if scale <= 0 {
		scale = r.st.calib.ratio
	}
	ctx = compaction.WithTokenScale(compaction.WithWindow(ctx, r.e.window()), scale)
	out, err := compaction.Run(ctx, msgs, r.e.opts.Passes...)
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	if overflow {
		if out, err = compaction.Run(ctx, out, r.e.opts.OverflowPasses...); err != nil {
			return nil, fmt.Errorf("context: %w", err)
		}
	}
	return out, nil
}

// host runs the host's passes, leaves out the oldest turns of a request
// still over the window (trim), commits a view when the levels, the
// passes or the trim changed what the base renders to, and with force then runs the
// host's overflow passes, whose changes are not committed. A change only
// levels 1, 2 and 4 made, which the next request (or a new process) redoes
// alike, is committed only once the events after the latest view hold a
// quarter of the window: each view holds the whole compacted history, and
// committing one at every request would grow the log by a window a request.
func (c *contextRun) host(ctx context.Context, force bool) error {
	if changed, err := c.runHost(ctx, c.r.e.opts.Passes); err != nil {
		return err
	} else if changed {
		c.changed, c.durable = true, true
	}
	if c.trim() > 0 {
		c.changed, c.durable = true, true
	}
	if c.changed && (c.durable || c.tailTokens() >= c.window/4) {
		if err := c.commit(ctx); err != nil {
			return err
		}
	}
	if force {
		if _, err := c.runHost(ctx, c.r.e.opts.OverflowPasses); err != nil {
			return err
		}
	}
	return nil
}

// runHost runs host passes on the run's messages, the facts message aside:
// it is the engine's, and stays first. Their context carries the window
// ([compaction.WithWindow]) and the scale of the run's measures
// ([compaction.WithTokenScale]). It reports whether they changed
// anything.
func (c *contextRun) runHost(ctx context.Context, passes []compaction.Pass) (bool, error) {
	if len(passes) == 0 {
		return false, nil
	}
	in := c.msgs
	if c.pinned {
		in = in[1:]
	}
	// Passes that ask the model (a summary) keep their requests within
	// the window, at the scale the run measures by.
	out, err := compaction.Run(compaction.WithTokenScale(compaction.WithWindow(ctx, c.window), c.tokenScale()), in, passes...)
	if err != nil {
		return false, fmt.Errorf("context: %w", err)
	}
	if !compaction.Changed(in, out) {
		return false, nil
	}
	if c.pinned {
		out = append([]model.Message{c.msgs[0]}, out...)
	}
	c.adopt(out)
	c.cutSummary()
	return true, nil
}

// cutSummary cuts a summary message a host pass put first to a quarter of
// the window, as level 4 cuts it in the requests after: the levels ran
// before the pass, and a view holding the summary whole would be over
// the window however large the model made it. It adds the UTF-16 code
// units it cut to c.summaryCut.
func (c *contextRun) cutSummary() {
	first := 0
	if c.pinned {
		first = 1
	}
	if first >= len(c.entries) || !c.summaryAt(first) {
		return
	}
	limit := max(shrunkMessage, c.window) // a quarter of the window: 4 units a token
	m := c.entries[first].msg
	if !needsShrink(m, limit, shrunkResult) {
		return
	}
	cut := shrinkMessage(m, limit, shrunkResult)
	c.summaryCut += utf16text.Len(m.Text) - utf16text.Len(cut.Text)
	c.setEntry(first, cut)
	c.msgs = c.render()
}

// maxTokens bounds a scaled measure, so that a provider's absurd count
// cannot overflow it.
const maxTokens = 1 << 40

// calibrate asks the provider to count the uncompacted request, once: the
// levels then measure with estimates scaled to that count, since counting
// after each level would cost a provider call each. A request of fewer
// UTF-8 bytes than level 1's threshold is not counted: a tokenizer counts
// at most a token a byte (as [compaction.TokenScale] bounds a scale), so
// it cannot reach the threshold, and most requests of a session then cost
// no count. That is four times the estimate of ASCII text, and twelve of
// Chinese or Japanese, which tokenizers count at six: the bound was four
// times the estimate (text taken at most a token a character), and a
// Chinese request under it, not counted, measured plainly, could be six
// times its measure and overflow the window. A failed or negative count
// leaves plain estimates.
func (c *contextRun) calibrate(ctx context.Context, tc model.TokenCounter, reminder string) {
	est := c.measure()
	if est <= 0 || float64(c.bytes()) <= level1At*float64(c.window) {
		return
	}
	n, err := c.count(ctx, tc, reminder)
	if err != nil {
		c.r.e.log.Debug("token count failed; estimating", "session", c.r.id, "err", err)
		return
	}
	c.scaleTo(n, est)
}

// count asks the provider for the tokens of the request of the run's
// messages as they are now, with reminder: its count, or why it has none.
func (c *contextRun) count(ctx context.Context, tc model.TokenCounter, reminder string) (int, error) {
	msgs := make([]model.Message, 0, len(c.entries)+1)
	for _, e := range c.entries {
		msgs = append(msgs, e.msg)
	}
	if reminder != "" {
		msgs = append(msgs, model.UserText(reminder))
	}
	n, err := tc.CountTokens(ctx, c.r.newRequest(msgs))
	if err == nil && n < 0 {
		err = fmt.Errorf("the provider counted %d tokens", n)
	}
	if err != nil {
		return 0, fmt.Errorf("token count: %w", err)
	}
	return n, nil
}

// scaleTo makes the run's measures the provider's count n of a request
// estimated at est tokens, scaled.
func (c *contextRun) scaleTo(n, est int) {
	if est > 0 {
		c.scale, c.counted = float64(n)/float64(est), true
	}
}

// compactingCountedKey is the context key of [CompactingCounted].
type compactingCountedKey struct{}

// CompactingCounted reports whether the size before a compaction that a
// [ContextOptions.Compacting] callback was given with ctx is the
// provider's count of the request ([model.TokenCounter], or stated by
// its refusal of it as too long), as the compaction's
// [ContextStatus.Counted] says; false, it is an estimate. The size after
// it is never a count: an estimate, scaled to the count when counted.
// Hosts say so in their compact hooks and spans.
func CompactingCounted(ctx context.Context) bool {
	counted, _ := ctx.Value(compactingCountedKey{}).(bool)
	return counted
}

// compact applies the levels the pressure calls for, or all of them when
// mode forces them, then the host's passes (committing a view when
// something changed), with forceOverflow the host's overflow passes, and,
// when the request is still over the window (always with forceOverflow
// and no overflow passes), level 5 — between the Compacting callbacks.
// With manual (Engine.Compact) it applies the levels only, and no
// callback.
func (c *contextRun) compact(ctx context.Context, mode forceMode, manual bool) (err error) {
	force := mode != forceNone
	if c.opts.Compacting != nil && !manual {
		if done := c.opts.Compacting(context.WithValue(ctx, compactingCountedKey{}, c.status.Counted), c.r.id, c.status.BeforeTokens); done != nil {
			defer func() { done(c.measure(), err) }()
		}
	}
	defer func() { c.status.AfterTokens = c.measure() }()
	if _, err := compaction.Run(ctx, c.msgs, c.levels(force)...); err != nil {
		return err
	}
	if manual {
		return nil // Compact runs the summary pass, then commits
	}
	overflow := mode == forceOverflow
	if err := c.host(ctx, overflow); err != nil {
		return err
	}
	overflowPasses := overflow && len(c.r.e.opts.OverflowPasses) > 0
	if overflow && !overflowPasses || c.over(1) {
		if _, err := compaction.Run(ctx, c.msgs, c.pass("emergency", false, func(context.Context) (bool, error) {
			c.emergency()
			c.status.Level = 5
			return true, nil
		})); err != nil {
			return err
		}
	}
	return nil
}

// levels returns the context levels 1 to 4 as passes; each applies when
// the pressure calls for it, or with force.
func (c *contextRun) levels(force bool) []compaction.Pass {
	return []compaction.Pass{
		c.pass("externalize", true, func(ctx context.Context) (bool, error) {
			changed, err := c.externalize(ctx)
			if err == nil {
				c.status.Level = 1
			}
			return changed, err
		}),
		c.pass("reminders", true, func(context.Context) (bool, error) {
			if c.status.Level < 1 || !force && !c.over(level2At) {
				return false, nil
			}
			c.status.Level = 2
			return c.dedupeReminders(), nil
		}),
		c.pass("planner", true, func(ctx context.Context) (bool, error) {
			if c.opts.Planner == nil || c.status.Level < 2 || !force && !c.over(level3At) {
				return false, nil
			}
			c.status.Level = 3
			changed, err := c.runPlan(ctx)
			c.durable = c.durable || changed // a plan is not redone alike
			return changed, err
		}),
		// Pinning alone is not committed: it is cheap to do again, while
		// a view costs the size of the whole history.
		c.pass("pin", false, func(context.Context) (bool, error) {
			if c.status.Level < 2 || !force && !c.over(level4At) {
				return false, nil
			}
			c.status.Level = 4
			shrunk, pinned := c.pinAndShrink()
			if shrunk {
				c.changed = true
			}
			return shrunk || pinned, nil
		}),
	}
}

// pass returns a level as a [compaction.Pass] over the run's entries:
// apply changes c.entries and reports whether it changed anything. Given
// messages other than those the run last rendered (a host pass ran before
// it), the pass re-reads the entries from them first. A pass that commits
// marks the run changed, so that its change is committed in a view.
func (c *contextRun) pass(name string, commits bool, apply func(context.Context) (bool, error)) compaction.Pass {
	return compaction.PassFunc(name, func(ctx context.Context, msgs []model.Message) ([]model.Message, error) {
		if compaction.Changed(msgs, c.msgs) {
			c.adopt(msgs)
		}
		changed, err := apply(ctx)
		if err != nil {
			return nil, err
		}
		if !changed {
			return msgs, nil
		}
		if commits {
			c.changed = true
		}
		if !c.rendered {
			c.msgs = c.render()
		}
		c.rendered = false
		return c.msgs, nil
	})
}

// externalize is level 1: tool results of at least minExternalized units
// that an assistant message already answered are put in the archive and
// replaced by their ref and preview, or shortened to a preview when there
// is no archive. Results the model has not seen yet stay whole.
func (c *contextRun) externalize(ctx context.Context) (bool, error) {
	last := -1
	changed := false
	for i, e := range c.entries {
		if e.msg.Role == model.RoleAssistant {
			last = i
		}
	}
	var (
		ar     archive.Archive
		opened bool
	)
	// open resolves the archive at the first result to take out, so that
	// a request with none opens (and creates) nothing.
	open := func() error {
		if opened || c.opts.Archive == nil {
			return nil
		}
		opened = true
		var err error
		if ar, err = c.opts.Archive(ctx, c.r.id); err != nil {
			return fmt.Errorf("context: open archive: %w", err)
		}
		return nil
	}
	for i := 0; i < last; i++ {
		e := &c.entries[i]
		if e.results == nil {
			continue
		}
		var blocks []model.Block // copied on the first change: events share theirs
		for j, b := range e.msg.Blocks {
			if b.Type != model.BlockToolResult || utf16text.Len(b.Content) < minExternalized ||
				strings.HasPrefix(b.Content, archivedPrefix) || strings.HasPrefix(b.Content, externalizedLabel) {
				continue
			}
			// A result no longer than its replacement stays whole, and
			// then is not archived either.
			if c.opts.Archive != nil && len(b.Content) <= archivedSize {
				continue
			}
			if err := open(); err != nil {
				return false, err
			}
			var short string
			archived := false
			if ar != nil {
				src := resultSource{}
				if j < len(e.results) {
					src = e.results[j]
				}
				en, err := c.r.put(ctx, ar, b, src)
				switch {
				case errors.Is(err, storage.ErrUnstorable):
					// The archive cannot keep this content (plaintext
					// that looks encoded): shorten it as without one.
				case err != nil:
					return false, err
				default:
					short = archivedPrefix + en.Ref + "] " + en.Preview
					c.status.ArchiveRefs = append(c.status.ArchiveRefs, en.Ref)
					archived = true
				}
			}
			if !archived {
				cut, _ := utf16text.Cut(b.Content, externalPreview)
				short = externalizedLabel + " " + cut
				if len(short) >= len(b.Content) {
					continue
				}
			}
			if blocks == nil {
				blocks = append([]model.Block(nil), e.msg.Blocks...)
			}
			blocks[j].Content = short
		}
		if blocks != nil {
			m := e.msg
			m.Blocks = blocks
			c.setEntry(i, m)
			changed = true
		}
	}
	return changed, nil
}

// put archives one tool result, once per content for the session's life in
// the engine: puts are idempotent, but each one reads the archive's index.
func (r *run) put(ctx context.Context, ar archive.Archive, b model.Block, src resultSource) (archive.Entry, error) {
	key := sha256.Sum256([]byte(b.Content))
	if en, ok := r.st.archived[key]; ok {
		return en, nil
	}
	en, err := ar.Put(ctx, b.Content, map[string]any{
		"kind": "tool-result", "sessionId": r.id, "seq": src.seq, "turn": src.turn, "toolCallId": b.ID,
	})
	if err != nil {
		return archive.Entry{}, fmt.Errorf("context: archive tool result %s: %w", b.ID, err)
	}
	if r.st.archived == nil {
		r.st.archived = make(map[[sha256.Size]byte]archive.Entry)
	}
	r.st.archived[key] = en
	return en, nil
}

// archivedSize is the most bytes an archived result's replacement takes:
// the prefix, a ref and the longest preview.
const archivedSize = len(archivedPrefix) + 2*sha256.Size + len("] ") + archive.PreviewBytes

// reminderLike matches the user messages level 2 takes for reminders.
// It is compiled on first use.
var reminderLike = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)reminder|background task|task update`)
})

// repeatedReminder replaces a reminder the request already holds. A
// marker, not a removal, keeps user and assistant messages alternating.
const repeatedReminder = "[repeated reminder omitted]"

// active returns the index of the current prompt's message, where the
// active segment starts; everything before it is history.
func (c *contextRun) active() int {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i].prompt {
			return i
		}
	}
	return 0
}

// dedupeReminders is level 2: a plain-text user message that looks like a
// reminder and repeats an earlier one is replaced by a short marker. It
// reports whether it replaced any.
func (c *contextRun) dedupeReminders() bool {
	changed := false
	// Only a repeated text can be replaced, so the pattern is tried on
	// repeats alone: a long log holds thousands of distinct prompts. The
	// current prompt and what follows it are the model's task: a repeat
	// there stays whole.
	active := c.active()
	replace := func(i int) {
		if m := c.entries[i].msg; m.Text != repeatedReminder && reminderLike().MatchString(m.Text) {
			c.setEntry(i, model.UserText(repeatedReminder))
			changed = true
		}
	}
	if c.indexed {
		// The cache knows the repeats.
		for _, i := range c.r.st.proj.repeatIndex() {
			if i -= c.slot; i >= active {
				break
			}
			replace(i)
		}
		return changed
	}
	seen := make(map[string]bool)
	for i := range c.entries[:active] {
		e := &c.entries[i]
		if e.msg.Role != model.RoleUser || e.msg.Blocks != nil || c.pinned && i == 0 {
			continue
		}
		if !seen[e.msg.Text] {
			seen[e.msg.Text] = true
			continue
		}
		replace(i)
	}
	return changed
}

// pinAndShrink is level 4: a message of pinned facts goes first, and every
// message before the current prompt is shortened. It reports whether it
// changed anything; a request already pinned keeps its facts message.
func (c *contextRun) pinAndShrink() (shrunk, pinned bool) {
	for i := range c.active() {
		e := &c.entries[i]
		if c.pinned && i == 0 {
			continue
		}
		if e.fits || e.size() <= shrunkResult {
			continue
		}
		limit := shrunkMessage
		if c.summaryAt(i) {
			// A summary stands for every turn before it: cut to 768
			// characters, a compaction that summarizes it again would
			// lose most of them. It keeps up to a quarter of the
			// window (window tokens are 4 units each).
			limit = max(shrunkMessage, c.window)
		}
		if !needsShrink(e.msg, limit, shrunkResult) {
			e.fits = true // in the cache too, while shared: later requests skip it
			continue
		}
		c.setEntry(i, shrinkMessage(e.msg, limit, shrunkResult))
		shrunk = true
	}
	if c.pinned {
		return shrunk, false
	}
	if c.shared && c.slot == 1 {
		// The cache has a slot for the facts just before the entries.
		p := &c.r.st.proj
		c.r.fillSlot()
		n := len(c.entries) + 1
		c.entries, c.msgs, c.slot = p.entries[:n:n], p.msgs[:n:n], 0
		p.lent, c.rendered = true, true
	} else {
		c.entries = append([]entry{{msg: model.UserText(c.r.facts())}}, c.entries...)
		c.shared, c.indexed = false, false
	}
	c.pinned = true
	return shrunk, true
}

// summaryAt reports whether entry i is the message of a summary pass
// ([compaction.SummaryHeader]): the first message, the facts aside, since
// the pass puts it first. A prompt that only starts like one later on is
// a prompt.
func (c *contextRun) summaryAt(i int) bool {
	first := 0
	if c.pinned {
		first = 1
	}
	m := c.entries[i].msg
	return i == first && m.Role == model.RoleUser && m.Blocks == nil && strings.HasPrefix(m.Text, compaction.SummaryHeader)
}

// needsShrink reports whether shrinkMessage(m, max, maxResult) changes m.
func needsShrink(m model.Message, max, maxResult int) bool {
	if utf16text.Len(m.Text) > max {
		return true
	}
	for _, b := range m.Blocks {
		switch b.Type {
		case model.BlockText:
			if utf16text.Len(b.Text) > max {
				return true
			}
		case model.BlockToolResult:
			if utf16text.Len(b.Content) > maxResult {
				return true
			}
		case model.BlockToolCall:
			if utf16text.Len(string(b.Input)) > max && !shortened(b.Input) {
				return true
			}
		}
	}
	return false
}

// emergency is level 5: the pinned facts and the last two messages, each
// cut to emergencyMessage units; if that is still too long, the facts and
// the last message cut to emergencyLast.
func (c *contextRun) emergency() {
	facts := entry{msg: model.UserText(c.r.facts())}
	all := c.entries
	if c.pinned {
		all = all[1:]
	}
	tail := func(n, max int) []entry {
		if len(all) < n {
			n = len(all)
		}
		kept := make([]entry, 0, n+1)
		kept = append(kept, facts)
		for _, e := range all[len(all)-n:] {
			e.set(shrinkMessage(e.msg, max, max))
			kept = append(kept, e)
		}
		orphanResults(kept)
		return kept
	}
	c.entries = tail(2, emergencyMessage)
	if c.over(1) {
		c.entries = tail(1, emergencyLast)
	}
}

// trimTo is the fraction of the window trim leaves a request at: under
// level 1, so that the requests after it grow from a committed view for a
// while before the levels apply again.
const trimTo = level1At

// trimmedPrefix starts the marker of the turns trim left out, as in
// "[12 earlier turn(s) left out to fit the context window]".
const trimmedPrefix = "[%d earlier turn(s) " + trimmedWhy + "]"

const trimmedWhy = "left out to fit the context window"

// trim bounds the compacted history: when the request is over the window
// with levels 1 to 4 and the host's passes applied, it leaves out its
// oldest turns (segments before the current one), down to trimTo of the
// window, for a marker message saying how many. The facts message, a
// summary message ([compaction.SummaryHeader]) and the current segment
// stay; turns a former trim left out are counted in the new marker. Since
// the view committed next holds what trim leaves, a view, and what a
// resume reads from it, stays within the window. It returns the turns its
// marker says it leaves out, 0 when it left nothing out; the log keeps
// every event.
func (c *contextRun) trim() int {
	if !c.over(1) {
		return 0
	}
	first := 0
	if c.pinned {
		first = 1
	}
	// The segments before the current one, and what leaving each out
	// saves: nothing for a summary, which stays.
	type segment struct {
		start, end int
		summary    bool
		turns      int // the turns it stands for: a former marker's count
		chars      int
	}
	var segs []segment
	active := c.active()
	total, droppable := 0, 0
	for i := range c.entries {
		total += c.entries[i].size()
	}
	for i := first; i < active; {
		sg := segment{start: i, end: i + 1, turns: 1}
		for sg.end < active && !c.entries[sg.end].prompt {
			sg.end++
		}
		m := c.entries[i].msg
		sg.summary = c.summaryAt(i)
		if !sg.summary {
			if m.Role == model.RoleUser && m.Blocks == nil {
				trimMarker(m.Text, &sg.turns)
			}
			for j := sg.start; j < sg.end; j++ {
				sg.chars += c.entries[j].size()
			}
			droppable += sg.chars
		}
		segs = append(segs, sg)
		i = sg.end
	}
	marker := func(n int) int { return utf16text.Len(fmt.Sprintf(trimmedPrefix, n)) }
	// Only a trim that brings the request within the window is worth a
	// view: a current segment over the window by itself is level 5's.
	if c.measureChars(total-droppable+marker(math.MaxInt32)) > c.window {
		return 0
	}
	target := int(trimTo * float64(c.window))
	var kept []entry // summary messages, which stand for what came before them
	left, dropped, cut := 0, 0, first
	for _, sg := range segs {
		cut = sg.end
		if sg.summary {
			kept = append(kept, c.entries[sg.start:sg.end]...)
			continue
		}
		left += sg.turns
		if !c.isTrimMarker(sg.start, sg.end) {
			dropped++
		}
		total -= sg.chars
		if c.measureChars(total+marker(left)) <= target {
			break
		}
	}
	if dropped == 0 {
		return 0 // only a former marker would go, for the same one
	}
	entries := make([]entry, 0, first+len(kept)+1+len(c.entries)-cut)
	entries = append(entries, c.entries[:first]...)
	entries = append(entries, kept...)
	entries = append(entries, entry{msg: model.UserText(fmt.Sprintf(trimmedPrefix, left)), prompt: true})
	entries = append(entries, c.entries[cut:]...)
	c.entries, c.shared, c.indexed = entries, false, false
	c.msgs = c.render()
	return left
}

// isTrimMarker reports whether entries[start:end] is a marker of trim.
func (c *contextRun) isTrimMarker(start, end int) bool {
	var n int
	m := c.entries[start].msg
	return end == start+1 && m.Role == model.RoleUser && m.Blocks == nil && trimMarker(m.Text, &n)
}

// trimMarker reports whether text is a marker of trim, setting *n to the
// turns it stands for.
func trimMarker(text string, n *int) bool {
	var k int
	var rest string
	if got, err := fmt.Sscanf(text, "[%d earlier turn(s) %s", &k, &rest); err != nil || got != 2 || k < 1 || text != fmt.Sprintf(trimmedPrefix, k) {
		return false
	}
	*n = k
	return true
}

// orphanResults turns the tool results of entries whose calls were cut off
// into text, so that the request never holds a result without its call,
// which providers refuse.
func orphanResults(entries []entry) {
	calls := make(map[string]bool)
	for i := range entries {
		m := entries[i].msg
		var blocks []model.Block
		for j, b := range m.Blocks {
			switch {
			case b.Type == model.BlockToolCall:
				calls[b.ID] = true
			case b.Type == model.BlockToolResult && !calls[b.ID]:
				if blocks == nil {
					blocks = append([]model.Block(nil), m.Blocks...)
				}
				blocks[j] = model.TextBlock("[tool result of an earlier call " + b.ID + "]\n" + b.Content)
			}
		}
		if blocks != nil {
			m.Blocks = blocks
			entries[i].set(m)
		}
	}
}

// shrinkMessage returns m with its text cut to max UTF-16 units, tool
// results to maxResult, and tool call inputs longer than max replaced by
// an object holding their shortened JSON text. m's blocks are not changed.
func shrinkMessage(m model.Message, max, maxResult int) model.Message {
	m.Text = shrink(m.Text, max)
	if m.Blocks == nil {
		return m
	}
	blocks := make([]model.Block, len(m.Blocks))
	for i, b := range m.Blocks {
		switch b.Type {
		case model.BlockText:
			b.Text = shrink(b.Text, max)
		case model.BlockToolResult:
			b.Content = shrink(b.Content, maxResult)
		case model.BlockToolCall:
			if utf16text.Len(string(b.Input)) > max && !shortened(b.Input) {
				in, _ := json.Marshal(map[string]string{"shortenedInput": shrink(string(b.Input), max-32)})
				b.Input = in
			}
		}
		blocks[i] = b
	}
	m.Blocks = blocks
	return m
}

// shortenedPrefix starts a tool call input shrinkMessage shortened.
const shortenedPrefix = `{"shortenedInput":`

// shortened reports whether a tool call input was shortened already: its
// escaped text may be longer than the limit, but shortening it again would
// only nest it, and change a committed view at every request.
func shortened(in json.RawMessage) bool { return strings.HasPrefix(string(in), shortenedPrefix) }

// shrink cuts s to at most max UTF-16 code units (the marker included when
// max allows), keeping 70% from its head and the rest from its tail joined
// by a marker naming how much was left out.
func shrink(s string, max int) string {
	n := utf16text.Len(s)
	if n <= max {
		return s
	}
	marker := func(omitted int) string { return fmt.Sprintf("\n[… %d chars omitted …]\n", omitted) }
	room := max - utf16text.Len(marker(n))
	if room <= 0 {
		cut, _ := utf16text.Cut(s, max)
		return cut
	}
	head, _ := utf16text.Cut(s, int(math.Floor(float64(room)*0.7)))
	tail := utf16text.Last(s, room-utf16text.Len(head))
	return head + marker(n-utf16text.Len(head)-utf16text.Len(tail)) + tail
}

// The words that make a prompt a constraint or a goal fact: English words
// (case-insensitive, whole words, an optional plural s) and Chinese ones.
var (
	constraintWords = []string{"constraint", "requirement", "must", "acceptance criteria"}
	constraintHan   = []string{"约束", "要求", "必须", "不得", "验收标准"}
	goalWords       = []string{"goal", "objective"}
	goalHan         = []string{"目标"}
)

// mentions reports whether text holds one of words as a whole word (ASCII
// case folded, an optional plural s) or one of han anywhere. words are
// lower case. A regular expression did the same some thirty times slower,
// and lowercasing every prompt first cost a long log's first request
// a copy of every prompt in it.
func mentions(text string, words, han []string) bool {
	for _, h := range han {
		if strings.Contains(text, h) {
			return true
		}
	}
	for i := 0; i < len(text); i++ {
		c := lowerASCII(text[i])
		if c < 'a' || c > 'z' || i > 0 && isWordByte(text[i-1]) {
			continue
		}
		for _, w := range words {
			if c != w[0] || !hasPrefixFold(text[i:], w) {
				continue
			}
			end := i + len(w)
			if end < len(text) && lowerASCII(text[end]) == 's' && (end+1 == len(text) || !isWordByte(text[end+1])) {
				end++
			}
			if end == len(text) || !isWordByte(text[end]) {
				return true
			}
		}
	}
	return false
}

// lowerASCII returns b lowercased when it is an ASCII capital.
func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// hasPrefixFold reports whether s starts with the lower-case word w, ASCII
// case folded.
func hasPrefixFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if lowerASCII(s[j]) != w[j] {
			return false
		}
	}
	return true
}

// isWordByte reports whether b is an ASCII word character, as \b sees it.
func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// A factSet holds the pinned facts of the latest view and of the cached
// events after it up to scanned; it grows with the log, so that each event
// is read once.
type factSet struct {
	scanned   int
	ready     bool // started from the view's facts
	sawPrompt bool // the first prompt, a goal, was seen
	list      []fact
	seen      map[string]bool // factKey of each fact
}

type fact struct{ kind, text, key string }

func (fs *factSet) add(kind, text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	key := factKey(kind, text)
	if fs.seen[key] {
		return
	}
	if fs.seen == nil {
		fs.seen = make(map[string]bool)
	}
	fs.seen[key] = true
	fs.list = append(fs.list, fact{kind, shrink(text, maxFactChars), key})
}

// scan reads the events past those already scanned.
func (fs *factSet) scan(events []session.StoredEvent) {
	for _, se := range events[fs.scanned:] {
		switch ev := se.Event.(type) {
		case session.UserEvent:
			if ev.Origin != "" && ev.Origin != session.OriginUser {
				continue
			}
			text := ev.Message.PlainText()
			switch {
			case !fs.sawPrompt:
				fs.add("goal", text)
			case mentions(text, constraintWords, constraintHan):
				fs.add("constraint", text)
			case mentions(text, goalWords, goalHan):
				fs.add("goal", text)
			}
			fs.sawPrompt = true
		case session.ArtifactVerifiedEvent:
			fs.add("artifact", fmt.Sprintf("%s verified by %q: %s", ev.Path, ev.Command, string(ev.Result)))
		case session.SummaryEvent:
			// The facts survive a summary: they are what it must not lose.
		}
	}
	fs.scanned = len(events)
}

// facts renders the pinned facts of the whole log: the first prompt and
// later prompts that state goals or constraints, and verified artifacts.
// Each fact is cut to maxFactChars; past maxFacts, the first goal and the
// latest facts are kept.
func (r *run) facts() string {
	fs := &r.st.facts
	if !fs.ready || fs.scanned > len(r.st.events) {
		r.st.resetFacts() // not the events it was built from
	}
	fs.scan(r.st.events)
	facts := fs.list
	state := r.st.viewState().render()
	if len(facts) == 0 && state == "" {
		return "[No pinned facts]"
	}
	if len(facts) > maxFacts {
		facts = append(facts[:1:1], facts[len(facts)-maxFacts+1:]...)
	}
	var b strings.Builder
	b.WriteString("[Pinned facts — verbatim, do not rewrite]")
	for _, f := range facts {
		b.WriteString("\n" + f.kind + ": " + f.text)
	}
	b.WriteString(state)
	return b.String()
}
