//go:build linux

package permission_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound11 are lines of the tenth round's "left for a decision":
// tools that write their own configuration in the home directory, which
// later runs of the tool read — a shell for npm's scripts, flags for every
// go build (-toolexec runs a program), a kubectl credential plugin. Each
// writes the fixture's home, so each must be refused by both scenarios.
// GO stands for the go command by its absolute path (the fixture's PATH
// does not hold it).
var canaryRound11 = map[string][]string{
	"2-environment": {
		`npm config set script-shell "$PWD/bin/ls"`,
		`npm --location=user set ignore-scripts false`,
		`GO env -w GOFLAGS=-toolexec=$PWD/bin/ls`,
		`GO env -w "GOFLAGS=-toolexec=$PWD/bin/ls"`,
		`kubectl config set-cluster x --server=https://127.0.0.1:1`,
		`kubectl config set-credentials u --exec-command="$PWD/bin/ls" --exec-api-version=client.authentication.k8s.io/v1`,
	},
}

// canaryRound11Ordinary are lines of the same tools that only read their
// configuration or do their usual work: the "allow bash" policy must still
// allow them.
var canaryRound11Ordinary = []string{
	"npm config get registry", "npm config list", "GO env GOPATH", "GO env", "kubectl config view",
}

func TestCanaryRound11(t *testing.T) {
	t.Parallel()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	subst := func(line string) string { return strings.ReplaceAll(line, "GO ", gobin+" ") }
	round := map[string][]string{}
	for class, lines := range canaryRound11 {
		for _, line := range lines {
			tool := strings.Fields(line)[0]
			if tool != "GO" {
				if _, err := exec.LookPath(tool); err != nil {
					how := tooltest.CanaryTools
					if tool == "npm" {
						how = tooltest.NodeJS
					}
					tooltest.LeftOut(t, fmt.Sprintf("class %s: %q left out: %s is not installed", class, line, tool), how)
					continue
				}
			}
			round[class] = append(round[class], subst(line))
		}
	}
	template := checkCanaryRound(t, round)
	checkOrdinary(t, template, canaryRound11Ordinary, subst)
}
