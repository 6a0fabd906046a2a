package migration

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
)

// Older versions named a URL's database in the marker as "postgres://" +
// the URL's host and path, as typed: without the port when the URL had
// none. A rerun recognises that name (the default port) and refuses other
// databases' names.
func TestSameSourceReadsTheOldNameOfAURL(t *testing.T) {
	t.Setenv("PGPORT", "")
	t.Setenv("PGDATABASE", "")
	for _, tc := range []struct {
		marked, source string
		want           bool
	}{
		{"postgres://db.example:5432/app", "postgres://db.example:5432/app", true},
		{"postgres://db.example/app", "postgres://db.example:5432/app", true},
		{"postgres://DB.Example/app", "postgres://db.example:5432/app", true},
		{"postgres://DB.example:05432/app", "postgres://db.example:5432/app", true},
		{"postgres://[::1]/app", "postgres://[::1]:5432/app", true},
		{"postgres://db.example/app", "postgres://db.example:5433/app", false},
		{"postgres://db.example/other", "postgres://db.example:5432/app", false},
		{"postgres://db.example/App", "postgres://db.example:5432/app", false},
		{"postgres://other.example/app", "postgres://db.example:5432/app", false},
		{"postgres://u@db.example/app", "postgres://db.example:5432/app", false},
		{"postgres://db.example/app?sslmode=disable", "postgres://db.example:5432/app", false},
		{"postgres://db.example/app/x", "postgres://db.example:5432/app", false},
		{"postgres database", "postgres://db.example:5432/app", false},
		// The older version wrote the path decoded: "%41pp" is the
		// database's name as it is, never "App".
		{"postgres://db.example/%41pp", "postgres://db.example:5432/App", false},
		{"postgres://db.example/%41pp", "postgres://db.example:5432/%41pp", true},
		{"postgres://db.example/a%2Fb", "postgres://db.example:5432/a/b", false},
		{"postgres://db.%65xample/app", "postgres://db.example:5432/app", false},
		{"/home/u/.lite-agent", "postgres://db.example:5432/app", false},
	} {
		if got := sameSource(tc.marked, tc.source); got != tc.want {
			t.Errorf("sameSource(%q, %q) = %v, want %v", tc.marked, tc.source, got, tc.want)
		}
	}
	// No database and no PGDATABASE: the server took the user's, which
	// the older name does not record.
	if sameSource("postgres://db.example", "postgres://db.example:5432/alice") || sameSource("postgres://db.example/", "postgres://db.example:5432/") {
		t.Error("an older name without a database matched a database")
	}
	t.Setenv("PGPORT", "5433")
	if !sameSource("postgres://db.example/app", "postgres://db.example:5433/app") {
		t.Error("a port left out is not read as PGPORT, as the driver reads it")
	}
}

// The rerun of a migrate --from-store killed by an older version, whose
// marker names the database by the URL's text without its port, completes
// the copy instead of refusing the directory as another database's.
func TestFromStoreRerunAcceptsAnOldMarkerWithoutAPort(t *testing.T) {
	url := pgtest.URL(t)
	ctx := t.Context()
	cfg, err := pgconn.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	// The test server's port stands in for the default port.
	t.Setenv("PGPORT", strconv.Itoa(int(cfg.Port)))
	paths, p := dbProjectAt(t, url)
	appendSessionA(t, p)
	dir := paths.ProjectDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// The marker as the older version wrote it: "postgres://" + host + path.
	old, err := json.Marshal(storeMarker{Version: 1, Source: fmt.Sprintf("postgres://%s/%s", cfg.Host, cfg.Database), Destination: dir, StartedAt: time.Now().UTC()})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, migrate.MarkerName), old, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := fromStore(ctx, url, nil, paths, nil, nil, nil); err != nil {
		t.Fatalf("the rerun refused the older version's marker: %v", err)
	}
	if _, err := os.Stat(filepath.Join(paths.SessionsDir, "a"+session.LogSuffix)); err != nil {
		t.Errorf("the rerun did not copy the session: %v", err)
	}
	if err := migrate.CheckComplete(dir); err != nil {
		t.Errorf("the rerun left the marker: %v", err)
	}
}

// A URL without a database connects to the database named after its user:
// the marker names that database, so that the rerun of another user's run
// (another database) is refused rather than taken for the same one.
func TestStoreSourceNamesTheUsersDatabase(t *testing.T) {
	t.Setenv("PGDATABASE", "")
	t.Setenv("PGUSER", "")
	t.Setenv("PGPORT", "")
	alice, bob := storeSource("postgres://alice@db.example/"), storeSource("postgres://bob@db.example")
	if alice == bob {
		t.Errorf("alice's and bob's databases have one name: %q", alice)
	}
	if got, want := alice, storeSource("postgres://alice@db.example/alice"); got != want {
		t.Errorf("one database, two names: %q and %q", got, want)
	}
	t.Setenv("PGDATABASE", "app")
	if got, want := storeSource("postgres://alice@db.example"), "postgres://db.example:5432/app"; got != want {
		t.Errorf("with PGDATABASE: %q, want %q", got, want)
	}
}
