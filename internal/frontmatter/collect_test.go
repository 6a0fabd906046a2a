package frontmatter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type testErr struct{ path, detail string }

func (e *testErr) Error() string { return e.path + ": " + e.detail }

type item struct{ name, source string }

func TestCollect(t *testing.T) {
	root := t.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("g/a.md", "a")
	write("g/b.md", "b")
	write("g/bad.md", "!")
	write("g/none.md", "")
	write("p/a.md", "a")
	write("p/seed.md", "seed")
	write("p/c.md", "c")
	opts := func(onInvalid func(*testErr)) CollectOptions[item, string, *testErr] {
		return CollectOptions[item, string, *testErr]{
			Walk:  WalkOptions{Match: func(n string) bool { return strings.HasSuffix(n, ".md") }, MaxEntries: 100, MaxFiles: 100, Files: "files", MaxFileBytes: 100},
			Roots: []Root[string]{{Dir: filepath.Join(root, "g"), Source: "global"}, {}, {Dir: filepath.Join(root, "p"), Source: "project"}, {Dir: filepath.Join(root, "missing"), Source: "x"}},
			Seed:  []item{{"seed", "built-in"}},
			Name:  func(i item) string { return i.name },
			Parse: func(shown string, data []byte, source string) (item, bool, error) {
				switch string(data) {
				case "!":
					return item{}, false, errors.New("broken")
				case "":
					return item{}, false, nil
				}
				return item{string(data), source}, true, nil
			},
			NewError:  func(path, detail string, _ error) *testErr { return &testErr{path, detail} },
			OnInvalid: onInvalid,
		}
	}
	var bad []*testErr
	got, err := Collect(context.Background(), opts(func(e *testErr) { bad = append(bad, e) }))
	if err != nil {
		t.Fatal(err)
	}
	want := []item{{"seed", "project"}, {"a", "project"}, {"b", "global"}, {"c", "project"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Collect = %v, want %v (later names replace earlier ones in place)", got, want)
	}
	if len(bad) != 1 || bad[0].path != filepath.Join(root, "g", "bad.md") || bad[0].detail != "broken" {
		t.Errorf("OnInvalid got %v, want one error for g/bad.md", bad)
	}

	_, err = Collect(context.Background(), opts(nil))
	var te *testErr
	if !errors.As(err, &te) || te.path != filepath.Join(root, "g", "bad.md") {
		t.Errorf("without OnInvalid: err = %v, want the *testErr of g/bad.md", err)
	}

	o := opts(nil)
	o.Roots = []Root[string]{{Dir: filepath.Join(root, "g", "a.md")}}
	if _, err = Collect(context.Background(), o); !errors.As(err, &te) || te.path != filepath.Join(root, "g", "a.md") {
		t.Errorf("a root that is a file: err = %v, want its *testErr", err)
	}
}
