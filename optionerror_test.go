package liteagent_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
)

// TestNewReportsRefusedOptionsAsOptionErrors checks that every option New
// refuses on its own is an *OptionError naming the field, that a cause is
// kept for errors.Is and errors.As, and that nothing is created.
func TestNewReportsRefusedOptionsAsOptionErrors(t *testing.T) {
	f := newFixture(t)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	base := func(edit func(*liteagent.Options)) liteagent.Options {
		o := liteagent.Options{Model: f.p, ModelName: "m", Workdir: f.workdir, Storage: storage.Options{Home: f.home}}
		edit(&o)
		return o
	}
	cases := []struct {
		field string
		opts  liteagent.Options
		cause func(error) bool
	}{
		{"Model", base(func(o *liteagent.Options) { o.Model = nil }), nil},
		{"ModelName", base(func(o *liteagent.Options) { o.ModelName = "" }), nil},
		{"Workdir", base(func(o *liteagent.Options) { o.Workdir = filepath.Join(f.workdir, "missing") }),
			func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
		{"Workdir", base(func(o *liteagent.Options) { o.Workdir = file }), nil},
		{"TaskListID", base(func(o *liteagent.Options) { o.TaskListID = "../x" }),
			func(err error) bool { var se *storage.Error; return errors.As(err, &se) }},
		{"MaxTokens", base(func(o *liteagent.Options) { o.MaxTokens = -1 }), nil},
		{"ContextWindow", base(func(o *liteagent.Options) { o.ContextWindow = -1 }), nil},
		{"Cleanup.MaxBytes", base(func(o *liteagent.Options) { o.Cleanup = retention.Options{MaxBytes: -1} }), nil},
		{"Cleanup.MaxAge", base(func(o *liteagent.Options) { o.Cleanup = retention.Options{MaxAge: -time.Hour} }), nil},
		{"OutputSchema", base(func(o *liteagent.Options) { o.OutputSchema = json.RawMessage(`{"type":"string"}`) }), nil},
	}
	for _, c := range cases {
		_, err := liteagent.New(t.Context(), c.opts)
		var oe *liteagent.OptionError
		if !errors.As(err, &oe) {
			t.Errorf("%s: err = %v (%T), want an *OptionError", c.field, err, err)
			continue
		}
		if oe.Field != c.field {
			t.Errorf("%s: Field = %q (%v)", c.field, oe.Field, err)
		}
		if c.cause != nil && !c.cause(err) {
			t.Errorf("%s: the cause is lost: %v", c.field, err)
		}
		if _, err := os.Stat(f.home); err == nil {
			t.Fatalf("%s: the home was created", c.field)
		}
	}
}
