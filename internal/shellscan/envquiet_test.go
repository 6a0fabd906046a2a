package shellscan

import "testing"

// TestEnvQuiet checks which lines with env are recorded as reading the
// environment's credentials: env whose output goes to /dev/null or into
// a consumer that prints counts only is not; every line that can put a
// value in the output or a file is (each was run in real bash: env | wc
// --files0-from=- printed the values in its errors, env > x | wc -l kept
// them in x, env 2>/dev/null printed them).
func TestEnvQuiet(t *testing.T) {
	for line, want := range map[string]bool{
		`env | wc -l`: false, `env | grep -c PATH`: true, `env > /dev/null`: false, `env &>/dev/null`: false,
		`env 1>/dev/null`: false, `env | wc -lc`: false, `env | grep -ci token`: true, `env | grep --count x`: true,
		`env | grep -c PATH | cat`: true, `env`: true, `env | sort`: true, `env | grep PATH`: true, `env | wc --files0-from=-`: true,
		`env > x | wc -l`: true, `env 2>/dev/null`: true, `env > /dev/null > x`: true, `env | grep -c PATH x`: true,
		`env | wc -l > x`: true, `env | tee x | wc -l`: true, `env | "wc" -l`: true, `env | wc`: true,
		`env | grep -c -e PATH`: true, `env | grep -cf p`: true, `env | wc -l; env`: true, `{ env; } > /dev/null`: true,
		`env | grep -co x`: true, `env | grep -c ^GITHUB_TOKEN=g`: true, `env | grep -c A=b`: true, `env | grep -c 'x'`: true,
		`env | grep -c x; env | grep -c y`: true, `env | grep -c x; env | wc -l`: true, `env --uns PATH`: true, `env --unset PATH`: true,
	} {
		a := Analyze(line, Options{Home: "/h", Workdir: "/w"})
		got := false
		for _, acc := range a.Accesses {
			got = got || acc.Path == procEnviron
		}
		if got != want {
			t.Errorf("%q: reads %s = %v, want %v", line, procEnviron, got, want)
		}
	}
}
