package migration

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/migrate"
)

// The marker of migrate --from-store names the database by host and
// database only: it is a file in the data home, and the refusal of a
// rerun from another database prints it. postgres.Open takes a
// keyword/value connection string as well as a URL; before the fix the
// marker held such a string whole, password included:
// {"source":"postgres://host=127.0.0.1 port=… user=postgres password=… dbname=postgres",…}.
func TestFromStoreMarkerHoldsNoPassword(t *testing.T) {
	url := pgtest.URL(t)
	ctx := t.Context()
	cfg, err := pgconn.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Password == "" {
		t.Skip("the test database has no password")
	}
	dsn := fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s", cfg.Host, cfg.Port, cfg.User, cfg.Password, cfg.Database)
	paths, p := dbProjectAt(t, dsn)
	appendSessionA(t, p)
	var marker []byte
	marked := func() {
		if marker, err = os.ReadFile(filepath.Join(paths.ProjectDir(), migrate.MarkerName)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := fromStore(ctx, dsn, nil, paths, nil, marked, nil); err != nil {
		t.Fatalf("FromStore with a keyword/value string: %v", err)
	}
	if strings.Contains(string(marker), cfg.Password) || strings.Contains(string(marker), "user=") {
		t.Errorf("the marker holds the connection string's secrets: %s", strings.ReplaceAll(string(marker), cfg.Password, "<password>"))
	}
	for _, tc := range []struct{ in, want string }{
		{dsn, fmt.Sprintf("postgres://%s:%d/%s", cfg.Host, cfg.Port, cfg.Database)},
		{"postgres://u:pw@db.example:5433/app?sslmode=disable", "postgres://db.example:5433/app"},
		{"postgresql://u:pw@db.example/app", "postgres://db.example:5432/app"},
	} {
		if got := storeSource(tc.in); got != tc.want || strings.Contains(got, "pw") {
			hide := strings.NewReplacer(cfg.Password, "<password>")
			t.Errorf("storeSource(%q) = %q, want %q", hide.Replace(tc.in), hide.Replace(got), tc.want)
		}
	}
}
