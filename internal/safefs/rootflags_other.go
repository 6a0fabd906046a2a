//go:build !unix

package safefs

// rootOpenFlags are added to every open through a Dir's handle: none where
// there are no FIFOs to wait on.
const rootOpenFlags = 0
