package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/strictjson"
	"github.com/lite-agent/lite-agent-go/internal/syserr"
	"github.com/lite-agent/lite-agent-go/storage"
)

// maxDepth bounds the nesting of a hooks file; the schema needs four levels.
const maxDepth = 32

const (
	// FileName is the name of a hooks file in the data home and in the
	// project config directory.
	FileName = "hooks.json"

	// MaxFileBytes is the largest hooks file accepted: 256 KiB.
	MaxFileBytes = 256 << 10

	// DefaultTimeout is how long a hook may run when its timeout is not
	// set.
	DefaultTimeout = 10 * time.Second

	// MaxTimeout is the longest timeout a hook may have.
	MaxTimeout = 120 * time.Second
)

// A Layer says where a hook was registered.
type Layer string

// The layers, in the order their hooks run.
const (
	LayerGlobal       Layer = "global"       // <home>/hooks.json
	LayerProject      Layer = "project"      // <workdir>/.<namespace>/hooks.json
	LayerProgrammatic Layer = "programmatic" // registered by the host in Go
)

// PermissionSource returns the "source" of a command hook's permission
// input: "user" for LayerGlobal (the user's own data home), "project" for
// LayerProject (the project directory, which a cloned repository may
// supply), and "host" for LayerProgrammatic. An unknown layer is
// "project", the least trusted. Permission rules match on it, so a host
// can allow the user's and its own hooks and still ask about a
// repository's.
func (l Layer) PermissionSource() string {
	switch l {
	case LayerGlobal:
		return "user"
	case LayerProgrammatic:
		return "host"
	}
	return "project"
}

// A Hook is one registration: what runs, for which event, and where it
// came from. Exactly one of Command and Func is set.
type Hook struct {
	// Event is the event the hook runs for.
	Event Event

	// Match, for tool events only, is a glob the tool's name must match,
	// in the project's one glob syntax (that of permission rules): "*"
	// and "?" match any run of characters and any one character, "[abc]",
	// "[a-z]" and "[!abc]" match one character of a class, and "{a,b}"
	// matches either alternative (braces without a comma are literal).
	// An unbalanced bracket or brace, a leading "!", groups such as
	// "@(a|b)", more than 256 bytes or more than 64 alternatives are
	// errors. "" matches every tool.
	Match string

	// Command is a shell command, run as "<shell> -c <Command>" with the
	// payload's JSON on standard input. It is used exactly as written:
	// nothing from the event is ever put into it.
	Command string

	// Func is a Go hook. It receives a deep copy of the payload and a
	// context that is done at the hook's timeout; it must return by then.
	// Its error, or a panic, becomes a hook_failed diagnostic.
	Func func(ctx context.Context, p Payload) error

	// Timeout bounds one run of the hook, the permission check of a
	// command included. Zero means DefaultTimeout; otherwise it is from
	// 1 ms to MaxTimeout.
	Timeout time.Duration

	// Layer and File say where the hook came from: the loader sets them
	// for file hooks; [New] and [Runner.Register] set Layer to
	// LayerProgrammatic and leave File as given ("" is fine).
	Layer Layer
	File  string
}

// validate checks a hook against the rules files and hosts share; Layer
// and File are not checked.
func (h Hook) validate() error {
	if !h.Event.Valid() {
		return fmt.Errorf("unknown event %s", strictjson.QuoteKey(string(h.Event)))
	}
	switch {
	case h.Func == nil && strings.TrimSpace(h.Command) == "":
		return errors.New("a hook needs a non-empty command or a func")
	case h.Func != nil && h.Command != "":
		return errors.New("a hook has either a command or a func, not both")
	case strings.IndexByte(h.Command, 0) >= 0:
		return errors.New("command contains a NUL byte")
	}
	if h.Timeout != 0 && (h.Timeout < time.Millisecond || h.Timeout > MaxTimeout) {
		return fmt.Errorf("timeout must be from 1ms to %s", MaxTimeout)
	}
	if h.Match != "" {
		if !h.Event.isTool() {
			return errors.New("match is allowed only for tool events")
		}
		if err := validGlob(h.Match); err != nil {
			return err
		}
	}
	return nil
}

// Config is the hooks loaded from files, in run order. It is a plain value:
// pass it to [New].
type Config struct {
	// Hooks are the global file's entries, then the project file's, each
	// in file order per event.
	Hooks []Hook
	// Files are the files that were read, in load order.
	Files []string
}

// A ConfigError reports a hooks file that cannot be used. Its message
// names the file and the problem but never quotes a value from the file.
type ConfigError struct {
	// File is the path of the file.
	File string
	// Detail says what is wrong, such as
	// `hooks["tool:start"][0].timeoutMs: must be an integer from 1 to 120000`.
	Detail string
	// Err is the underlying I/O error, if any.
	Err error
}

// Error names the hooks file and what is wrong with it.
func (e *ConfigError) Error() string {
	msg := "invalid hooks configuration " + e.File + ": " + e.Detail
	if e.Err != nil {
		// The file is already named; a *fs.PathError would repeat it.
		msg += ": " + syserr.Text(e.Err)
	}
	return msg
}

// Unwrap returns the underlying I/O error, if any.
func (e *ConfigError) Unwrap() error { return e.Err }

// LoadFiles reads the hooks files of a layout: <home>/hooks.json (global),
// then <ProjectConfigDir>/hooks.json (project). Nothing else is read; in
// particular no other namespace's project directory. Call it once, when
// the root agent is created: files are not reloaded.
//
// A missing file is skipped. When both paths are the same file (the data
// home inside the project config directory, or a link), it is loaded once,
// as global. Every file is validated completely before LoadFiles returns,
// and any problem fails the whole load with a *[ConfigError] naming the
// file: a path that is not a regular file, a file over [MaxFileBytes],
// invalid UTF-8 or JSON, duplicate keys, or anything [Parse] rejects. A
// done ctx stops the load with ctx.Err().
func LoadFiles(ctx context.Context, paths storage.ProjectPaths) (Config, error) {
	var cfg Config
	var seen []os.FileInfo
	for _, src := range []struct {
		layer Layer
		dir   string
	}{{LayerGlobal, paths.Home}, {LayerProject, paths.ProjectConfigDir}} {
		if src.dir == "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return Config{}, err
		}
		file := filepath.Join(src.dir, FileName)
		data, info, err := readConfigFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return Config{}, err
		}
		dup := false
		for _, s := range seen {
			if os.SameFile(s, info) {
				dup = true
			}
		}
		if dup {
			continue
		}
		seen = append(seen, info)
		hooks, err := Parse(data, file, src.layer)
		if err != nil {
			return Config{}, err
		}
		cfg.Hooks = append(cfg.Hooks, hooks...)
		cfg.Files = append(cfg.Files, file)
	}
	return cfg, nil
}

// readConfigFile reads a regular file of at most MaxFileBytes. A missing
// file is returned as an error matching fs.ErrNotExist; other problems are
// *ConfigError. The file is opened without blocking, so a FIFO planted in
// its place cannot stall the load.
func readConfigFile(file string) ([]byte, os.FileInfo, error) {
	f, err := os.OpenFile(file, os.O_RDONLY|openNonblock, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, &ConfigError{File: file, Detail: "cannot open the file", Err: err}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, &ConfigError{File: file, Detail: "cannot stat the file", Err: err}
	}
	if !info.Mode().IsRegular() {
		return nil, nil, &ConfigError{File: file, Detail: "not a regular file"}
	}
	if info.Size() > MaxFileBytes {
		return nil, nil, &ConfigError{File: file, Detail: fmt.Sprintf("larger than %d bytes", MaxFileBytes)}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, nil, &ConfigError{File: file, Detail: "cannot read the file", Err: err}
	}
	if len(data) > MaxFileBytes {
		return nil, nil, &ConfigError{File: file, Detail: fmt.Sprintf("larger than %d bytes", MaxFileBytes)}
	}
	return data, info, nil
}

// Parse decodes the contents of a hooks file named file (used only in
// errors and in the hooks' File) and returns its hooks with the given
// layer, in run order: events in the order of [Events], each event's
// entries in file order.
//
// The schema is strict: a version 1 document
//
//	{"version": 1, "hooks": {"<event>": [{"command": "…", "timeoutMs": 10000, "match": "…"}]}}
//
// where "hooks" may be left out, "command" is required and not blank,
// "timeoutMs" is an integer from 1 to 120000 (default 10000), and "match"
// is a non-empty glob allowed only for tool events. Unknown events, unknown
// keys at any level, duplicate keys, invalid UTF-8 and data after the
// document are rejected. Errors are *[ConfigError] and never quote values.
func Parse(data []byte, file string, layer Layer) ([]Hook, error) {
	fail := func(format string, args ...any) error {
		return &ConfigError{File: file, Detail: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxFileBytes {
		return nil, fail("larger than %d bytes", MaxFileBytes)
	}
	doc, err := strictjson.Decode(data, maxDepth)
	if err != nil {
		return nil, fail("%v", err)
	}
	top, ok := doc.(*strictjson.Object)
	if !ok {
		return nil, fail("the document must be an object, not %s", strictjson.TypeName(doc))
	}
	for _, k := range top.Keys {
		if k != "version" && k != "hooks" {
			return nil, fail("unknown key %s", strictjson.QuoteKey(k))
		}
	}
	version, ok := top.Vals["version"]
	if !ok {
		return nil, fail("version is required")
	}
	if n, ok := version.(json.Number); !ok || n.String() != "1" {
		return nil, fail("version must be 1")
	}
	raw, ok := top.Vals["hooks"]
	if !ok {
		return nil, nil
	}
	events, ok := raw.(*strictjson.Object)
	if !ok {
		return nil, fail("hooks must be an object, not %s", strictjson.TypeName(raw))
	}
	byEvent := map[Event][]Hook{}
	for _, name := range events.Keys {
		ev := Event(name)
		if !ev.Valid() {
			return nil, fail("hooks: unknown event %s", strictjson.QuoteKey(name))
		}
		where := fmt.Sprintf("hooks[%q]", name)
		list, ok := events.Vals[name].([]any)
		if !ok {
			return nil, fail("%s must be an array, not %s", where, strictjson.TypeName(events.Vals[name]))
		}
		for i, item := range list {
			at := fmt.Sprintf("%s[%d]", where, i)
			h, err := parseEntry(item, ev)
			if err != nil {
				return nil, fail("%s%v", at, err)
			}
			h.Layer, h.File = layer, file
			byEvent[ev] = append(byEvent[ev], h)
		}
	}
	var hooks []Hook
	for _, ev := range Events() {
		hooks = append(hooks, byEvent[ev]...)
	}
	return hooks, nil
}

// parseEntry decodes one entry of an event's list. Its errors start with
// the field (".command: …") or with ": " for the entry itself.
func parseEntry(item any, ev Event) (Hook, error) {
	entry, ok := item.(*strictjson.Object)
	if !ok {
		return Hook{}, fmt.Errorf(": an entry must be an object, not %s", strictjson.TypeName(item))
	}
	h := Hook{Event: ev}
	for _, k := range entry.Keys {
		v := entry.Vals[k]
		switch k {
		case "command":
			s, ok := v.(string)
			if !ok {
				return Hook{}, fmt.Errorf(".command: must be a string, not %s", strictjson.TypeName(v))
			}
			if strings.TrimSpace(s) == "" {
				return Hook{}, errors.New(".command: must not be empty")
			}
			if strings.IndexByte(s, 0) >= 0 {
				return Hook{}, errors.New(".command: must not contain a NUL byte")
			}
			h.Command = s
		case "timeoutMs":
			ms, ok := intIn(v, 1, int64(MaxTimeout/time.Millisecond))
			if !ok {
				return Hook{}, fmt.Errorf(".timeoutMs: must be an integer from 1 to %d", MaxTimeout/time.Millisecond)
			}
			h.Timeout = time.Duration(ms) * time.Millisecond
		case "match":
			s, ok := v.(string)
			if !ok || s == "" {
				return Hook{}, errors.New(".match: must be a non-empty string")
			}
			if !ev.isTool() {
				return Hook{}, errors.New(".match: allowed only for tool events")
			}
			if err := validGlob(s); err != nil {
				return Hook{}, fmt.Errorf(".match: %v", err)
			}
			h.Match = s
		default:
			return Hook{}, fmt.Errorf(": unknown key %s", strictjson.QuoteKey(k))
		}
	}
	if h.Command == "" {
		return Hook{}, errors.New(".command: is required")
	}
	return h, nil
}

// intIn reports the integer value of a JSON number if it is a whole number
// from lo to hi. Forms such as 1e3 and 1000.0 count, as they do in
// JavaScript's JSON (the TypeScript SDK reads the same files).
func intIn(v any, lo, hi int64) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
		return i, i >= lo && i <= hi
	}
	f, err := strconv.ParseFloat(n.String(), 64)
	if err != nil || f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, false
	}
	return int64(f), true
}
