package liteagent

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"time"

	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
)

// CleanupDaysEnv names the environment variable that sets the age, in
// whole days, after which the startup sweep removes runtime files, when
// [Options.Cleanup] leaves MaxAge zero. "0" turns the sweep off. Like
// [TaskListEnv], it applies to the default namespace only.
const CleanupDaysEnv = "LITE_AGENT_CLEANUP_DAYS"

// cleanupOptions decides whether New sweeps and with which options: the
// agent's data home, Options.Cleanup, and CleanupDaysEnv for the default
// namespace when Cleanup.MaxAge is zero. An invalid variable is an error.
func cleanupOptions(opts Options, paths storage.ProjectPaths) (retention.Options, bool, error) {
	if opts.DisableCleanup {
		return retention.Options{}, false, nil
	}
	c := opts.Cleanup
	c.Home = paths.Home
	if c.MaxAge < 0 || c.MaxBytes < 0 {
		field := "Cleanup.MaxAge"
		if c.MaxAge >= 0 {
			field = "Cleanup.MaxBytes"
		}
		return retention.Options{}, false, &OptionError{Field: field, Message: "Cleanup.MaxAge and Cleanup.MaxBytes must not be negative"}
	}
	if c.MaxAge == 0 && paths.Namespace == storage.DefaultNamespace {
		if v := os.Getenv(CleanupDaysEnv); v != "" {
			days, err := strconv.Atoi(v)
			if err != nil || days < 0 || days > 100_000 {
				return retention.Options{}, false, &OptionError{Field: "Cleanup.MaxAge", Message: fmt.Sprintf("%s=%q: want a whole number of days, 0 to turn the sweep off", CleanupDaysEnv, v)}
			}
			if days == 0 {
				return retention.Options{}, false, nil
			}
			c.MaxAge = time.Duration(days) * 24 * time.Hour
		}
	}
	return c, true, nil
}

// cleanup runs the startup sweep. It never fails New: a failure is
// logged, and whatever the sweep did before it is still reported.
func cleanup(ctx context.Context, c retention.Options, onCleanup func(retention.Report), log *slog.Logger) {
	rep, err := retention.Sweep(ctx, c)
	if err != nil {
		log.Warn("cleanup failed", "home", c.Home, "err", err)
	}
	if len(rep.Removed) > 0 {
		maxAge := c.MaxAge
		if maxAge == 0 {
			maxAge = retention.DefaultMaxAge
		}
		log.Info("cleanup removed stale runtime files", "home", rep.Home, "removed", len(rep.Removed),
			"bytes", rep.BytesFreed, "maxAge", maxAge, "maxBytes", c.MaxBytes)
	}
	if onCleanup != nil && rep.Home != "" {
		onCleanup(rep)
	}
}
