package hook_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/hook"
)

// FuzzDecodeHooks checks the hooks.json decoder: it never panics, every
// failure is a *ConfigError naming the file with a bounded message, and
// whatever it accepts obeys the schema and survives a round trip.
func FuzzDecodeHooks(f *testing.F) {
	f.Add([]byte(`{"version":1,"hooks":{"tool:start":[{"command":"echo hi","match":"{bash,read_file}","timeoutMs":500}]}}`))
	f.Add([]byte(`{"version":1,"hooks":{"run:end":[{"command":"x"}],"run:end":[]}}`))
	f.Add([]byte(`{"version":1e0}`))
	f.Add([]byte("{\"version\":1,\"hooks\":{\"run:start\":[{\"command\":\"\xff\"}]}}"))
	const file = "/w/.acme/hooks.json"
	f.Fuzz(func(t *testing.T, data []byte) {
		hooks, err := hook.Parse(data, file, hook.LayerProject)
		if err != nil {
			var ce *hook.ConfigError
			if !errors.As(err, &ce) || ce.File != file {
				t.Fatalf("error %T %v does not name the file", err, err)
			}
			if n := len(err.Error()); n > 512 {
				t.Fatalf("error message of %d bytes", n)
			}
			return
		}
		doc := map[hook.Event][]map[string]any{}
		for _, h := range hooks {
			switch {
			case !h.Event.Valid(), strings.TrimSpace(h.Command) == "", h.Func != nil:
				t.Fatalf("accepted %+v", h)
			case h.Layer != hook.LayerProject || h.File != file:
				t.Fatalf("source of %+v", h)
			case h.Timeout < 0 || h.Timeout > hook.MaxTimeout || h.Timeout%time.Millisecond != 0:
				t.Fatalf("timeout of %+v", h)
			case h.Match != "" && h.Event != hook.EventToolStart && h.Event != hook.EventToolEnd:
				t.Fatalf("match of %+v", h)
			}
			entry := map[string]any{"command": h.Command}
			if h.Timeout != 0 {
				entry["timeoutMs"] = h.Timeout.Milliseconds()
			}
			if h.Match != "" {
				entry["match"] = h.Match
			}
			doc[h.Event] = append(doc[h.Event], entry)
		}
		again, err := json.Marshal(map[string]any{"version": 1, "hooks": doc})
		if err != nil {
			t.Fatal(err)
		}
		back, err := hook.Parse(again, file, hook.LayerProject)
		if err != nil {
			t.Fatalf("round trip of %s: %v", again, err)
		}
		if len(hooks) == 0 && len(back) == 0 {
			return
		}
		if !reflect.DeepEqual(describe(hooks), describe(back)) {
			t.Fatalf("round trip changed %v into %v", describe(hooks), describe(back))
		}
	})
}

func describe(hooks []hook.Hook) []string {
	var out []string
	for _, h := range hooks {
		out = append(out, fmt.Sprintf("%s|%q|%q|%v", h.Event, h.Command, h.Match, h.Timeout))
	}
	return out
}
