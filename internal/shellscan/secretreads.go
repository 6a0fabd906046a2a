package shellscan

// maxReadPatterns bounds the read patterns an analysis keeps; a line with
// more is noted as touching too many paths to check.
const maxReadPatterns = 64

// readPattern records the glob word p that a command reads (see
// Analysis.ReadPatterns).
func (an *analyzer) readPattern(p string) {
	if len(an.a.readPatterns) >= maxReadPatterns {
		an.opaque("the command reads too many patterns to check")
		return
	}
	if !contains(an.a.readPatterns, p) {
		an.a.readPatterns = append(an.a.readPatterns, p)
		an.dynamicReadsAt = append(an.dynamicReadsAt, len(an.a.accesses))
	}
}
