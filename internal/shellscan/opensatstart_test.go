package shellscan_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

func TestRedirectsOpenAtStart(t *testing.T) {
	for line, want := range map[string]bool{
		`npm run dev > dev.log 2>&1`:              true,
		`python3 -m http.server 8000 &> srv.log`:  true,
		`tail -f app.log | grep ERR > errors.txt`: true,
		`go run . 2>&1 | tee run.log`:             true,
		`sleep 2; echo x > f`:                     false,
		`sleep 2 && echo x > f`:                   false,
		`(echo x > f)`:                            false,
		`{ sleep 2; echo x > f; }`:                false,
		`echo $(sleep 2; echo x > f)`:             false,
		`cat <(sleep 2; echo x > f)`:              false,
		`for i in 1 2; do echo x >> f; done`:      false,
		`sleep 2 | (cat > f)`:                     false,
		`echo x > f &`:                            false,
		`echo "unterminated`:                      false,
		`x=$(date) > f`:                           false,
		"echo a > f\necho b > g":                  false,
	} {
		if got := shellscan.RedirectsOpenAtStart(line); got != want {
			t.Errorf("RedirectsOpenAtStart(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestFilesOpenedAtStart(t *testing.T) {
	for line, want := range map[string]map[string]int{
		`npm run dev > dev.log 2>&1`:                 {"dev.log": 1},
		`go run . 2>&1 | tee -a "run.log" x`:         {"run.log": 1, "x": 1},
		`sh -c 'sleep 2; echo x > f'`:                {},
		`sh -c 'sleep 2; echo x > f' > f`:            {"f": 1},
		`sh -c 'echo x | tee f'`:                     {},
		`echo x > "$HOME/f" >> g`:                    {"g": 1},
		`npm run dev &> 'srv log' 2>> err.log >&out`: {"srv log": 1, "err.log": 1, "out": 1},
		`sleep 2; echo x > f`:                        nil,
		`npm run dev > $"dev.log" 2> err.log`:        {"err.log": 1},
	} {
		got, ok := shellscan.FilesOpenedAtStart(line)
		if ok != (want != nil) || len(got) != len(want) {
			t.Errorf("FilesOpenedAtStart(%q) = %v, %v, want %v", line, got, ok, want)
			continue
		}
		for p, n := range want {
			if got[p] != n {
				t.Errorf("FilesOpenedAtStart(%q) = %v, want %v", line, got, want)
			}
		}
	}
}
