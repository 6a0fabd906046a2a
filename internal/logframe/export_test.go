package logframe

// FullCheck and WellFormed expose Check's two passes to the tests.
var (
	FullCheck  = check
	WellFormed = wellFormed
)
