package hook_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/lite-agent/lite-agent-go/hook"
)

// BenchmarkFire measures one Fire with Go hooks (the dispatch overhead) and
// with one command hook, beside a raw "/bin/sh -c true" in the same run.
func BenchmarkFire(b *testing.B) {
	p := toolStart("bash", `{"command":"ls"}`)
	b.Run("go-hooks=4", func(b *testing.B) {
		fn := func(context.Context, hook.Payload) error { return nil }
		var progs []hook.Hook
		for range 4 {
			progs = append(progs, hook.Hook{Event: hook.EventToolStart, Func: fn})
		}
		r, err := hook.New(hook.Config{}, hook.Options{Programmatic: progs})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			r.Fire(b.Context(), p)
		}
	})
	b.Run("no-match", func(b *testing.B) {
		r, err := hook.New(hook.Config{}, hook.Options{Programmatic: []hook.Hook{{Event: hook.EventRunEnd, Command: "true"}}})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			r.Fire(b.Context(), p)
		}
	})
	b.Run("raw-sh", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/sh", "-c", "true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("command-hook", func(b *testing.B) {
		r, err := hook.New(hook.Config{}, hook.Options{Permit: allow, Programmatic: []hook.Hook{{Event: hook.EventToolStart, Command: "true"}}})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if o := r.Fire(b.Context(), p); len(o.Diagnostics) != 0 {
				b.Fatal(o.Diagnostics)
			}
		}
	})
}
