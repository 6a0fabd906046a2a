package strictjson

import "testing"

func TestCutShort(t *testing.T) {
	const opening = `{"v":1,"s":`
	whole := `{"v":1,"s":"x","n":[1,2]}`
	for _, c := range []struct {
		data string
		want bool
	}{
		{"", true},
		{"\x00\x00\x00", true},
		{`{`, true},
		{`{"v":1`, true},
		{`{"v":1,"s":"x","n":[1`, true},
		{`{"v":1,"s":"x","n":[1` + "\x00\x00", true},
		{whole, false},
		{whole + "\n", false},
		{whole + "x", false},
		{`{"v":2,"s":"x"`, false},
		{`{"w":1`, false},
		{`{"v":1,"s":"x",,`, false},
		{`[1,2`, false},
		{"\x00{\"v\":1", false},
	} {
		if got := CutShort([]byte(c.data), opening); got != c.want {
			t.Errorf("CutShort(%q) = %v, want %v", c.data, got, c.want)
		}
	}
}
