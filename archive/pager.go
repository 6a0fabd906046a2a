package archive

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// A pager answers Search and Read from an archive's entries and contents,
// as every Archive of this package does: it wraps and escapes the results,
// pages contents in UTF-16 units, and charges each generation's read
// budget. The archive calls it with its own lock held and hands it
// functions that load entries and contents under that lock. A pager is
// safe for concurrent use.
type pager struct {
	maxRead int

	mu          sync.Mutex           // guards generations
	generations map[int64]*genBudget // read budget and repeats per generation
}

func newPager(maxRead int) *pager {
	return &pager{maxRead: maxRead, generations: make(map[int64]*genBudget)}
}

// readBudget returns the per-generation budget that Options.MaxReadBytes
// asks for, or ErrMaxReadBytes.
func readBudget(maxReadBytes int) (int, error) {
	if maxReadBytes == 0 {
		return DefaultMaxReadBytes, nil
	}
	if maxReadBytes < MinReadBytes {
		return 0, fmt.Errorf("archive: MaxReadBytes %d: %w", maxReadBytes, ErrMaxReadBytes)
	}
	return maxReadBytes, nil
}

// checkQuery refuses a Query no Search answers, before any lock is taken.
func checkQuery(q Query) error {
	if q.Limit < 0 {
		return fmt.Errorf("archive: search limit %d: %w", q.Limit, ErrSearchLimit)
	}
	return nil
}

// checkReadRequest refuses a ReadRequest no Read answers, before any lock
// is taken.
func checkReadRequest(req ReadRequest) error {
	if req.Offset < 0 || req.Limit < 0 || int64(req.Offset) > maxSafeInteger || int64(req.Limit) > maxSafeInteger {
		return fmt.Errorf("archive: read offset %d limit %d: %w", req.Offset, req.Limit, ErrPageRange)
	}
	return nil
}

// search answers q (already checked) with the entries entries loads and
// the contents note loads, in put order, charged to q.Generation.
func (p *pager) search(q Query, entries func() ([]indexEntry, error), note func(ref string) (string, error)) (string, error) {
	limit := q.Limit
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	if p.remaining(q.Generation) < MinReadBytes {
		return exhausted(q.Generation), nil
	}
	all, err := entries()
	if err != nil {
		return "", err
	}
	needle := strings.ToLower(q.Text)
	var body []byte
	matches := 0
	for _, e := range all {
		if matches >= limit {
			break
		}
		content, err := note(e.ref)
		if err != nil {
			return "", err
		}
		meta := "undefined"
		if e.metadata != nil {
			meta = string(e.metadata)
		}
		hay := e.ref + "\n" + e.preview + "\n" + meta + "\n" + content
		if !strings.Contains(strings.ToLower(hay), needle) {
			continue
		}
		if matches > 0 {
			body = append(body, '\n')
		}
		body = appendEntryJSON(body, e)
		matches++
	}
	return p.charge(q.Generation, openSearch(q.Text), string(body))
}

// read answers req (already checked) with the verified content lookup
// returns for req.Ref, if the archive holds it, charged to req.Generation.
func (p *pager) read(req ReadRequest, lookup func() (string, bool, error)) (string, error) {
	limit := req.Limit
	if limit == 0 {
		limit = p.maxRead
	}
	remaining := p.remaining(req.Generation)
	if remaining < MinReadBytes {
		return exhausted(req.Generation), nil
	}
	open := openRead(req.Ref, req.Generation)
	content, found, err := lookup()
	if err != nil {
		return "", err
	}
	if !found {
		return p.charge(req.Generation, open, noContentBody)
	}
	from, splits, ok := byteOffset(content, req.Offset)
	if !ok {
		return "", fmt.Errorf("archive: read %s offset %d: %w", req.Ref, req.Offset, ErrOffsetBeyondEnd)
	}
	if splits {
		return "", fmt.Errorf("archive: read %s offset %d: %w", req.Ref, req.Offset, ErrOffsetSplitsCharacter)
	}
	total := unitLen(content)
	capUnits := min(limit, total-req.Offset)
	key := pageKey{req.Ref, req.Offset}
	if p.seen(req.Generation, key) {
		capUnits = min(capUnits, repeatCapUnits)
	}
	bodyBudget := remaining - len(open) - len("\n"+warningLine+"\n") - pageSlackBytes
	end, units := page(content, from, capUnits, max(bodyBudget, 0))
	if units == 0 && req.Offset < total {
		return "", fmt.Errorf("archive: read %s offset %d: %w", req.Ref, req.Offset, ErrPageBudget)
	}
	next := req.Offset + units
	var body strings.Builder
	body.WriteString("offset=" + strconv.Itoa(req.Offset) + "; nextOffset=")
	if next >= total {
		body.WriteString("end")
	} else {
		body.WriteString(strconv.Itoa(next))
	}
	body.WriteString("; totalChars=" + strconv.Itoa(total) + "\n")
	body.WriteString(content[from:end])
	if next < total {
		body.WriteString(continueMark)
	}
	out, err := p.charge(req.Generation, open, body.String())
	if err == nil {
		p.markSeen(req.Generation, key)
	}
	return out, err
}

// budget returns the state of generation g, creating it with a full budget.
// When more than maxGenerations would be tracked, all state is forgotten
// first. p.mu must be held.
func (p *pager) budget(g int64) *genBudget {
	b, ok := p.generations[g]
	if !ok {
		if len(p.generations) >= maxGenerations {
			clear(p.generations)
		}
		b = &genBudget{remaining: p.maxRead, seen: make(map[pageKey]bool)}
		p.generations[g] = b
	}
	return b
}

// remaining returns generation g's remaining budget in bytes.
func (p *pager) remaining(g int64) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.budget(g).remaining
}

// seen reports whether (ref, offset) was read in generation g.
func (p *pager) seen(g int64, k pageKey) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.budget(g).seen[k]
}

// markSeen records that (ref, offset) was read in generation g.
func (p *pager) markSeen(g int64, k pageKey) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.budget(g).seen[k] = true
}

// charge wraps body within generation g's remaining budget and subtracts
// the result's size from it.
func (p *pager) charge(g int64, open, body string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.budget(g)
	out, err := wrap(open, body, b.remaining)
	if err != nil {
		return "", err
	}
	b.remaining -= len(out)
	return out, nil
}
