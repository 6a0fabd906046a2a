package migration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	neturl "net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/strictjson"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// ToStore copies the project of the data home at paths, whose records are
// encoded as enc says, into the database at url, keeping namespace,
// project hash and codec (see postgres.Project.ImportFiles): the
// destination project must be empty, every record is read back and
// compared, and a failed copy is deleted. The files are only read. A
// project directory that does not exist is an error matching
// migrate.ErrNoSource.
func ToStore(ctx context.Context, url string, enc storage.Encoding, paths storage.ProjectPaths) (postgres.FilesReport, error) {
	// A project directory that does not exist (a mistyped --workdir,
	// --namespace or --home) has nothing to copy, as for migrate between
	// homes: an empty copy reported verified would pass for the project's.
	if _, err := os.Lstat(paths.ProjectDir()); errors.Is(err, fs.ErrNotExist) {
		return postgres.FilesReport{}, fmt.Errorf("%w: %s", migrate.ErrNoSource, paths.ProjectDir())
	}
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		return postgres.FilesReport{}, fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	dst, err := st.Project(enc)
	if err != nil {
		return postgres.FilesReport{}, err
	}
	return dst.ImportFiles(ctx, paths)
}

// FromStore copies the project at paths (in the destination data home),
// encoded with codec, from the database at url into that home, keeping
// namespace, project hash and codec (see postgres.Project.ExportFiles).
// The project directory must not exist or be empty, or hold what a
// FromStore of the same database that did not finish left there. The
// directory is locked (migrate.MarkerName's lock) and carries
// migrate.MarkerName, naming the database, until the copy is verified, so
// that a copy killed part-way is recognisably incomplete (agents refuse
// it, lite-agent verify reports it). A rerun removes that partial copy
// (see postgres.Project.RemovePartialExport) and completes the copy: only
// when the marker names the same database and the directory holds nothing
// but files that begin as the export writes them; anything else is
// refused, and the directory is left as it is for the operator. The
// marker is written atomically (see writeMarker): a run killed while
// writing it leaves none, or a whole one, and at most its temp file, which
// a rerun removes. A marker cut short (see tornStoreMarker), which earlier
// versions killed at that moment left, is taken over when the directory
// holds nothing else; beside anything else it is refused. If
// anything fails, what the export made is removed again (see
// postgres.Project.ExportFiles): not the files an agent of the project may
// have written there meanwhile. A rerun that fails leaves the marker, as
// it found it. The database is only read. A project the
// database holds nothing of is an error matching migrate.ErrNoSource, and
// a home holding the marker of a migration that did not finish one
// matching migrate.ErrIncomplete; nothing is created.
func FromStore(ctx context.Context, url string, codec storage.Codec, paths storage.ProjectPaths) (postgres.FilesReport, error) {
	return fromStore(ctx, url, codec, paths, nil, nil, nil)
}

// storeMarker is the content of the marker FromStore writes: the format
// of the marker of a migration between data homes, whose source is the
// database.
type storeMarker struct {
	Version     int       `json:"liteAgentMigration"`
	Source      string    `json:"source"`
	Destination string    `json:"destination"`
	StartedAt   time.Time `json:"startedAt"`
}

// storeSource names the database at rawURL in a marker: its host, port
// and database, without the user, password or options. rawURL may be a
// URL or a keyword/value connection string ("host=… dbname=… password=…"),
// which postgres.Open takes too; both are read as the driver reads them
// (a port left out is the default, PGPORT or 5432; a database left out
// PGDATABASE or, as the server does, the user's name) and named
// postgres://host:port/database, the host in lower case, so that one
// database has one name whichever way a run and its rerun spell it.
func storeSource(rawURL string) string {
	cfg, err := pgconn.ParseConfig(rawURL)
	if err != nil {
		return "postgres database"
	}
	db := cfg.Database
	if db == "" {
		// The server connects a user who names no database to the
		// database of the user's name: two users' runs are two databases.
		db = cfg.User
	}
	return "postgres://" + net.JoinHostPort(strings.ToLower(cfg.Host), strconv.Itoa(int(cfg.Port))) + "/" + db
}

// sameSource reports whether marked, the source named by a marker, names
// the database source (a name storeSource made). Older versions wrote a URL
// as "postgres://" + its host and path, as typed: the port left out when
// the URL left it out, the host in its own case. Such a name is read the way
// the driver read the URL then (a port left out is PGPORT or 5432, the
// database left out PGDATABASE; without it the user's, which the name does
// not record, and the name is refused) and compared by host, port and database,
// the database's name taken as written, escapes and all. It
// is parsed as plain text, never handed to the driver: a marker's options
// (a certificate file, a service) are never acted on.
func sameSource(marked, source string) bool {
	if marked == source {
		return true
	}
	u, err := neturl.Parse(marked)
	if err != nil || u.Scheme != "postgres" || u.Opaque != "" || u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Hostname() == "" {
		return false
	}
	port := u.Port()
	if port == "" {
		port = "5432"
		if env := os.Getenv("PGPORT"); env != "" {
			port = env
		}
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 {
		return false
	}
	port = strconv.FormatUint(n, 10)
	// The older version wrote the host and path decoded, so the marker's
	// text after the host is the database's name as it is: "%41" names a
	// database "%41", not "A". A host spelled with escapes was not written
	// by it.
	host, db, _ := strings.Cut(strings.TrimPrefix(marked, "postgres://"), "/")
	if host != u.Host || strings.Contains(db, "/") {
		return false
	}
	if db == "" {
		// Without PGDATABASE the server took the user's database, and
		// the marker does not say which user that was.
		if db = os.Getenv("PGDATABASE"); db == "" {
			return false
		}
	}
	return "postgres://"+net.JoinHostPort(strings.ToLower(u.Hostname()), port)+"/"+db == source
}

// inspectStoreDestination checks the project directory dir of paths
// without changing it. It must be missing or empty (false), or hold only
// what a FromStore from source that did not finish leaves there (true):
// its marker, its lock, and the sessions, task and spill directories; or
// a marker cut short with nothing beside it (true). The lock, what a
// killed lock takeover leaves and a marker's temp files are no data: a
// directory holding nothing else is empty.
func inspectStoreDestination(paths storage.ProjectPaths, source string) (bool, error) {
	dir := paths.ProjectDir()
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case !st.IsDir():
		return false, fmt.Errorf("%w: %s is not a directory", migrate.ErrDestinationNotEmpty, dir)
	}
	// Looked at through a proven handle, anchored from the home down: a
	// link swapped in for projects/ or the directory is refused, never
	// followed.
	d, err := safefs.AnchorExisting(dir)
	if err != nil {
		return false, err
	}
	ents, err := d.ReadDir("")
	if err != nil {
		return false, err
	}
	var names []string
	for _, e := range ents {
		// The lock, what a run killed while it took or released the
		// lock leaves (filelock.Leftover), and the temp file of a
		// marker a run was killed while writing (markerTemp): no data.
		if n := e.Name(); n != migrate.MarkerName+filelock.Suffix && !filelock.Leftover(n) && !markerTemp(e) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return false, nil
	}
	if !slices.Contains(names, migrate.MarkerName) {
		return false, fmt.Errorf("%s is not empty: migrate only into an empty project directory", dir)
	}
	var mk storeMarker
	data, err := readMarker(d)
	if err == nil && len(names) == 1 && tornStoreMarker(data) {
		// A marker cut short, and nothing beside it: what an older
		// version killed while it wrote its marker left (see
		// tornStoreMarker). It exported nothing; a rerun replaces the
		// marker and has nothing to clear.
		return true, nil
	}
	if err != nil || json.Unmarshal(data, &mk) != nil || mk.Version != 1 {
		return false, fmt.Errorf("%w: %s holds a migration marker that cannot be read; remove the directory by hand", migrate.ErrDestinationNotEmpty, dir)
	}
	if !sameSource(mk.Source, source) {
		return false, fmt.Errorf("%w: %s holds an interrupted migration from %s, not from %s; rerun that one, or remove the directory by hand", migrate.ErrDestinationNotEmpty, dir, mk.Source, source)
	}
	var ours []string
	for _, d := range []string{paths.SessionsDir, paths.TasksDir, paths.SpillDir} {
		if rel, err := filepath.Rel(dir, d); err == nil {
			ours = append(ours, rel)
		}
	}
	for _, n := range names {
		if n != migrate.MarkerName && !slices.Contains(ours, n) {
			return false, fmt.Errorf("%w: %s holds an interrupted migrate --from-store and %s, which it does not write; move it away by hand", migrate.ErrDestinationNotEmpty, dir, filepath.Join(dir, n))
		}
	}
	return true, nil
}

// readMarker reads at most 64 KiB of the marker of d through d's proven
// handle, never following a symlink or waiting on a FIFO: anything but a
// regular file there is an error.
func readMarker(d *safefs.Dir) ([]byte, error) {
	f, err := d.OpenFile(migrate.MarkerName, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", f.Name())
	}
	return io.ReadAll(io.LimitReader(f, 1<<16))
}

// markerTemp reports whether e is a regular file named as the temp file
// of a marker (migrate.IsMarkerTemp: one writeMarker writes, or an
// earlier version's replacement wrote), which a run killed while writing
// it leaves. It holds no data of the copy.
func markerTemp(e fs.DirEntry) bool {
	return e.Type().IsRegular() && migrate.IsMarkerTemp(e.Name())
}

// storeMarkerOpening is how every marker writeMarker writes begins: the
// fields of storeMarker in their order, the version first.
const storeMarkerOpening = `{"liteAgentMigration":1,"source":`

// tornStoreMarker reports whether data, the content of a marker file, is
// a marker cut short: empty, zeros (a file whose size reached the disk
// before its data), or the opening of a marker that is not whole JSON,
// cut anywhere, followed by nothing or zeros. Versions before the marker
// was written atomically created the file and then wrote it, so a kill in
// between left it empty; the export began only once the marker was whole
// and synced, so such a marker never has files beside it of the run that
// wrote it. Which database that run had cannot be told. (The rule of
// migrate between homes, whose marker begins the same way.)
func tornStoreMarker(data []byte) bool {
	return strictjson.CutShort(data, storeMarkerOpening)
}

// writeMarker writes the marker in d, naming source, and syncs it and d.
// A fresh marker (replace false) is written by d.WriteFileExclusiveSteps,
// step told its steps: a run killed on the way leaves no marker (and at
// most its temp file, see markerTemp) or a whole one, never an empty one,
// and a marker already there is never replaced. With replace, the marker
// there is replaced atomically (a new file renamed over it).
func writeMarker(d *safefs.Dir, source string, replace bool, step func(string)) error {
	data, err := json.Marshal(storeMarker{Version: 1, Source: source, Destination: d.Path(), StartedAt: time.Now().UTC()})
	if err != nil {
		return err
	}
	if !replace {
		return d.WriteFileExclusiveSteps(migrate.MarkerName, data, step)
	}
	if err := d.WriteFile(migrate.MarkerName, data); err != nil {
		return err
	}
	return safefs.SyncDir(d.Path())
}

// sameFile reports whether the marker in d is still the file st
// describes, looked at through d's proven handle.
func sameFile(d *safefs.Dir, st os.FileInfo) bool {
	now, err := d.Lstat(migrate.MarkerName)
	return err == nil && st != nil && os.SameFile(now, st)
}

// removeMarker removes the marker of d through d's proven handle, never
// through a link put in place of the directory or above it; a marker
// gone already is an error, as os.Remove's of its path was.
func removeMarker(d *safefs.Dir) error {
	if _, err := d.Lstat(migrate.MarkerName); err != nil {
		return err
	}
	return d.Remove(migrate.MarkerName)
}

// fromStore is FromStore with hooks for tests: checked runs once the
// project directory was first found empty, marked once it is locked and
// marked, before the export; markerStep is told each step of writing a
// fresh marker done (see safefs.Dir.WriteFileExclusiveSteps).
func fromStore(ctx context.Context, url string, codec storage.Codec, paths storage.ProjectPaths, checked, marked func(), markerStep func(string)) (rep postgres.FilesReport, err error) {
	dir := paths.ProjectDir()
	source := storeSource(url)
	// A home a migration between homes did not finish is a partial copy,
	// which agents refuse and that migration's rerun clears: no place to
	// copy a project into.
	if err := migrate.CheckComplete(paths.Home); err != nil {
		return rep, fmt.Errorf("the destination home is not usable: %w", err)
	}
	// A first look, before the database is opened or anything changed.
	if _, err := inspectStoreDestination(paths, source); err != nil {
		return rep, err
	}
	if checked != nil {
		checked()
	}
	st, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		return rep, fmt.Errorf("open store: %w", err)
	}
	defer st.Close()
	src, err := st.Project(storage.Encoding{Codec: codec, Namespace: paths.Namespace, ProjectID: paths.Hash})
	if err != nil {
		return rep, err
	}
	// A project the database does not hold (a mistyped --workdir or
	// --namespace) has nothing to copy: an empty copy reported verified
	// would pass for the project's.
	if empty, err := src.Empty(ctx); err != nil {
		return rep, err
	} else if empty {
		return rep, fmt.Errorf("%w: the database holds no records of project %s of namespace %s", migrate.ErrNoSource, paths.Hash, paths.Namespace)
	}
	created := safefs.MissingDirs(dir)
	// Made and anchored from the home down, each directory through the one
	// above it: the marker is written into this directory and its lock taken
	// there (Dir.Lock), and no symlink put in its place, or in place of
	// projects/, is followed.
	anchored, syncMade, err := safefs.AnchorUnsynced(dir)
	if err == nil {
		err = syncMade()
	}
	if err != nil {
		safefs.RemoveEmptyDirs(created)
		return rep, err
	}
	markerOurs := false // the marker is this run's to remove on failure
	lock, err := anchored.Lock(ctx, migrate.MarkerName, filelock.Options{})
	if err != nil {
		safefs.RemoveEmptyDirs(created)
		return rep, fmt.Errorf("locking %s: %w", dir, err)
	}
	var markerState os.FileInfo // the marker as this run left it
	resume := false             // the directory held an interrupted copy, marked
	defer func() {
		if err != nil && markerOurs && !resume && !errors.Is(err, postgres.ErrExportLeftFiles) && lock.Check() == nil && sameFile(anchored, markerState) {
			// Only what this export made goes: ExportFiles removed its
			// own files; an agent of the project may have written its
			// own there since the check, and they stay, with the
			// directories holding them. If some of the export's files
			// stay, so does the marker. A run that lost the lock (paused
			// past its stale period) leaves it too, and so does one
			// whose marker was replaced: the directory is a rerun's,
			// unfinished. A rerun leaves it too, as it found it: the run
			// it took over from may only have been paused, and the file
			// in the way of this export may be that run's next one, the
			// rest of its copy cleared by this run.
			if rerr := removeMarker(anchored); rerr != nil {
				err = fmt.Errorf("%w; removing the marker also failed: %w", err, rerr)
			}
		}
		if rerr := lock.Release(); rerr != nil && err == nil {
			err = rerr
		}
		if err != nil {
			safefs.RemoveEmptyDirs(created)
		}
	}()
	// Again under the lock: another run may have been at work.
	resume, err = inspectStoreDestination(paths, source)
	if err != nil {
		return rep, err
	}
	if resume {
		// The marker stays in place while the partial copy is cleared:
		// a run killed meanwhile leaves a directory still marked. It is
		// then replaced, so that the interrupted run, if it was only
		// paused, knows it is not its own any more.
		if err := src.RemovePartialExport(ctx, paths); err != nil {
			return rep, fmt.Errorf("clearing the interrupted migrate --from-store: %w", err)
		}
	}
	// What a run killed while writing its marker left beside it; the lock
	// is this run's, so that run is gone.
	if ents, err := anchored.ReadDir(""); err == nil {
		for _, e := range ents {
			if markerTemp(e) {
				_ = anchored.Remove(e.Name())
			}
		}
	}
	if err := writeMarker(anchored, source, resume, markerStep); err != nil {
		return rep, err
	}
	if markerState, err = anchored.Lstat(migrate.MarkerName); err != nil {
		return rep, err
	}
	markerOurs = true
	if marked != nil {
		marked()
	}
	if rep, err = src.ExportFiles(ctx, paths); err != nil {
		return rep, err
	}
	if err := lock.Check(); err != nil {
		markerOurs = false // another run may be at work: the marker stays
		return rep, fmt.Errorf("the lock of %s was lost; it stays marked incomplete: %w", dir, err)
	}
	if err := removeMarker(anchored); err != nil {
		return rep, err
	}
	return rep, safefs.SyncDir(dir)
}
