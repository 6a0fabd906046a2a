package migration

import (
	"fmt"
	neturl "net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
)

// One database named by a URL and by a keyword/value string gets one name
// in the marker of migrate --from-store (host, port and database; never
// the password), so that the rerun of a run killed after marking the
// destination completes it, whichever way each names the database.
func TestFromStoreRerunAcceptsTheOtherSpellingOfTheDatabase(t *testing.T) {
	url := pgtest.URL(t)
	ctx := t.Context()
	// Spellings of one database agree; the password never shows.
	for _, pair := range [][2]string{
		{"postgresql://u:pw@DB.example/app", "host=db.example port=5432 dbname=app password=pw"},
		{"postgres://u@[::1]:5433/app?sslmode=disable", "host=::1 port=5433 dbname=app user=u"},
	} {
		a, b := storeSource(pair[0]), storeSource(pair[1])
		if a != b || strings.Contains(a+b, "pw") {
			t.Errorf("one database, two names: %q and %q", a, b)
		}
	}
	cfg, err := pgconn.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	dsn := fmt.Sprintf("host=%s port=%d user=%s dbname=%s", cfg.Host, cfg.Port, cfg.User, cfg.Database)
	if cfg.Password != "" {
		dsn += " password=" + cfg.Password
	}
	// A URL that leaves the port to its default, as most do: PGPORT, which
	// libpq and pgx honour, stands in for 5432 here.
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = u.Hostname()
	t.Setenv("PGPORT", strconv.Itoa(int(cfg.Port)))
	noPort := u.String()
	for _, tc := range []struct{ name, first, rerun string }{
		{"URL then keyword/value", noPort, dsn},
		{"keyword/value then URL", dsn, noPort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths, p := dbProjectAt(t, url)
			appendSessionA(t, p)
			// What a run naming the database the first way, killed once it
			// marked the destination, leaves.
			dir := paths.ProjectDir()
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := writeMarker(anchor(t, dir), storeSource(tc.first), false, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := fromStore(ctx, tc.rerun, nil, paths, nil, nil, nil); err != nil {
				t.Fatalf("the rerun naming the database the other way: %v", err)
			}
			if _, err := os.Stat(filepath.Join(paths.SessionsDir, "a"+session.LogSuffix)); err != nil {
				t.Errorf("the rerun did not copy the session: %v", err)
			}
			if err := migrate.CheckComplete(dir); err != nil {
				t.Errorf("the rerun left the marker: %v", err)
			}
		})
	}
}
