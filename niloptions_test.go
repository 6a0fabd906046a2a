package liteagent_test

import (
	"context"
	"errors"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/compaction"
	"github.com/lite-agent/lite-agent-go/model/modeltest"
	"github.com/lite-agent/lite-agent-go/permission"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
)

// TestNilOptionsAreRefused checks that New refuses, with an *OptionError
// naming the field, an interface option holding a nil pointer (the nil
// *permission.FilePolicy of a PermissionFilePolicy whose error was dropped,
// a nil *session.MemoryCheckpointer, a nil provider) and a nil element of a
// list option. Each made New or the first turn panic with a nil
// dereference.
func TestNilOptionsAreRefused(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		field string
		set   func(*liteagent.Options)
	}{
		{"Model", func(o *liteagent.Options) { o.Model = (*modeltest.Provider)(nil) }},
		{"Permission", func(o *liteagent.Options) { o.Permission = (*permission.FilePolicy)(nil) }},
		{"Checkpointer", func(o *liteagent.Options) { o.Checkpointer = (*session.MemoryCheckpointer)(nil) }},
		{"Tools[1]", func(o *liteagent.Options) {
			o.Tools = []tool.Tool{tool.New("ok", "ok", func(_ context.Context, _ *tool.Call, _ struct{}) (tool.Result, error) { return tool.Text(""), nil }), nil}
		}},
		{"Compaction[0]", func(o *liteagent.Options) { o.Compaction = []compaction.Pass{nil} }},
		{"ToolMiddleware[0]", func(o *liteagent.Options) { o.ToolMiddleware = []tool.Middleware{nil} }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			opts := f.options(nil)
			tc.set(&opts)
			var a *liteagent.Agent
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("New panicked: %v", r)
					}
				}()
				a, err = liteagent.New(t.Context(), opts)
			}()
			if err == nil {
				defer a.Close()
				f.p.Reply(modeltest.Text("ok"))
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("New accepted the option and Send panicked: %v", r)
						}
					}()
					_, err = a.Send(t.Context(), "hi")
				}()
				t.Fatalf("New accepted a nil %s (Send = %v)", tc.field, err)
			}
			if oe, ok := errors.AsType[*liteagent.OptionError](err); !ok || oe.Field != tc.field {
				t.Errorf("New = %v, want an *OptionError for %s", err, tc.field)
			}
		})
	}
}
