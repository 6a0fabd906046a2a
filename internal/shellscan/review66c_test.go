package shellscan

import "testing"

// Round 80 (review66c), without the programs: each opaque line removed
// the canary or wrote the home in real bash under bwrap while the gate
// allowed it (see permission/canary_round80_test.go).
func TestReview66cShellPhysical(t *testing.T) {
	opaque := []string{
		`bash -P -c 'cd link/.. && echo x >> .bashrc'`, `bash -Pc 'cd link/.. && echo x >> .bashrc'`,
		`bash -eP -c 'cd link/.. && echo x > f'`, `bash -o physical -c 'cd link/.. && echo x > f'`,
		`bash +o posix -o physical -c 'cd link/.. && echo x > f'`,
	}
	clean := []string{
		`bash -c 'cd sub/.. && echo x > f'`, `bash -e -c 'cd sub && ls'`, `bash -P -c 'cd sub && echo x > f'`,
		`bash -o pipefail -c 'cd sub/.. && ls'`, `bash -P -c 'ls'; cd sub/.. && echo x > f`,
	}
	checkRT57Lines(t, opaque, clean)
}

func TestReview66cBunInline(t *testing.T) {
	opaque := []string{
		`bun --bun -e 'require("fs").rmSync("c")'`, `bun --hot -e x`, `bun -i -e x`, `bun --cwd=sub -e x`,
		`bun --cwd sub -e x`, `bun -p x`, `bun --print x`, `bun --silent --eval x`, `bun -ex`, `bun --eval=x`,
		`bun -e x`, `bun eval x`, `deno --quiet eval x`,
	}
	clean := []string{
		`bun install -p`, `bun install --production`, `bun run build`, `bun test`, `bun --bun run build`,
		`bun -r ./setup.ts src/x.ts`, `bun --env-file .env run build`, `bun x.ts -e`, `bun --hot src/x.ts`,
	}
	checkRT57Lines(t, opaque, clean)
}

func TestReview66cPrinters(t *testing.T) {
	opaque := []string{
		`a2ps -q --printer='|rm -f c' t.txt`, `a2ps -P '|rm -f c' t.txt`, `a2ps -qP'|x' t.txt`, `a2ps --printe=x t.txt`,
		`a2ps -dP x t.txt`, `enscript --printer='|rm -f c' t.txt`, `enscript -d'|x' t.txt`, `enscript -Z -P'|x' t.txt`,
		`enscript --printer-options='|x' t.txt`, `enscript -2rP lp t.txt`,
	}
	clean := []string{
		`a2ps -q -o o.ps t.txt`, `a2ps --prologue=color -o o.ps t.txt`, `a2ps --pretty-print=c -o o.ps t.c`,
		`enscript -p o.ps t.txt`, `enscript -2r -p o.ps t.txt`, `enscript --pretty-print=c -p o.ps t.c`,
	}
	checkRT57Lines(t, opaque, clean)
}

func TestReview66cA2psNames(t *testing.T) {
	opaque := []string{
		`a2ps -q -o o.ps "x';rm -f c;'.gz"`, `a2ps -q -o o.ps README "x';rm -f c;'.gz"`, `a2ps -o o.ps 'm;rm -f c;x.1'`,
		"a2ps -o o.ps 'a`rm c`.1'", `a2ps -o o.ps -- 'n $(rm -f c) x.1'`,
	}
	clean := []string{
		`a2ps -q -o o.ps README`, `a2ps -o o.ps notes.gz`, `a2ps -o o.ps "my notes.1"`, `a2ps -o o.ps src/main.c sub/.keep`,
		`a2ps -o o.ps résumé.txt`, `a2ps -o o.ps a+b,c@d%e=f~g.txt`,
	}
	checkRT57Lines(t, opaque, clean)
}
