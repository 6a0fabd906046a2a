package engine

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/utf16text"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
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
	Compacting func(ctx context.Context, sessionID string, before int) (done func(after int, err error))
}

// The pressure thresholds of the context levels, as fractions of the
// window, and the sizes the levels shorten to, in UTF-16 code units.
const (
	level1At = 0.65
	level2At = 0.75
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
	//     prompt are shortened;
	//   5 only the pinned facts and the last messages are sent.
	// There is no level 3: it would need a planner, which this engine has not.
	Level int
	// Reason is "pressure", or "overflow" when the provider refused the
	// request as too long and this is the retry.
	Reason string
	// BeforeTokens and AfterTokens are the request's estimated size before
	// and after the levels.
	BeforeTokens, AfterTokens int
	// ArchiveRefs are the archive refs that replaced tool results in this
	// request.
	ArchiveRefs []string
}

// An entry is one message of the folded log, with what the context levels
// need to know about where it came from.
type entry struct {
	msg    model.Message
	prompt bool // a user event: it starts a segment
	// results holds, for a message of tool results, the seq and turn of
	// each block's event.
	results []resultSource
	// chars caches messageChars(msg) when sized; set changes msg and
	// clears it.
	chars int
	sized bool
}

// set replaces the entry's message.
func (e *entry) set(m model.Message) { e.msg, e.sized = m, false }

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

// project folds events into messages as [session.Fold] does, keeping where
// each message came from.
func project(events []session.StoredEvent) []entry {
	out := make([]entry, 0, len(events))
	var (
		blocks  []model.Block
		sources []resultSource
	)
	flush := func() {
		if blocks != nil {
			out = append(out, entry{msg: model.UserBlocks(blocks...), results: sources})
			blocks, sources = nil, nil
		}
	}
	for _, se := range events {
		switch ev := se.Event.(type) {
		case session.UserEvent:
			flush()
			out = append(out, entry{msg: ev.Message, prompt: true})
		case session.AssistantEvent:
			flush()
			out = append(out, entry{msg: ev.Message})
		case session.ToolResultEvent:
			blocks = append(blocks, ev.Result)
			sources = append(sources, resultSource{seq: se.Seq, turn: ev.Turn})
		case session.SummaryEvent:
			blocks, sources = nil, nil
			out = out[:0:0]
			for _, m := range ev.Messages {
				out = append(out, entry{msg: m})
			}
		}
	}
	flush()
	return out
}

// tokens estimates the tokens of text of n UTF-16 code units.
func tokens(n int) int { return (n + 3) / 4 }

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
// DefaultContextWindow.
func (e *Engine) window() int {
	if n := e.opts.Context.Window; n > 0 {
		return n
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
	pinned  bool // entries[0] is the facts message level 4 added
	status  ContextStatus
	// scale turns estimates into the provider's counts: its count of the
	// uncompacted request over the estimate, when counted.
	scale   float64
	counted bool
}

func (c *contextRun) measure() int {
	n := 0
	for i := range c.entries {
		n += c.entries[i].size()
	}
	est := c.fixed + tokens(n)
	if c.counted {
		return int(math.Min(math.Round(float64(est)*c.scale), maxTokens))
	}
	return est
}

func (c *contextRun) over(fraction float64) bool {
	return float64(c.measure()) > fraction*float64(c.window)
}

// messages builds the request's messages: the projected log as the context
// levels left it, then the reminder, if any. With force (the retry after an
// overflow error) every level applies whatever the pressure.
func (r *run) messages(ctx context.Context, reminder string, force bool) ([]model.Message, *ContextStatus, error) {
	opts := r.e.opts.Context
	if opts == nil {
		msgs := session.Fold(r.st.events)
		if reminder != "" {
			msgs = append(msgs[:len(msgs):len(msgs)], model.UserText(reminder))
		}
		return msgs, nil, nil
	}
	c := &contextRun{r: r, opts: opts, window: r.e.window(), entries: project(r.st.events)}
	fixed := utf16text.Len(r.e.opts.System)
	if specs, err := json.Marshal(r.specs); err == nil {
		fixed += utf16text.Len(string(specs))
	}
	c.fixed = tokens(fixed) + tokens(utf16text.Len(reminder))
	if tc, ok := model.AsTokenCounter(r.e.opts.Provider); ok {
		c.calibrate(ctx, tc, reminder)
	}
	c.status.BeforeTokens = c.measure()
	c.status.Reason = "pressure"
	if force {
		c.status.Reason = "overflow"
	}
	if force || c.over(level1At) {
		if err := c.compact(ctx, force); err != nil {
			return nil, nil, err
		}
	}
	msgs := make([]model.Message, 0, len(c.entries)+1)
	for _, e := range c.entries {
		msgs = append(msgs, e.msg)
	}
	if reminder != "" {
		msgs = append(msgs, model.UserText(reminder))
	}
	if c.status.Level == 0 {
		return msgs, nil, nil
	}
	return msgs, &c.status, nil
}

// maxTokens bounds a scaled measure, so that a provider's absurd count
// cannot overflow it.
const maxTokens = 1 << 40

// calibrate asks the provider to count the uncompacted request, once: the
// levels then measure with estimates scaled to that count, since counting
// after each level would cost a provider call each. A request whose
// estimate is under a quarter of level 1's threshold is not counted: text
// takes at most about one token a character, four times the estimate, so
// it cannot reach the threshold, and most requests of a session then cost
// no count. A failed or negative count leaves plain estimates.
func (c *contextRun) calibrate(ctx context.Context, tc model.TokenCounter, reminder string) {
	est := c.measure()
	if est <= 0 || float64(est)*4 <= level1At*float64(c.window) {
		return
	}
	msgs := make([]model.Message, 0, len(c.entries)+1)
	for _, e := range c.entries {
		msgs = append(msgs, e.msg)
	}
	if reminder != "" {
		msgs = append(msgs, model.UserText(reminder))
	}
	n, err := tc.CountTokens(ctx, c.r.newRequest(msgs))
	if err != nil || n < 0 {
		c.r.e.log.Debug("token count failed; estimating", "session", c.r.id, "err", err)
		return
	}
	c.scale, c.counted = float64(n)/float64(est), true
}

// compact applies the levels the pressure calls for, or all of them with
// force, between the Compacting callbacks.
func (c *contextRun) compact(ctx context.Context, force bool) (err error) {
	if c.opts.Compacting != nil {
		if done := c.opts.Compacting(ctx, c.r.id, c.status.BeforeTokens); done != nil {
			defer func() { done(c.measure(), err) }()
		}
	}
	defer func() { c.status.AfterTokens = c.measure() }()
	if err := c.externalize(ctx); err != nil {
		return err
	}
	c.status.Level = 1
	if force || c.over(level2At) {
		c.dedupeReminders()
		c.status.Level = 2
		if force || c.over(level4At) {
			c.pinAndShrink()
			c.status.Level = 4
		}
	}
	if force || c.over(1) {
		c.emergency()
		c.status.Level = 5
	}
	return nil
}

// externalize is level 1: tool results of at least minExternalized units
// that an assistant message already answered are put in the archive and
// replaced by their ref and preview, or shortened to a preview when there
// is no archive. Results the model has not seen yet stay whole.
func (c *contextRun) externalize(ctx context.Context) error {
	last := -1
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
				return err
			}
			var short string
			if ar == nil {
				cut, _ := utf16text.Cut(b.Content, externalPreview)
				short = externalizedLabel + " " + cut
				if len(short) >= len(b.Content) {
					continue
				}
			} else {
				en, err := c.r.put(ctx, ar, b, e.results[j])
				if err != nil {
					return err
				}
				short = archivedPrefix + en.Ref + "] " + en.Preview
				c.status.ArchiveRefs = append(c.status.ArchiveRefs, en.Ref)
			}
			if blocks == nil {
				blocks = append([]model.Block(nil), e.msg.Blocks...)
			}
			blocks[j].Content = short
		}
		if blocks != nil {
			m := e.msg
			m.Blocks = blocks
			e.set(m)
		}
	}
	return nil
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
var reminderLike = regexp.MustCompile(`(?i)reminder|background task|task update`)

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
// reminder and repeats an earlier one is replaced by a short marker.
func (c *contextRun) dedupeReminders() {
	// Only a repeated text can be replaced, so the pattern is tried on
	// repeats alone: a long log holds thousands of distinct prompts. The
	// current prompt and what follows it are the model's task: a repeat
	// there stays whole.
	seen := make(map[string]bool)
	for i := range c.entries[:c.active()] {
		e := &c.entries[i]
		if e.msg.Role != model.RoleUser || e.msg.Blocks != nil {
			continue
		}
		if !seen[e.msg.Text] {
			seen[e.msg.Text] = true
			continue
		}
		if reminderLike.MatchString(e.msg.Text) {
			e.set(model.UserText(repeatedReminder))
		}
	}
}

// pinAndShrink is level 4: a message of pinned facts goes first, and every
// message before the current prompt is shortened.
func (c *contextRun) pinAndShrink() {
	for i := range c.active() {
		e := &c.entries[i]
		if e.size() > shrunkResult {
			e.set(shrinkMessage(e.msg, shrunkMessage, shrunkResult))
		}
	}
	c.entries = append([]entry{{msg: model.UserText(c.r.facts())}}, c.entries...)
	c.pinned = true
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
			if utf16text.Len(string(b.Input)) > max {
				in, _ := json.Marshal(map[string]string{"shortenedInput": shrink(string(b.Input), max-32)})
				b.Input = in
			}
		}
		blocks[i] = b
	}
	m.Blocks = blocks
	return m
}

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
// case folded, an optional plural s) or one of han anywhere. A regular
// expression did the same some thirty times slower, which a long log's
// first request paid for every prompt in it.
func mentions(text string, words, han []string) bool {
	for _, h := range han {
		if strings.Contains(text, h) {
			return true
		}
	}
	lower := strings.ToLower(text)
	for _, w := range words {
		for from := 0; ; {
			i := strings.Index(lower[from:], w)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(w)
			if end < len(lower) && lower[end] == 's' && (end+1 == len(lower) || !isWordByte(lower[end+1])) {
				end++
			}
			if (start == 0 || !isWordByte(lower[start-1])) && (end == len(lower) || !isWordByte(lower[end])) {
				return true
			}
			from = start + 1
		}
	}
	return false
}

// isWordByte reports whether b is an ASCII word character, as \b sees it.
func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// A factSet holds the pinned facts of a log's first scanned events; it
// grows with the log, so that each event is read once.
type factSet struct {
	scanned   int
	sawPrompt bool // the first prompt, a goal, was seen
	list      []fact
	seen      map[string]bool
}

type fact struct{ kind, text string }

func (fs *factSet) add(kind, text string) {
	text = strings.TrimSpace(text)
	key := kind + "\x00" + text
	if text == "" || fs.seen[key] {
		return
	}
	if fs.seen == nil {
		fs.seen = make(map[string]bool)
	}
	fs.seen[key] = true
	fs.list = append(fs.list, fact{kind, shrink(text, maxFactChars)})
}

// scan reads the events past those already scanned.
func (fs *factSet) scan(events []session.StoredEvent) {
	if fs.scanned > len(events) {
		*fs = factSet{} // not the log it was built from
	}
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
	fs.scan(r.st.events)
	facts := fs.list
	if len(facts) == 0 {
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
	return b.String()
}
