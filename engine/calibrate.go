package engine

import (
	"math"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// The bounds of a calibration's ratio: a provider's reported input over
// the engine's estimate of the same request. Real tokenizers count from
// about half the estimate (long English words) to six times it (Chinese
// and Japanese, at a token and a half a character), and at most twelve
// (a token a UTF-8 byte, as [compaction.TokenScale] bounds a scale). A
// report under half the estimate is not taken: more likely not the
// request's whole input (a cache left out, a server's placeholder) than
// its size, and taking it would let a request overflow; a report over
// twelve times is taken as twelve times, and as a floor (see apply). The
// bound was three: a Chinese session's growth, and its requests in a
// new process, were measured at half the provider's count, and
// overflowed the window.
const (
	minCalibration = 0.5
	maxCalibration = 12.0
)

// A calibration corrects the estimates of a session's requests (a
// quarter of the characters) by the input tokens the provider reported
// in the usage of the last one answered ([model.RequestInput]), when the
// provider counts no tokens ([model.TokenCounter]) or was not asked to:
// a tokenizer that counts twice the estimate (code, text that is not
// English) would otherwise let the session grow to twice the window
// before the context levels start, and the API refuse the request.
// The zero calibration corrects nothing.
type calibration struct {
	// ratio is the reported input over the estimate, within
	// [minCalibration, maxCalibration]; 0 when none was reported.
	ratio float64
	// estimate is the estimate of the request reported, and reported its
	// input as reported.
	estimate, reported int
}

// calibrated returns the calibration of a request estimated at estimate
// tokens whose usage u provider p reported; the zero calibration when
// either is not positive, or the report under minCalibration times the
// estimate.
func calibrated(p model.Provider, estimate int, u model.Usage) calibration {
	reported := min(model.RequestInput(p, u), maxTokens)
	if estimate <= 0 || reported <= 0 {
		return calibration{}
	}
	ratio := float64(reported) / float64(estimate)
	if ratio < minCalibration {
		return calibration{}
	}
	return calibration{ratio: min(ratio, maxCalibration), estimate: estimate, reported: int(reported)}
}

// apply returns the estimate est corrected. A request at least as large
// as the one reported (one that grew from it) is the input reported plus
// its growth scaled by the ratio; a smaller one (after a compaction) is
// est scaled by the ratio, and at most the input reported. The growth
// and a smaller request are never scaled down: a ratio under one says
// the content reported was lighter than the estimate, not that what is
// added is (a tool's JSON after English prose), and measuring it low
// lets the request overflow. Nor is a smaller request measured over the
// report: what a compaction took off a request makes it smaller, and a
// measure that rose as the levels took content off (a ratio under one,
// a request just under the one reported measured at its plain
// estimate) would force the levels after, and leave out turns, for a
// request the provider counts well within the window. So the measure
// grows with est.
func (k calibration) apply(est int) int {
	if k.ratio == 0 {
		return est
	}
	up := math.Max(k.ratio, 1)
	n := math.Min(float64(est)*up, float64(k.reported))
	if est >= k.estimate {
		n = float64(k.reported) + float64(est-k.estimate)*up
	}
	return int(math.Min(math.Round(n), maxTokens))
}

// maxRatios bounds the sessions whose calibration ratios an engine keeps
// beyond their cached state.
const maxRatios = 1024

// keepRatio records ratio as session id's calibration ratio, which
// outlives the session's cached state: a session whose state the cache
// dropped for others' (maxCachedSessions) starts again from it rather
// than from plain estimates. [Engine.Forget] drops it.
func (e *Engine) keepRatio(id string, ratio float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ratios == nil {
		e.ratios = make(map[string]float64)
	}
	if _, ok := e.ratios[id]; !ok && len(e.ratios) >= maxRatios {
		for k := range e.ratios {
			delete(e.ratios, k)
			break
		}
	}
	e.ratios[id] = ratio
}

// ratioLocked returns the calibration of session id's new cached state,
// under e.mu: its ratio kept alone, which measures every request at its
// estimate scaled by the ratio, never under the estimate (the content
// reported is no longer known, so a ratio under one corrects nothing),
// until the session's next answered request calibrates it again. The
// zero calibration when none is kept.
func (e *Engine) ratioLocked(id string) calibration {
	ratio, ok := e.ratios[id]
	if !ok {
		return calibration{}
	}
	return calibration{ratio: ratio} // apply: 0 + est × max(ratio, 1)
}

// loggedCalibration returns the calibration that a session's log gives a
// process that has none of the session's own (the CLI run again, a
// resume): the ratio of the last assistant record of events whose usage
// and estimate of the request it answered calibrate (see calibrated),
// alone, as ratioLocked's, else the ratio kept in the context view the
// events follow (view; nil when none); the zero calibration when neither
// has one (a log of an older version, or of the TypeScript reference).
//
// Where the calibration lives: the assistant record carries the usage of
// the request it answers (in the reference's usage shape) and the
// engine's plain estimate of that request, two optional members of the
// record that the reference's reader ignores (it reads an assistant
// record's message only, and checks nothing but the frame and the
// event's type) and ours skips when unknown or of another shape; the
// reference's records have no usage to recompute a ratio from, and a
// side file per session would be one more file to migrate, verify, clean
// and delete with the log, and could disagree with it. The usage alone
// would not do: the ratio is over the engine's estimate of the request,
// which a resume cannot rebuild (the view sent, compacted, is not the
// log). A context view (this engine's own format) keeps the ratio too,
// for a log whose last record is the view a manual compaction committed.
//
// Only a ratio of the model m is taken (the record's model, the view's):
// another model's measured another tokenizer, which may count the same
// text at a sixth of this one's count or six times it, and taken it
// would compact a session needlessly or let it overflow. A session
// resumed with another model starts uncalibrated, as a new engine of it
// did before the ratio was logged, until its first answer calibrates it.
func loggedCalibration(p model.Provider, m string, view *viewBase, events []session.StoredEvent) calibration {
	for i := len(events) - 1; i >= 0; i-- {
		ae, ok := events[i].Event.(session.AssistantEvent)
		if !ok || ae.InputEstimate <= 0 || ae.Model != m {
			continue
		}
		if k := calibrated(p, ae.InputEstimate, ae.Usage); k.ratio > 0 {
			return calibration{ratio: k.ratio}
		}
	}
	if view != nil && view.calib > 0 && view.calibModel == m {
		// A view committed after the last answered request (a manual
		// compaction's) keeps the ratio the session had.
		return calibration{ratio: view.calib}
	}
	return calibration{}
}
