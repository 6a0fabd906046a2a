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
		`echo x > README.md && bun run build`, `echo '{}' > x.json && npm ls`, `echo '{}' > x.json && pnpm list`,
		`echo '{}' > x.json && yarn why react`, `echo '{}' > x.json && npm view react`,
	}
	checkRT57Lines(t, opaque, clean)
}

// glab and hub change what git cannot restore and who may reach the
// project as gh does, run aliases, browsers and the editor, and hub runs
// any other command as git's (gate60: each was allowed).
func TestG60GlabHub(t *testing.T) {
	opaque := []string{
		`glab variable set X y`, `glab variable update X y`, `glab variable delete X`, `glab repo delete o/r`,
		`glab api -X DELETE projects/1`, `glab api --method=PUT x`, `glab api -f a=b x`, `glab api --input f x`,
		`glab ssh-key add k.pub`, `glab deploy-key add k`, `glab gpg-key add k`, `glab token create t`,
		`glab securefile create f`, `glab co 1`, `glab repo view --web`, `glab mr view -w 1`,
		`glab mr checkout 1 && npm ls`, `glab repo clone o/r`, `glab release delete v1`, `glab issue delete 1`,
		`glab repo edit --visibility public`, `glab label delete x`, `glab cluster agent update-kubeconfig`,
		`glab duo ask x`, `glab --repo o/r variable set X y`, `glab ci artifact main build`,
		`hub delete o/r`, `hub api -X DELETE x`, `hub api -F a=b x`, `hub browse`, `hub compare`,
		`hub checkout https://github.com/o/r/pull/1`, `hub push`, `hub am https://x/pull/1.patch`, `hub foo`,
		`hub -c core.hooksPath=x status`, `hub sync`, `hub fork`, `hub pull-request`, `hub issue create`,
		`hub release create v1`, `hub release delete v1`, `hub pr checkout 1`, `hub pr show 1`, `hub create -o`,
	}
	clean := []string{
		`glab mr list`, `glab api projects/1`, `glab api -X GET x`, `glab ci view`, `glab variable list`,
		`glab mr create -f`, `glab mr merge 1`, `glab issue create -t x -d y`, `glab release create v1`,
		`glab --version`, `glab variable get X`, `hub api x`, `hub ci-status`, `hub pr list`, `hub issue`,
		`hub pull-request -m x`, `hub issue create -m x`, `hub release create -m v1 v1`, `hub browse -u`,
		`hub --version`, `hub create`, `hub alias`,
	}
	checkRT57Lines(t, opaque, clean)
}
