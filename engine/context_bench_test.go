package engine_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/engine"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/session"
)

// BenchmarkTurnOverheadContextRatio runs the turn of TurnOverhead
// alternately on two like 10,000-event sessions of one checkpointer, one
// through an engine with the context engine and one without, so that both
// see the same disk and CPU, and reports the time of each turn and their
// ratio (issue 20's target: on/off within 1.5).
func BenchmarkTurnOverheadContextRatio(b *testing.B) {
	cp, err := session.NewFileCheckpointer(b.TempDir(), session.FileOptions{})
	if err != nil {
		b.Fatal(err)
	}
	seedSession(b, cp, "off", 10000)
	seedSession(b, cp, "on", 10000)
	newEngine := func(c *engine.ContextOptions) *engine.Engine {
		eng, err := engine.New(engine.Options{Provider: replyProvider{modeltest.Text("ok").Chunks()}, Checkpointer: cp, Model: "m", Context: c})
		if err != nil {
			b.Fatal(err)
		}
		return eng
	}
	off, on := newEngine(nil), newEngine(&engine.ContextOptions{})
	turn := func(eng *engine.Engine, id string) time.Duration {
		start := time.Now()
		for _, err := range eng.Turn(b.Context(), id, model.UserText("next")) {
			if err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	// The first turns load the logs (and commit the first view).
	turn(off, "off")
	turn(on, "on")
	var tOff, tOn time.Duration
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			tOff += turn(off, "off")
			tOn += turn(on, "on")
		} else {
			tOn += turn(on, "on")
			tOff += turn(off, "off")
		}
		n++
	}
	b.ReportMetric(float64(tOff.Nanoseconds())/float64(n), "off-ns/turn")
	b.ReportMetric(float64(tOn.Nanoseconds())/float64(n), "on-ns/turn")
	b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
}
