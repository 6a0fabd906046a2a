package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/model"
)

// DefaultPlannerBudget is how long level 3 waits for the planner when
// [ContextOptions.PlannerBudget] is zero.
const DefaultPlannerBudget = 100 * time.Millisecond

// A Planner is level 3 of the context engine: shown the segments of a
// session's history (a segment is a prompt and what followed it), it says
// which to keep, which to replace by a summary and which to archive. The
// latest segment and segments holding a verified artifact are never shown.
// It must answer within the budget ([ContextOptions.PlannerBudget]); when
// it fails or runs out of time its plan is not used and the context_status
// event says so (PlannerFallback).
type Planner interface {
	Plan(ctx context.Context, req PlanRequest) (Plan, error)
}

// PlannerFunc adapts a function to a [Planner].
type PlannerFunc func(ctx context.Context, req PlanRequest) (Plan, error)

// Plan calls f.
func (f PlannerFunc) Plan(ctx context.Context, req PlanRequest) (Plan, error) { return f(ctx, req) }

// PlanRequest is what a [Planner] is shown.
type PlanRequest struct {
	SessionID string
	// Segments are the segments the planner may act on, oldest first.
	Segments []Segment
	// Tokens is the request's estimated size, Window the model's window.
	Tokens, Window int
}

// A Segment is a prompt and the messages that followed it, up to the next
// prompt.
type Segment struct {
	// ID names the segment in the plan: "segment-<seq>", seq being its
	// first event's.
	ID       string
	Messages []model.Message
	// Seqs are the seqs of the events its messages came from, which
	// [SegmentPlan.EvidenceRefs] cite.
	Seqs   []int64
	Tokens int
}

// PlanAction is what a plan does with a segment.
type PlanAction string

// The plan actions.
const (
	PlanKeep      PlanAction = "keep"
	PlanSummarize PlanAction = "summarize" // replaced by "[Historical segment summary]\n<summary>"
	PlanArchive   PlanAction = "archive"   // put in the archive, replaced by its ref and preview
)

// SegmentPlan is a plan's action on one segment.
type SegmentPlan struct {
	Segment string     `json:"segment"`
	Action  PlanAction `json:"action"`
	Summary string     `json:"summary,omitempty"`
	// EvidenceRefs cite what a summary rests on; each must end in
	// ":<seq>" with one of the segment's Seqs, or the action is ignored.
	EvidenceRefs []string `json:"evidenceRefs,omitempty"`
}

// A Plan is a [Planner]'s answer: per-segment actions (a segment not named
// is kept) and deltas of the session's working state, which are merged
// into the committed view and shown in the pinned facts message.
type Plan struct {
	Segments   []SegmentPlan `json:"segments"`
	Decisions  []string      `json:"decisions,omitempty"`
	Unresolved []string      `json:"unresolved,omitempty"`
	NextStep   string        `json:"nextStep,omitempty"`
}

// planState is the working state plans merge into a view.
type planState struct {
	Decisions  []string `json:"decisions,omitempty"`
	Unresolved []string `json:"unresolved,omitempty"`
	NextStep   string   `json:"nextStep,omitempty"`
}

func (s planState) empty() bool {
	return len(s.Decisions) == 0 && len(s.Unresolved) == 0 && s.NextStep == ""
}

// merge adds the deltas of p to s.
func (s planState) merge(p Plan) planState {
	add := func(list []string, more []string) []string {
		list = slices.Clip(list)
		for _, m := range more {
			if m = strings.TrimSpace(m); m != "" && !slices.Contains(list, m) {
				list = append(list, m)
			}
		}
		return list
	}
	s.Decisions = add(s.Decisions, p.Decisions)
	s.Unresolved = add(s.Unresolved, p.Unresolved)
	if n := strings.TrimSpace(p.NextStep); n != "" {
		s.NextStep = n
	}
	return s
}

// render returns the state as lines of the facts message.
func (s planState) render() string {
	var b strings.Builder
	for _, d := range s.Decisions {
		b.WriteString("\ndecision: " + shrink(d, maxFactChars))
	}
	for _, u := range s.Unresolved {
		b.WriteString("\nunresolved: " + shrink(u, maxFactChars))
	}
	if s.NextStep != "" {
		b.WriteString("\nnext step: " + shrink(s.NextStep, maxFactChars))
	}
	return b.String()
}

// state returns the working state to commit: the view's with this run's
// plan merged in.
func (c *contextRun) state() planState {
	var s planState
	if c.r.st.view != nil {
		s = c.r.st.view.state
	}
	if c.plan != nil {
		s = s.merge(*c.plan)
	}
	return s
}

// Markers of the segments level 3 replaced.
const (
	summaryPrefix         = "[Historical segment summary]\n"
	archivedSegmentPrefix = "[Historical segment archived: "
)

// segmentSpan is a segment of c.entries: [start, end).
type segmentSpan struct {
	id         string
	start, end int
	seqs       []int64
}

// segments returns the segments of the history before the active one that
// the planner may act on: neither verified ones nor ones it already
// replaced.
func (c *contextRun) segments() []segmentSpan {
	active := c.active()
	var out []segmentSpan
	for i := 0; i < active; {
		j := i + 1
		for j < active && !c.entries[j].prompt {
			j++
		}
		first := c.entries[i]
		replaced := strings.HasPrefix(first.msg.Text, summaryPrefix) || strings.HasPrefix(first.msg.Text, archivedSegmentPrefix)
		if first.prompt && !first.verified && !replaced && !(c.pinned && i == 0) {
			s := segmentSpan{start: i, end: j}
			for _, e := range c.entries[i:j] {
				if e.seq > 0 {
					s.seqs = append(s.seqs, e.seq)
				}
				for _, r := range e.results {
					if r.seq > 0 && !slices.Contains(s.seqs, r.seq) {
						s.seqs = append(s.seqs, r.seq)
					}
				}
			}
			s.id = "segment-" + strconv.FormatInt(first.seq, 10)
			if first.seq == 0 {
				s.id = "segment-at-" + strconv.Itoa(i)
			}
			out = append(out, s)
		}
		i = j
	}
	return out
}

// errPlannerBudget is the fallback cause of a planner that ran out of time.
var errPlannerBudget = errors.New("planner budget exceeded")

// runPlan is level 3: it asks the planner, within its budget, and applies
// its plan. It reports whether anything changed. A planner that fails or
// runs out of time is a fallback, not an error; a cancelled ctx is.
func (c *contextRun) runPlan(ctx context.Context) (bool, error) {
	spans := c.segments()
	if len(spans) == 0 {
		return false, nil
	}
	req := PlanRequest{SessionID: c.r.id, Tokens: c.measure(), Window: c.window}
	for _, s := range spans {
		seg := Segment{ID: s.id, Seqs: s.seqs}
		n := 0
		for i := s.start; i < s.end; i++ {
			seg.Messages = append(seg.Messages, c.entries[i].msg)
			n += c.entries[i].size()
		}
		seg.Tokens = tokens(n)
		req.Segments = append(req.Segments, seg)
	}
	budget := c.opts.PlannerBudget
	if budget <= 0 {
		budget = DefaultPlannerBudget
	}
	c.status.PlannerUsed = true
	start := time.Now()
	pctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	type answer struct {
		plan Plan
		err  error
	}
	ch := make(chan answer, 1) // a planner that overstays finishes into it
	go func() {
		p, err := c.opts.Planner.Plan(pctx, req)
		ch <- answer{p, err}
	}()
	var a answer
	select {
	case a = <-ch:
	case <-pctx.Done():
		a.err = errPlannerBudget
	}
	c.status.PlannerLatency = time.Since(start)
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if a.err == nil && pctx.Err() != nil {
		a.err = errPlannerBudget // answered, but late
	}
	if a.err != nil {
		c.status.PlannerFallback = true
		c.r.e.log.Debug("context planner fell back", "session", c.r.id, "err", a.err)
		return false, nil
	}
	return c.applyPlan(ctx, spans, a.plan)
}

// applyPlan replaces the segments a plan summarizes or archives, from the
// last to the first so that earlier spans keep their indices.
func (c *contextRun) applyPlan(ctx context.Context, spans []segmentSpan, p Plan) (bool, error) {
	c.plan = &p
	changed := !c.r.st.viewState().merge(p).equal(c.r.st.viewState())
	byID := make(map[string]SegmentPlan, len(p.Segments))
	for _, sp := range p.Segments {
		byID[sp.Segment] = sp
	}
	var ar archive.Archive
	opened := false
	for k := len(spans) - 1; k >= 0; k-- {
		s := spans[k]
		sp, ok := byID[s.id]
		if !ok || !evidenceOK(sp.EvidenceRefs, s.seqs) {
			continue
		}
		var text string
		switch sp.Action {
		case PlanSummarize:
			if strings.TrimSpace(sp.Summary) == "" {
				continue
			}
			text = summaryPrefix + sp.Summary
		case PlanArchive:
			if !opened {
				opened = true
				if c.opts.Archive != nil {
					var err error
					if ar, err = c.opts.Archive(ctx, c.r.id); err != nil {
						return false, fmt.Errorf("context: open archive: %w", err)
					}
				}
			}
			if ar == nil {
				continue
			}
			msgs := make([]model.Message, 0, s.end-s.start)
			for i := s.start; i < s.end; i++ {
				msgs = append(msgs, c.entries[i].msg)
			}
			body, err := json.Marshal(msgs)
			if err != nil {
				return false, fmt.Errorf("context: archive segment %s: %w", s.id, err)
			}
			en, err := ar.Put(ctx, string(body), map[string]any{"kind": "segment", "sessionId": c.r.id, "segmentId": s.id})
			if err != nil {
				return false, fmt.Errorf("context: archive segment %s: %w", s.id, err)
			}
			text = archivedSegmentPrefix + en.Ref + "] " + en.Preview
			c.status.ArchiveRefs = append(c.status.ArchiveRefs, en.Ref)
		default:
			continue
		}
		first := c.entries[s.start]
		repl := entry{msg: model.UserText(text), prompt: true, seq: first.seq}
		c.own()
		c.entries = slices.Replace(c.entries, s.start, s.end, repl)
		c.indexed = false
		changed = true
	}
	return changed, nil
}

// evidenceOK reports whether every ref ends in ":<seq>" with one of seqs.
func evidenceOK(refs []string, seqs []int64) bool {
	for _, ref := range refs {
		i := strings.LastIndexByte(ref, ':')
		if i < 0 {
			return false
		}
		n, err := strconv.ParseInt(ref[i+1:], 10, 64)
		if err != nil || !slices.Contains(seqs, n) {
			return false
		}
	}
	return true
}

// viewState returns the working state of the session's latest view.
func (st *sessionState) viewState() planState {
	if st.view == nil {
		return planState{}
	}
	return st.view.state
}

func (s planState) equal(o planState) bool {
	return slices.Equal(s.Decisions, o.Decisions) && slices.Equal(s.Unresolved, o.Unresolved) && s.NextStep == o.NextStep
}

// ModelPlanner returns a [Planner] that asks a model (typically the
// agent's own) for the plan, as JSON. It fits the planner budget only with
// a fast model; a slow one makes level 3 fall back every time, which is
// safe but useless: raise [ContextOptions.PlannerBudget] for it.
func ModelPlanner(p model.Provider, modelName string) Planner {
	return PlannerFunc(func(ctx context.Context, req PlanRequest) (Plan, error) {
		var b strings.Builder
		b.WriteString("Plan the compaction of this conversation history. For each segment answer keep, summarize (with a summary that keeps every decision, file, error and open question) or archive. Cite evidence as \"<segment>:<seq>\" with seqs of that segment. Answer with JSON only: {\"segments\":[{\"segment\":\"…\",\"action\":\"keep|summarize|archive\",\"summary\":\"…\",\"evidenceRefs\":[\"…\"]}],\"decisions\":[],\"unresolved\":[],\"nextStep\":\"\"}.\n")
		for _, s := range req.Segments {
			fmt.Fprintf(&b, "\n## %s (seqs %v, ~%d tokens)\n", s.ID, s.Seqs, s.Tokens)
			for _, m := range s.Messages {
				fmt.Fprintf(&b, "%s: %s\n", m.Role, shrink(m.PlainText(), 2000))
			}
		}
		mreq := model.Request{Model: modelName, System: "You plan context compaction for an agent. You answer with JSON only.",
			Messages: []model.Message{model.UserText(b.String())}}
		var text string
		for ch, err := range p.Stream(ctx, mreq) {
			if err != nil {
				return Plan{}, err
			}
			if ch.Kind == model.ChunkDone {
				text = ch.Message.PlainText()
			}
		}
		return parsePlan(text)
	})
}

// parsePlan reads a plan from a model's answer: JSON, possibly fenced.
func parsePlan(text string) (Plan, error) {
	start, end := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
	if start < 0 || end < start {
		return Plan{}, errors.New("planner: no JSON object in the answer")
	}
	var p Plan
	if err := json.Unmarshal([]byte(text[start:end+1]), &p); err != nil {
		return Plan{}, fmt.Errorf("planner: %w", err)
	}
	return p, nil
}
