//go:build sandbox_shortslack

package sandbox

import "time"

// memoSlack, in the build the tests run the whole package under (.ci/run:
// -tags sandbox_shortslack), is short enough that the directories a test
// made are remembered by its next check, so that every test also checks
// the remembered walk; it is still above a tick of the coarse clock.
const memoSlack = 20 * time.Millisecond
