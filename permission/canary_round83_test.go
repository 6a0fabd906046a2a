//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound83 is gatecred67's attack on the programs a build writes,
// handed to a command the analysis does not model (gate66 made files cp,
// mv, ln, install and setfacl make executable code for such commands).
// A C compiler's, rustc's and make's outputs are built of sources the
// analysis checks as code (cc -o t x.c && ./t is the project's program),
// but go build also builds packages by import path (cmd/pack of the
// standard library, a module's tool): a run of its -o output by name
// asked (a program the line writes), but the output named by go's
// default (go build cmd/pack writes ./pack), and either one handed to
// hyperfine, was allowed. Real go (1.19, the fixture's) and hyperfine
// 1.15 built pack and ran it, and pack c c wrote an archive over the
// canary: the program is one the analysis does not know, built of code
// outside the workdir, which may do anything. The fixture's go keeps its
// build cache outside the home (its go env file says where), so that the
// build alone changes nothing the round watches.
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
		`go build -v cmd/pack && hyperfine -N -r1 './pack c c'`,
	},
	// The end of the flags left go build to the rule for commands the
	// analysis does not model, which named no program. (So did -C, which
	// the fixture's go, found first on its PATH, may not know: go 1.19
	// has no -C; with go 1.26, go build -C sub cmd/pack && hyperfine -N
	// -r1 'sub/pack c c' wrote over the canary. Its test is
	// shellscan's.)
	"3-go-build-flags": {
		`go build -o t -- cmd/pack && hyperfine -N -r1 './t c c'`,
		`go build -- cmd/pack && hyperfine -N -r1 './pack c c'`,
	},
}

func TestCanaryRound83(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "hyperfine")
	// The lines run with the canaries' PATH, which a go of its own
	// directory (/usr/local/go/bin) is not on.
	if rt58Look("go") == "" {
		tooltest.Missing(t, "go is not in /usr/local/bin, /usr/bin or /bin, the canaries' PATH", tooltest.CanaryTools)
	}
	template := canaryTemplate(t)
	goEnv := filepath.Join(template, "home", ".config", "go", "env")
	if err := os.WriteFile(goEnv, []byte("GOCACHE="+t.TempDir()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCanaryRoundIn(t, template, canaryRound83)
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
