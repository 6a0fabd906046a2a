package postgres

// SetImportChecked makes ImportFiles into p call f once it has found p
// empty and before it copies anything, so that a test can act as an agent
// that writes to p meanwhile.
func SetImportChecked(p *Project, f func()) { p.importChecked = f }
