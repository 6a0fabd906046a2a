package shellscan

import "testing"

// Tools that load a JavaScript or TypeScript configuration file of the
// working directory as code (cspell.config.js, knip.config.ts,
// svgo.config.js, release.config.js, .markdownlint-cli2.cjs,
// typedoc.config.cjs) run the line's code when the line wrote it first;
// nx runs the commands project.json and nx.json name (review45g: each was
// allowed before).
func TestReview45gConfigCodeTools(t *testing.T) {
	opaque := []string{
		`echo x > cspell.config.js && cspell lint x.md`, `echo x > knip.config.ts && knip`,
		`echo x > svgo.config.mjs && svgo x.svg`, `echo x > release.config.js && semantic-release`,
		`echo x > .markdownlint-cli2.cjs && markdownlint-cli2 x.md`, `echo x > typedoc.config.cjs && typedoc`,
		`echo x > project.json && nx build`, `echo x > nx.json && nx run a:b`,
	}
	clean := []string{
		`cspell lint x.md`, `echo x > notes.md && cspell lint x.md`, `knip`, `svgo x.svg`, `nx build`,
		`echo x > README.md && typedoc`,
	}
	checkRT57Lines(t, opaque, clean)
}

// pnpm reads its settings from pnpm-workspace.yaml (storeDir, cacheDir …)
// as from .npmrc: a line that writes it and then runs pnpm sends the store
// where it says (review45g: printf 'storeDir: /tmp/x' >
// pnpm-workspace.yaml && pnpm install --offline was allowed and created
// /tmp/x with real pnpm).
func TestReview45gPnpmWorkspaceWritten(t *testing.T) {
	opaque := []string{
		`printf 'storeDir: /tmp/x\n' > pnpm-workspace.yaml && pnpm install --offline`,
		`echo x > sub/pnpm-workspace.yaml; pnpm -C sub ls`,
	}
	clean := []string{`pnpm install --offline`, `echo x > notes.yaml && pnpm ls`}
	checkRT57Lines(t, opaque, clean)
}
