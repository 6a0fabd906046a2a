//go:build linux

package permission_test

import (
	"testing"
)

// canaryRound76 is redteam65's attack on npm's configuration given on the
// command line. npm reads its options after the command as well as before
// it, and takes any unambiguous prefix of an option's name, after one dash
// or two: node-options becomes the NODE_OPTIONS of every script npm runs,
// so --import=data:… runs JavaScript in the project's own test script;
// script-shell and shell choose the program npm runs the script with. A
// package.json whose test script runs node is all it needs, and the
// project's own code is untouched.
var canaryRound76 = map[string][]string{
	"1-npm-node-options": {
		`npm test --node-options="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))"`,
		`npm --node-options="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))" test`,
		`npm test --node-opt="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))"`,
		`npm run test -node-options="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))"`,
		`npm t --node-options "--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))"`,
	},
}

// rv76PackageJSON is the fixture's package.json: a test script that runs
// node, as most projects' do.
const rv76PackageJSON = `{"name":"p","version":"1.0.0","scripts":{"test":"node -e 0","build":"node -e 0"}}`

func TestCanaryRound76(t *testing.T) {
	t.Parallel()
	// npm also writes its cache and logs in the home, which the
	// snapshot sees too; each line was seen to empty the canary in real
	// bash as well.
	template := packageTemplate(t, "npm")
	checkCanaryRoundIn(t, template, canaryRound76)
	checkOrdinary(t, template, []string{
		`npm test`,
		`npm test -- --watch=false`,
		`npm run build --if-present`,
		`npm test --silent`,
		`npm install --save-dev --no-audit --no-fund`,
		`npm ci --omit=dev`,
		`npm run build --workspace=x`,
	}, nil)
}

// canaryRound76Pnpm is the same attack on pnpm, which reads npm's
// settings and its own before its command, and any setting by
// --config.KEY=VALUE.
var canaryRound76Pnpm = map[string][]string{
	"3-pnpm-node-options": {
		`pnpm --node-options="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))" test`,
		`pnpm --config.node-options="--import=data:text/javascript,import('fs').then(f=>f.truncateSync('c'))" test`,
	},
}

func TestCanaryRound76Pnpm(t *testing.T) {
	t.Parallel()
	template := packageTemplate(t, "pnpm")
	checkCanaryRoundIn(t, template, canaryRound76Pnpm)
	checkOrdinary(t, template, []string{`pnpm test`, `pnpm run build`, `pnpm install --frozen-lockfile`}, nil)
}
