package shellscan

import "testing"

func TestShortForm(t *testing.T) {
	for _, c := range []struct{ word, short, want string }{
		{"-c", "c", "-"},
		{"-cp.ini", "c", "-p.ini"},
		{"-qc", "c", "-"},
		{"-qcp.ini", "c", "-p.ini"},
		{"-Dvc", "c", "-"},
		{"-q", "c", ""},
		{"--c", "c", ""},
		{"--config", "c", ""},
		{"-q.c", "c", ""},
		{"c", "c", ""},
		{"-c", "", ""},
	} {
		if got := ShortForm(c.word, c.short); got != c.want {
			t.Errorf("ShortForm(%q, %q) = %q, want %q", c.word, c.short, got, c.want)
		}
	}
}

func TestLongForm(t *testing.T) {
	for _, c := range []struct {
		word, long string
		want       bool
	}{
		{"--config-file", "--config-file", true},
		{"--config-file=x", "--config-file", true},
		{"-config-file=x", "--config-file", true},
		{"--conf", "--config-file", true},
		{"--co", "--config-file", false},
		{"-conf", "--config-file", false},
		{"---config-file", "--config-file", false},
		{"--configs", "--config-file", false},
	} {
		if got := LongForm(c.word, c.long); got != c.want {
			t.Errorf("LongForm(%q, %q) = %v, want %v", c.word, c.long, got, c.want)
		}
	}
}
