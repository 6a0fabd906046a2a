package migrate

import (
	"os"
	"sync/atomic"
)

// FailWritesAfter makes every write to the destination after the first n
// fail with err, as a full disk would.
func FailWritesAfter(o *Options, n int, err error) {
	var count atomic.Int64
	o.failWrite = func(string) error {
		if count.Add(1) > int64(n) {
			return err
		}
		return nil
	}
}

// TamperWrites makes f decide what reaches the destination file rel for
// every chunk written to it.
func TamperWrites(o *Options, f func(rel string, b []byte) []byte) {
	o.tamperWrite = f
}

// FailBackgroundSync makes the first sync of the destination report err,
// as Linux reports a writeback error once, to the first syncfs after it,
// and makes the flusher sync after every every bytes written.
func FailBackgroundSync(o *Options, every int64, err error) {
	o.flushEvery = every
	o.syncHook = func(n int, e error) error {
		if n == 1 {
			return err
		}
		return e
	}
}

// CountRecords returns what the plan counts for the progress totals of the
// log at path: its non-blank lines and its size.
func CountRecords(path string) (int64, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	return countRecords(f, path, make([]byte, countBufSize))
}

// OnWrite makes f run before every write to the destination file rel; an
// error it returns fails that write.
func OnWrite(o *Options, f func(rel string) error) { o.failWrite = f }

// Portable reports that the package was built to open files by path, as
// on Windows (the build tag migrate_portable on Linux).
const Portable = portable

// OnCopied makes f run once the copy is over, before the migration checks
// that no session it copied was deleted from the source meanwhile.
func OnCopied(o *Options, f func()) { o.copied = f }

// OnLastSync turns the background syncs off and makes f run after the
// destination's last sync (the one that must come before the marker
// goes), its error replacing the sync's.
func OnLastSync(o *Options, f func() error) {
	o.flushEvery = 1 << 62
	o.syncHook = func(_ int, e error) error {
		if err := f(); err != nil {
			return err
		}
		return e
	}
}

// OnStep makes f run as each step of opening the destination and planning
// the source is done, with its name: "anchored" (the destination root
// made), "locked", "marked" (the marker durable), "planning" (the plan
// about to begin alongside; only where the destination is opened
// alongside), "planned", "copying"
// (the copy about to make its first entry), "parents synced" (the entries
// of the directories made on the way to the root durable) and
// "unmarking" (the marker about to be removed).
func OnStep(o *Options, f func(name string)) { o.stepped = f }

// OnRemovalsSynced makes f run as a failed migration begins the sync of
// what it removed from the destination, before its marker goes.
func OnRemovalsSynced(o *Options, f func()) { o.removalsSynced = f }

// BeforeAnchor makes f run with the path of every source directory the
// plan found, just before the plan opens it.
func BeforeAnchor(o *Options, f func(path string)) {
	o.beforeAnchor = f
}
