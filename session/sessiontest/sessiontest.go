// Package sessiontest checks that a session.Checkpointer keeps the
// contract, in the manner of testing/fstest and testing/slogtest.
//
//	func TestMyCheckpointer(t *testing.T) {
//		sessiontest.Run(t, func(t *testing.T) session.Checkpointer {
//			return newMyCheckpointer(t)
//		})
//	}
package sessiontest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// Run runs the conformance suite as subtests of t. newCheckpointer is
// called once per subtest and must return an empty Checkpointer; session
// ids used by the suite are letters, digits and hyphens, so any id rule
// that admits those will do.
func Run(t *testing.T, newCheckpointer func(t *testing.T) session.Checkpointer) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, cp session.Checkpointer)
	}{
		{"UnknownSessionReadsEmpty", testUnknownSessionReadsEmpty},
		{"HeadIsMonotonic", testHeadIsMonotonic},
		{"ReadsComeBackInSeqOrder", testReadsComeBackInSeqOrder},
		{"BatchSharesOneTimestamp", testBatchSharesOneTimestamp},
		{"SinceSeqIsExclusive", testSinceSeqIsExclusive},
		{"StaleExpectedHeadRejectsCorrectSucceeds", testStaleExpectedHead},
		{"EmptyBatchReturnsHead", testEmptyBatchReturnsHead},
		{"PayloadsRoundTrip", testPayloadsRoundTrip},
		{"SessionsAreIndependent", testSessionsAreIndependent},
		{"ListAndDelete", testListAndDelete},
		{"DeleteIsIdempotent", testDeleteIsIdempotent},
		{"AppendAfterDeleteStartsAtOne", testAppendAfterDelete},
		{"TruncateKeepsPrefix", testTruncateKeepsPrefix},
		{"TruncateBounds", testTruncateBounds},
		{"TruncateChecksExpectedHead", testTruncateChecksExpectedHead},
		{"InvalidBatchAppendsNothing", testInvalidBatchAppendsNothing},
		{"CancelledContextChangesNothing", testCancelledContext},
		{"ConcurrentAppendsSerialize", testConcurrentAppendsSerialize},
		{"SameExpectedHeadExactlyOneWins", testSameExpectedHeadOneWins},
		{"ReadFromViewMatchesRead", testReadFromView},
		{"ReadFirstMatchesRead", testReadFirst},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fn(t, newCheckpointer(t))
		})
	}
}

// text returns a user event whose message is s.
func text(s string) session.Event { return session.UserEvent{Message: model.UserText(s)} }

func mustAppend(t *testing.T, cp session.Checkpointer, id string, expected int64, events ...session.Event) int64 {
	t.Helper()
	head, err := cp.Append(t.Context(), id, events, expected)
	if err != nil {
		t.Fatalf("Append(%q, %d events, expected %d): %v", id, len(events), expected, err)
	}
	return head
}

func mustRead(t *testing.T, cp session.Checkpointer, id string, since int64) []session.StoredEvent {
	t.Helper()
	evs, err := cp.Read(t.Context(), id, since)
	if err != nil {
		t.Fatalf("Read(%q, %d): %v", id, since, err)
	}
	return evs
}

func mustHead(t *testing.T, cp session.Checkpointer, id string) int64 {
	t.Helper()
	h, err := cp.Head(t.Context(), id)
	if err != nil {
		t.Fatalf("Head(%q): %v", id, err)
	}
	return h
}

func ids(t *testing.T, cp session.Checkpointer) []string {
	t.Helper()
	infos, err := cp.List(t.Context())
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var out []string
	for _, in := range infos {
		out = append(out, in.ID)
	}
	slices.Sort(out)
	return out
}

// texts returns the user texts of evs, checking their frames.
func texts(t *testing.T, id string, evs []session.StoredEvent, firstSeq int64) []string {
	t.Helper()
	var out []string
	for i, se := range evs {
		want := firstSeq + int64(i)
		if se.Seq != want || se.ParentSeq != want-1 || se.SessionID != id {
			t.Fatalf("record %d: seq %d parent %d session %q, want seq %d parent %d session %q",
				i, se.Seq, se.ParentSeq, se.SessionID, want, want-1, id)
		}
		ue, ok := se.Event.(session.UserEvent)
		if !ok {
			t.Fatalf("record %d: event %T, want UserEvent", se.Seq, se.Event)
		}
		out = append(out, ue.Message.Text)
	}
	return out
}

func checkConflict(t *testing.T, err error, id string, expected, head int64) {
	t.Helper()
	var ce *session.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T), want *session.ConflictError", err, err)
	}
	if ce.SessionID != id || ce.Expected != expected || ce.Head != head {
		t.Errorf("ConflictError %+v, want session %q expected %d head %d", *ce, id, expected, head)
	}
	if !errors.Is(err, session.ErrConflict) {
		t.Errorf("errors.Is(%v, ErrConflict) = false", err)
	}
}

func testUnknownSessionReadsEmpty(t *testing.T, cp session.Checkpointer) {
	if evs := mustRead(t, cp, "never-written", 0); len(evs) != 0 {
		t.Errorf("Read of an unknown session = %d records", len(evs))
	}
	if h := mustHead(t, cp, "never-written"); h != 0 {
		t.Errorf("Head of an unknown session = %d", h)
	}
	if got := ids(t, cp); len(got) != 0 {
		t.Errorf("List after reads only = %v, want empty", got)
	}
}

func testHeadIsMonotonic(t *testing.T, cp session.Checkpointer) {
	var last int64
	for i, n := range []int{1, 3, 1, 5} {
		events := make([]session.Event, n)
		for j := range events {
			events[j] = text(fmt.Sprintf("b%d-%d", i, j))
		}
		head := mustAppend(t, cp, "mono", session.AnyHead, events...)
		if head != last+int64(n) {
			t.Fatalf("batch %d of %d: head %d, want %d", i, n, head, last+int64(n))
		}
		if h := mustHead(t, cp, "mono"); h != head {
			t.Fatalf("Head = %d, Append returned %d", h, head)
		}
		last = head
	}
}

func testReadsComeBackInSeqOrder(t *testing.T, cp session.Checkpointer) {
	var want []string
	for i := range 4 {
		a, b := fmt.Sprintf("m%d-a", i), fmt.Sprintf("m%d-b", i)
		mustAppend(t, cp, "order", session.AnyHead, text(a), text(b))
		want = append(want, a, b)
	}
	got := texts(t, "order", mustRead(t, cp, "order", 0), 1)
	if !slices.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
}

func testBatchSharesOneTimestamp(t *testing.T, cp session.Checkpointer) {
	before := time.Now().Truncate(time.Millisecond)
	mustAppend(t, cp, "ts", session.AnyHead, text("a"), text("b"), text("c"))
	after := time.Now()
	evs := mustRead(t, cp, "ts", 0)
	if len(evs) != 3 {
		t.Fatalf("read %d records, want 3", len(evs))
	}
	for _, se := range evs {
		if !se.Time.Equal(evs[0].Time) {
			t.Errorf("record %d time %v, record 1 time %v: a batch shares one time", se.Seq, se.Time, evs[0].Time)
		}
	}
	if ts := evs[0].Time; ts.Before(before) || ts.After(after) || ts.Nanosecond()%int(time.Millisecond) != 0 {
		t.Errorf("time %v not a millisecond within [%v, %v]", ts, before, after)
	}
}

func testSinceSeqIsExclusive(t *testing.T, cp session.Checkpointer) {
	mustAppend(t, cp, "since", session.AnyHead, text("1"), text("2"), text("3"), text("4"))
	for _, tt := range []struct {
		since int64
		want  []string
	}{
		{-5, []string{"1", "2", "3", "4"}},
		{0, []string{"1", "2", "3", "4"}},
		{1, []string{"2", "3", "4"}},
		{3, []string{"4"}},
		{4, nil},
		{99, nil},
	} {
		first := max(tt.since, 0) + 1
		got := texts(t, "since", mustRead(t, cp, "since", tt.since), first)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Read(since %d) = %v, want %v", tt.since, got, tt.want)
		}
	}
}

func testStaleExpectedHead(t *testing.T, cp session.Checkpointer) {
	id := "cas"
	mustAppend(t, cp, id, 0, text("first"))
	_, err := cp.Append(t.Context(), id, []session.Event{text("stale")}, 0)
	checkConflict(t, err, id, 0, 1)
	_, err = cp.Append(t.Context(), id, []session.Event{text("ahead")}, 5)
	checkConflict(t, err, id, 5, 1)
	if h := mustAppend(t, cp, id, 1, text("second")); h != 2 {
		t.Errorf("Append with the correct head returned %d, want 2", h)
	}
	got := texts(t, id, mustRead(t, cp, id, 0), 1)
	if want := []string{"first", "second"}; !slices.Equal(got, want) {
		t.Errorf("read %v, want %v: a conflicting append must add nothing", got, want)
	}
	if !strings.Contains(err.Error(), "checkpoint conflict on 'cas'") {
		t.Errorf("conflict message %q", err)
	}
}

func testEmptyBatchReturnsHead(t *testing.T, cp session.Checkpointer) {
	if h := mustAppend(t, cp, "empty", session.AnyHead); h != 0 {
		t.Errorf("empty batch on an unknown session returned %d", h)
	}
	if got := ids(t, cp); len(got) != 0 {
		t.Errorf("an empty batch created a session: List = %v", got)
	}
	mustAppend(t, cp, "empty", session.AnyHead, text("a"), text("b"))
	if h := mustAppend(t, cp, "empty", 2); h != 2 {
		t.Errorf("empty batch returned %d, want 2", h)
	}
	_, err := cp.Append(t.Context(), "empty", nil, 1)
	checkConflict(t, err, "empty", 1, 2)
}

// allEvents returns one event of every type, in the form a read returns.
func allEvents() []session.Event {
	yes, no := true, false
	before := "old contents\nline 2"
	return []session.Event{
		session.UserEvent{Message: model.UserText("plain prompt"), Origin: session.OriginUser, Checkpoint: &yes},
		session.UserEvent{Message: model.UserText("<background-task-completed>"), Origin: session.OriginBackground, Checkpoint: &no},
		session.UserEvent{Message: model.UserBlocks(model.TextBlock("block prompt"), model.TextBlock("ünïcødé ✓ \u2028 \x1b[0m \"quoted\" \\ <&>"))},
		session.AssistantEvent{Message: model.AssistantBlocks(
			model.TextBlock("Running it."),
			model.ToolCallBlock("call_1", "bash", json.RawMessage(`{"command":"ls -la","timeout":30}`)),
			model.NativeBlock("anthropic", json.RawMessage(`{"type":"thinking","signature":"abc"}`)),
			model.Block{Type: model.BlockCompaction, NullContent: true},
			model.CompactionBlock("earlier work"),
			model.Block{Type: "future_block", Raw: json.RawMessage(`{"type":"future_block","x":[1,2,3]}`)},
		), Usage: model.Usage{InputTokens: 5200, OutputTokens: 310, CacheReadTokens: 4100, CacheCreationTokens: 17}, InputEstimate: 4800, Model: "claude-sonnet-4-5"},
		session.AssistantEvent{Message: model.AssistantText("")},
		session.ToolStartedEvent{ID: "call_1", Name: "bash", Turn: 1},
		session.ToolResultEvent{Result: model.ToolResultBlock("call_1", strings.Repeat("output line\n", 50), false), Turn: 1},
		session.ToolResultEvent{Result: model.ToolResultBlock("call_2", "permission denied", true), Turn: 1},
		session.FileSnapshotEvent{Path: "src/a.go", Before: &before, Encoding: "utf8", After: strings.Repeat("ab", 32), Turn: 2},
		session.FileSnapshotEvent{Path: "new.txt", Turn: 2},
		session.FileSnapshotEvent{Path: "big.bin", Truncated: true, Deleted: true, Turn: 3},
		session.ArtifactVerifiedEvent{Path: "out/app", Revision: "r7", Command: "go test ./...", Result: json.RawMessage(`{"ok":true,"exitCode":0}`), Turn: 3},
		session.ArtifactVerifiedEvent{Path: "out/app", Command: "make", Result: json.RawMessage(`"passed"`), Turn: 4},
		session.PermissionDecisionEvent{Call: session.PermissionCall{ID: "call_3", Name: "write_file", Input: json.RawMessage(`{"path":"[REDACTED]"}`)},
			Decision: "ask", RuleID: "r-12", Reason: "outside workspace", Simulated: true, By: "user", Turn: 4},
		session.PermissionDecisionEvent{Call: session.PermissionCall{ID: "call_4", Name: "read_file", Input: json.RawMessage(`{}`)}, Decision: "allow", By: "policy", Turn: 4},
		session.SummaryEvent{Messages: []model.Message{model.UserText("goal"), model.AssistantText("done so far")}, ThroughSeq: 12, Before: 9000, After: 1200},
		session.ContextViewEvent{ThroughSeq: 16, View: json.RawMessage(`{"generation":2,"segments":[]}`)},
		session.RawEvent{Type: "from_the_future", JSON: json.RawMessage(`{"type":"from_the_future","payload":{"nested":[true,null,1.5]}}`)},
	}
}

func testPayloadsRoundTrip(t *testing.T, cp session.Checkpointer) {
	events := allEvents()
	mustAppend(t, cp, "payloads", 0, events[:3]...)
	mustAppend(t, cp, "payloads", 3, events[3:]...)
	got := mustRead(t, cp, "payloads", 0)
	if len(got) != len(events) {
		t.Fatalf("read %d records, want %d", len(got), len(events))
	}
	for i, se := range got {
		if !reflect.DeepEqual(se.Event, events[i]) {
			t.Errorf("record %d (%s) changed:\n got %#v\nwant %#v", i+1, events[i].EventType(), se.Event, events[i])
		}
	}
}

func testSessionsAreIndependent(t *testing.T, cp session.Checkpointer) {
	mustAppend(t, cp, "alpha", session.AnyHead, text("a1"), text("a2"))
	mustAppend(t, cp, "beta", session.AnyHead, text("b1"))
	mustAppend(t, cp, "alpha", 2, text("a3"))
	if got := texts(t, "alpha", mustRead(t, cp, "alpha", 0), 1); !slices.Equal(got, []string{"a1", "a2", "a3"}) {
		t.Errorf("alpha = %v", got)
	}
	if got := texts(t, "beta", mustRead(t, cp, "beta", 0), 1); !slices.Equal(got, []string{"b1"}) {
		t.Errorf("beta = %v", got)
	}
}

func testListAndDelete(t *testing.T, cp session.Checkpointer) {
	start := time.Now().Add(-time.Second)
	for _, id := range []string{"list-a", "list-b", "list-c"} {
		mustAppend(t, cp, id, session.AnyHead, text(id))
	}
	if got, want := ids(t, cp), []string{"list-a", "list-b", "list-c"}; !slices.Equal(got, want) {
		t.Fatalf("List = %v, want %v", got, want)
	}
	infos, err := cp.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range infos {
		if in.ModTime.Before(start) || in.ModTime.After(time.Now().Add(time.Second)) {
			t.Errorf("%s ModTime %v is not the time of its append", in.ID, in.ModTime)
		}
		if i > 0 && infos[i-1].ModTime.Before(in.ModTime) {
			t.Errorf("List not most recent first: %v", infos)
		}
	}
	if err := cp.Delete(t.Context(), "list-b"); err != nil {
		t.Fatal(err)
	}
	if got, want := ids(t, cp), []string{"list-a", "list-c"}; !slices.Equal(got, want) {
		t.Errorf("List after delete = %v, want %v", got, want)
	}
	if evs := mustRead(t, cp, "list-b", 0); len(evs) != 0 {
		t.Errorf("deleted session reads %d records", len(evs))
	}
	if h := mustHead(t, cp, "list-b"); h != 0 {
		t.Errorf("deleted session has head %d", h)
	}
}

func testDeleteIsIdempotent(t *testing.T, cp session.Checkpointer) {
	if err := cp.Delete(t.Context(), "never-there"); err != nil {
		t.Errorf("Delete of an unknown session: %v", err)
	}
	mustAppend(t, cp, "twice", session.AnyHead, text("x"))
	for i := range 2 {
		if err := cp.Delete(t.Context(), "twice"); err != nil {
			t.Errorf("Delete #%d: %v", i+1, err)
		}
	}
}

func testAppendAfterDelete(t *testing.T, cp session.Checkpointer) {
	mustAppend(t, cp, "reborn", session.AnyHead, text("old1"), text("old2"))
	if err := cp.Delete(t.Context(), "reborn"); err != nil {
		t.Fatal(err)
	}
	if h := mustAppend(t, cp, "reborn", 0, text("new")); h != 1 {
		t.Errorf("first append after delete returned %d, want 1", h)
	}
	if got := texts(t, "reborn", mustRead(t, cp, "reborn", 0), 1); !slices.Equal(got, []string{"new"}) {
		t.Errorf("read %v", got)
	}
}

func testTruncateKeepsPrefix(t *testing.T, cp session.Checkpointer) {
	id := "trunc"
	mustAppend(t, cp, id, session.AnyHead, text("1"), text("2"), text("3"), text("4"), text("5"))
	if err := cp.Truncate(t.Context(), id, 3, 5); err != nil {
		t.Fatalf("Truncate(3, expected 5): %v", err)
	}
	if h := mustHead(t, cp, id); h != 3 {
		t.Errorf("head after truncate = %d", h)
	}
	if got := texts(t, id, mustRead(t, cp, id, 0), 1); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Errorf("read %v after truncate", got)
	}
	if h := mustAppend(t, cp, id, 3, text("4'")); h != 4 {
		t.Errorf("append after truncate returned %d", h)
	}
	if err := cp.Truncate(t.Context(), id, 4, session.AnyHead); err != nil {
		t.Errorf("Truncate to the head: %v", err)
	}
	if err := cp.Truncate(t.Context(), id, 0, session.AnyHead); err != nil {
		t.Fatalf("Truncate(0): %v", err)
	}
	if h := mustHead(t, cp, id); h != 0 {
		t.Errorf("head after truncate to 0 = %d", h)
	}
	if h := mustAppend(t, cp, id, 0, text("fresh")); h != 1 {
		t.Errorf("append after truncate to 0 returned %d", h)
	}
}

func testTruncateBounds(t *testing.T, cp session.Checkpointer) {
	id := "bounds"
	mustAppend(t, cp, id, session.AnyHead, text("1"), text("2"))
	for _, toSeq := range []int64{-1, 3, 100} {
		err := cp.Truncate(t.Context(), id, toSeq, session.AnyHead)
		var re *session.RangeError
		if !errors.As(err, &re) {
			t.Errorf("Truncate(%d): error %v (%T), want *session.RangeError", toSeq, err, err)
			continue
		}
		if re.SessionID != id || re.ToSeq != toSeq || re.Head != 2 {
			t.Errorf("Truncate(%d): RangeError %+v", toSeq, *re)
		}
	}
	if h := mustHead(t, cp, id); h != 2 {
		t.Errorf("a rejected truncate changed the head to %d", h)
	}
	if err := cp.Truncate(t.Context(), "no-such-session", 0, session.AnyHead); err != nil {
		t.Errorf("Truncate(0) of an unknown session: %v", err)
	}
	var re *session.RangeError
	if err := cp.Truncate(t.Context(), "no-such-session", 1, session.AnyHead); !errors.As(err, &re) {
		t.Errorf("Truncate(1) of an unknown session: %v, want *session.RangeError", err)
	}
	if got := ids(t, cp); !slices.Equal(got, []string{id}) {
		t.Errorf("truncating an unknown session created one: List = %v", got)
	}
}

func testTruncateChecksExpectedHead(t *testing.T, cp session.Checkpointer) {
	id := "trunc-cas"
	mustAppend(t, cp, id, session.AnyHead, text("1"), text("2"), text("3"))
	err := cp.Truncate(t.Context(), id, 1, 2)
	checkConflict(t, err, id, 2, 3)
	if h := mustHead(t, cp, id); h != 3 {
		t.Errorf("a conflicting truncate changed the head to %d", h)
	}
	// The head check comes before the range check.
	err = cp.Truncate(t.Context(), id, 9, 2)
	checkConflict(t, err, id, 2, 3)
}

func testInvalidBatchAppendsNothing(t *testing.T, cp session.Checkpointer) {
	id := "invalid"
	mustAppend(t, cp, id, session.AnyHead, text("kept"))
	for _, batch := range [][]session.Event{
		{text("ok"), nil},
		{text("ok"), session.AssistantEvent{Message: model.AssistantBlocks(model.ToolCallBlock("c", "n", json.RawMessage(`{"broken":`)))}},
		{session.RawEvent{Type: "x", JSON: json.RawMessage(`{"type":"y"}`)}},
		{session.RawEvent{Type: "x", JSON: json.RawMessage(`not json`)}},
	} {
		if _, err := cp.Append(t.Context(), id, batch, session.AnyHead); err == nil {
			t.Errorf("Append(%#v) succeeded", batch)
		}
	}
	if got := texts(t, id, mustRead(t, cp, id, 0), 1); !slices.Equal(got, []string{"kept"}) {
		t.Errorf("after invalid batches the log holds %v", got)
	}
	// An Append that returns an error leaves the head as it was, and the
	// next one goes on from there.
	if h := mustHead(t, cp, id); h != 1 {
		t.Errorf("head after invalid batches = %d, want 1", h)
	}
	if h := mustAppend(t, cp, id, 1, text("next")); h != 2 {
		t.Errorf("Append after invalid batches = %d, want 2", h)
	}
}

func testCancelledContext(t *testing.T, cp session.Checkpointer) {
	id := "cancel"
	mustAppend(t, cp, id, session.AnyHead, text("kept"))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := cp.Append(ctx, id, []session.Event{text("lost")}, session.AnyHead); !errors.Is(err, context.Canceled) {
		t.Errorf("Append with a cancelled context: %v, want context.Canceled", err)
	}
	if err := cp.Truncate(ctx, id, 0, session.AnyHead); !errors.Is(err, context.Canceled) {
		t.Errorf("Truncate with a cancelled context: %v, want context.Canceled", err)
	}
	if got := texts(t, id, mustRead(t, cp, id, 0), 1); !slices.Equal(got, []string{"kept"}) {
		t.Errorf("log holds %v", got)
	}
}

func testConcurrentAppendsSerialize(t *testing.T, cp session.Checkpointer) {
	const n = 10
	id := "concurrent"
	heads := make([]int64, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			heads[i], errs[i] = cp.Append(t.Context(), id, []session.Event{text(fmt.Sprintf("w%d", i))}, session.AnyHead)
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	slices.Sort(heads)
	for i, h := range heads {
		if h != int64(i+1) {
			t.Fatalf("returned heads %v, want 1..%d", heads, n)
		}
	}
	got := texts(t, id, mustRead(t, cp, id, 0), 1)
	slices.Sort(got)
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("w%d", i))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("records %v, want each writer once: %v", got, want)
	}
}

func testSameExpectedHeadOneWins(t *testing.T, cp session.Checkpointer) {
	id := "race"
	for round := range 5 {
		const writers = 3
		head := int64(round)
		var wg sync.WaitGroup
		errs := make([]error, writers)
		start := make(chan struct{})
		for w := range writers {
			wg.Go(func() {
				<-start
				_, errs[w] = cp.Append(t.Context(), id, []session.Event{text(fmt.Sprintf("r%d-w%d", round, w))}, head)
			})
		}
		close(start)
		wg.Wait()
		wins := 0
		for _, err := range errs {
			if err == nil {
				wins++
				continue
			}
			checkConflict(t, err, id, head, head+1)
		}
		if wins != 1 {
			t.Fatalf("round %d: %d appends with expected head %d succeeded, want exactly 1", round, wins, head)
		}
	}
	if h := mustHead(t, cp, id); h != 5 {
		t.Errorf("head %d after 5 rounds", h)
	}
}
