package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestEveryNumericFlagErrorNamesFlagValueAndWant gives every flag of every
// command whose value is a number, a duration or a boolean a value it
// cannot take, and wants one line naming the flag, the value and what is
// expected, without the parser's own text (strconv.ParseInt: …), exit 2,
// nothing on standard output.
func TestEveryNumericFlagErrorNamesFlagValueAndWant(t *testing.T) {
	isolateEnv(t)
	home := t.TempDir()
	var cases [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			switch f.Value.Type() {
			case "int", "int64", "int32", "uint", "uint64", "float64", "duration", "bool":
				// A boolean takes its value only after "=".
				cases = append(cases, append(append([]string{}, path...), "--"+f.Name+"=abc"))
				if f.Value.Type() != "bool" {
					cases = append(cases, append(append([]string{}, path...), "--"+f.Name, "99999999999999999999999"))
				}
			}
		})
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(newRoot(newInterrupter(func() {}, nil)), nil)
	if len(cases) < 5 {
		t.Fatalf("found only %d numeric flag cases: %v", len(cases), cases)
	}
	for _, args := range cases {
		flag, value := args[len(args)-1], args[len(args)-1]
		if i := strings.Index(flag, "="); i >= 0 {
			flag, value = flag[:i], flag[i+1:]
		} else {
			flag = args[len(args)-2]
		}
		r := runCLI(t, append([]string{"--home", home}, args...)...)
		wantOneErrorLine(t, r)
		if r.code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, r.code, exitUsage)
		}
		for _, want := range []string{flag, `"` + value + `"`, "want "} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%q: stderr %q does not contain %q", args, r.stderr, want)
			}
		}
		for _, bad := range []string{"strconv", "invalid syntax", "ParseInt", "ParseBool", "time: "} {
			if strings.Contains(r.stderr, bad) {
				t.Errorf("%q: stderr %q shows the parser's text %q", args, r.stderr, bad)
			}
		}
	}
	if entries := tree(t, home); len(entries) != 1 {
		t.Errorf("the home changed: %v", entries)
	}
}

// TestFlagValueErrorIsTyped checks that a bad flag value is a
// *flagValueError inside the *usageError, naming the flag and the value,
// and that pflag's own error is still reachable.
func TestFlagValueErrorIsTyped(t *testing.T) {
	root := newRoot(newInterrupter(func() {}, nil))
	root.SetArgs([]string{"cleanup", "--max-bytes", "12k"})
	root.SetOut(new(strings.Builder))
	root.SetErr(new(strings.Builder))
	err := root.Execute()
	var fe *flagValueError
	if !errors.As(err, &fe) || fe.Flag != "max-bytes" || fe.Value != "12k" {
		t.Fatalf("err = %#v, want a *flagValueError for --max-bytes 12k", err)
	}
	var ue *usageError
	if !errors.As(err, &ue) {
		t.Errorf("err = %v, not a *usageError", err)
	}
	var pe *pflag.InvalidValueError
	if !errors.As(err, &pe) {
		t.Errorf("err = %v does not wrap pflag's *InvalidValueError", err)
	}
	if got, want := err.Error(), `invalid --max-bytes "12k": want a whole number`; !strings.HasPrefix(got, want) {
		t.Errorf("err = %q, want it to start with %q", got, want)
	}
}
