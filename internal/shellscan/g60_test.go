package shellscan

import "testing"

// A package manager runs a program by its name (pnpm tsc, yarn tsc, bun
// run tsc: the script of that name or node_modules/.bin's program) and
// scripts that run tools (npm run build whose script is tsc): the program
// reads the settings files it reads when run by itself. Real pnpm tsc,
// bun run tsc and npm run build wrote a tsconfig.json's outDir in the
// home while tsc alone was opaque (gate60).
func TestG60RunnerTargetSettings(t *testing.T) {
	opaque := []string{
		`echo x > tsconfig.json && pnpm tsc`, `echo x > tsconfig.json && pnpm run tsc`,
		`echo x > tsconfig.json && yarn tsc`, `echo x > tsconfig.json && yarn run tsc -p .`,
		`echo x > tsconfig.json && bun run tsc`, `echo x > tsconfig.json && npm run build`,
		`echo x > tsconfig.json && npm test`, `echo x > tsconfig.json && npm install`,
		`echo x > tsconfig.json && pnpm --filter web build`, `echo x > tsconfig.app.json && pnpm -C web vue-tsc`,
		`echo x > Doxyfile && pnpm doxygen`, `echo x > hugo.toml && yarn hugo`, `echo x > .coveragerc && pnpm pytest --cov`,
		`echo x > x.ini && yarn pytest -c x.ini`, `echo x > ruff.toml && pnpm ruff check`,
		`echo x > Makefile && pnpm make`, `echo x > .babelrc.json && npm run-script build`,
		`echo x > nodemon.json && yarn dev`, `echo x > tsconfig.json && bun run build`,
	}
	clean := []string{
		`pnpm tsc`, `yarn tsc`, `bun run tsc`, `npm run build`, `npm test`, `npm --version`, `pnpm --version`,
		`echo x > notes.txt && pnpm tsc`, `echo x > notes.md && npm run build`, `npm run build && echo x > tsconfig.json`,
		`echo x > README.md && bun run build`,
	}
	checkRT57Lines(t, opaque, clean)
}
