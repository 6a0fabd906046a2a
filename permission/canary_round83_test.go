//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound83 is gatecred67's attack on the programs a build writes,
// handed to a command the analysis does not model (gate66 made files cp,
// mv, ln, install and setfacl make executable code for such commands).
// A C compiler's, rustc's and make's outputs are built of sources the
// analysis checks as code (cc -o t x.c && ./t is the project's program),
// but go build also builds packages by import path (cmd/pack of the
// standard library, a module's tool): a run of its output by name asked
// (a program the line writes), but the output named by go's default
// (go build cmd/pack writes ./pack), and either one handed to hyperfine,
// was allowed; real go 1.2x and hyperfine 1.18 built pack and ran it,
// and pack c c wrote an empty archive over the canary.
var canaryRound83 = map[string][]string{
	"1-go-build-handed": {
		`go build -o t cmd/pack && hyperfine -N -r1 './t c c'`,
		`go build -o=t cmd/pack && hyperfine -N -r1 './t c c'`,
		`go build -o sub/t cmd/pack && hyperfine -N -r1 'sub/t c c'`,
		`go build -o sub/ cmd/pack && hyperfine -N -r1 'sub/pack c c'`,
		`go build -o t1 cmd/pack && hyperfine -N -r1 -P n 1 1 './t{n} c c'`,
	},
	"2-go-build-default-name": {
		`go build cmd/pack && ./pack c c`,
		`go build cmd/pack && hyperfine -N -r1 './pack c c'`,
		`go build -trimpath cmd/pack && hyperfine -N -r1 './pack c c'`,
	},
}

func TestCanaryRound83(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "git", "hyperfine", "go")
	template := checkCanaryRound(t, canaryRound83)
	// Builds that hand nothing they wrote, and runners given other
	// programs, stay ordinary.
	checkOrdinary(t, template, []string{
		`go build cmd/pack && ls`,
		`go build -o t cmd/pack && hyperfine -N -r1 'ls -la'`,
		`go vet ./... && hyperfine -r1 'git status'`,
		`go build ./...`,
		`go build -o bin/app ./cmd/app`,
	}, nil)
}
