package sessiontest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/session"
)

// view returns a context view event covering the log through through.
func view(through int64) session.Event {
	return session.ContextViewEvent{ThroughSeq: through, View: json.RawMessage(`{"generation":1}`)}
}

// wantFromView computes what ReadFromView must return from the whole log,
// independently of the package's own helpers.
func wantFromView(all []session.StoredEvent) (int64, []session.StoredEvent) {
	for i := len(all) - 1; i >= 0; i-- {
		v, ok := all[i].Event.(session.ContextViewEvent)
		if !ok || v.ThroughSeq < 0 || v.ThroughSeq >= all[i].Seq {
			continue
		}
		var after []session.StoredEvent
		for _, r := range all {
			if r.Seq > v.ThroughSeq {
				after = append(after, r)
			}
		}
		return all[i].Seq, after
	}
	return 0, all
}

// testReadFromView checks session.ReadFromView (the checkpointer's own
// ViewReader when it has one) against Read on logs with and without views,
// with records large enough to cross read blocks.
func testReadFromView(t *testing.T, cp session.Checkpointer) {
	big := strings.Repeat("x", 200<<10) // longer than a read block
	filler := func(n int) []session.Event {
		evs := make([]session.Event, n)
		for i := range evs {
			evs[i] = text(strings.Repeat("filler ", 150))
		}
		return evs
	}
	tests := []struct {
		name    string
		batches [][]session.Event
	}{
		{"empty", nil},
		{"no view", [][]session.Event{filler(120), {text(big)}, filler(3)}},
		{"view last", [][]session.Event{filler(200), {view(200)}}},
		{"view then events", [][]session.Event{filler(150), {view(150)}, filler(40), {text(big)}, filler(2)}},
		{"view through an earlier seq", [][]session.Event{filler(100), {text(big)}, filler(30), {view(90)}, filler(5)}},
		{"view through zero", [][]session.Event{filler(4), {view(0)}, filler(2)}},
		{"latest of two views", [][]session.Event{filler(50), {view(50)}, filler(50), {view(101)}, filler(10)}},
		{"invalid views skipped", [][]session.Event{filler(20), {view(20)}, filler(5), {view(26), view(500), view(-1)}, filler(3)}},
		{"only invalid views", [][]session.Event{filler(3), {view(4)}, filler(2)}},
	}
	for i, tt := range tests {
		id := "view-" + string(rune('a'+i))
		t.Run(tt.name, func(t *testing.T) {
			head := int64(0)
			for _, b := range tt.batches {
				head = mustAppend(t, cp, id, head, b...)
			}
			wantSeq, wantAfter := wantFromView(mustRead(t, cp, id, 0))
			v, after, err := session.ReadFromView(t.Context(), cp, id)
			if err != nil {
				t.Fatalf("ReadFromView: %v", err)
			}
			switch {
			case wantSeq == 0 && v != nil:
				t.Fatalf("view at seq %d, want none", v.Seq)
			case wantSeq != 0 && v == nil:
				t.Fatalf("no view, want the one at seq %d", wantSeq)
			case v != nil && v.Seq != wantSeq:
				t.Fatalf("view at seq %d, want %d", v.Seq, wantSeq)
			}
			if v != nil {
				if _, ok := v.Event.(session.ContextViewEvent); !ok {
					t.Fatalf("view event %T", v.Event)
				}
				if k := v.Seq - after[0].Seq; k < 0 || k >= int64(len(after)) || &after[k] != v {
					t.Errorf("the view is not a pointer into after")
				}
			}
			if len(after) != len(wantAfter) {
				t.Fatalf("%d records after the view, want %d", len(after), len(wantAfter))
			}
			for i := range after {
				if !reflect.DeepEqual(after[i], wantAfter[i]) {
					t.Fatalf("record %d after the view: %+v, want %+v", i, after[i], wantAfter[i])
				}
			}
			// The head learnt on the way serves the next append.
			if got := mustHead(t, cp, id); got != head {
				t.Fatalf("Head after ReadFromView = %d, want %d", got, head)
			}
			if got := mustAppend(t, cp, id, head, text("next")); got != head+1 {
				t.Fatalf("Append after ReadFromView = %d, want %d", got, head+1)
			}
		})
	}
}
