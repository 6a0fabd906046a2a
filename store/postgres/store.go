package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lite-agent/lite-agent-go/storage"
)

// DefaultSchema is the schema that holds the tables when Options.Schema is
// empty.
const DefaultSchema = "lite_agent"

// DefaultLeaseTTL is how long a session lease lives without being renewed
// when Options.LeaseTTL is zero.
const DefaultLeaseTTL = 30 * time.Second

// Options configures a [Store]. The zero value uses the schema
// [DefaultSchema] and leases of [DefaultLeaseTTL].
type Options struct {
	// Schema is the PostgreSQL schema holding the store's tables, so that
	// one database can serve several deployments. It must match
	// ^[a-z_][a-z0-9_]{0,62}$; "" means DefaultSchema. It is created on
	// first use.
	Schema string
	// MaxConns caps the connection pool; 0 means pgxpool's default (the
	// larger of 4 and the number of CPUs).
	MaxConns int32
	// LeaseTTL is how long a session lease lives after its last renewal;
	// a holder renews it every third of that while it runs, and a crashed
	// holder's lease expires after it. 0 means DefaultLeaseTTL; it is
	// rounded up to a whole number of milliseconds, the database's unit.
	LeaseTTL time.Duration
	// Holder names this process in leases and in the *BusyError another
	// process gets; "" means "<hostname>:<pid>".
	Holder string
}

// A Store is a lite-agent store on one PostgreSQL database and schema. It
// provides, per namespace and project, the contracts the file home provides
// (see [Store.Project]). It is safe for concurrent use; several processes on
// several hosts may open the same database and schema at once.
//
// Make a Store with [Open]: the zero Store is not usable. Its Close does
// nothing and its other methods fail with [ErrNotOpen].
type Store struct {
	pool   *pgxpool.Pool
	conns  *connSet // the pool's network connections: see Close
	schema string
	q      queries
	ttl    time.Duration
	holder string
	target target
	// bg counts the goroutines that finish the INSERT of an Acquire whose
	// caller left (see Project.insertLease); Close waits for them.
	bg sync.WaitGroup
	// checks is the connection of the checks after a lost reply (see
	// checkConn).
	checks *checkShared
	// life ends when Close has waited for the Acquires left running: a
	// check after a lost reply still under way (see checkBound) ends
	// with it, rather than dial the database for up to the lease's TTL
	// after Close, and so do the renewals of leases still held.
	life    context.Context
	endLife context.CancelFunc
	// settling holds, per session, a channel closed once the lease an
	// abandoned Acquire may have taken is released (see insertLease); an
	// Acquire of the session through any Project of the Store waits for
	// it (the lease names this Store's holder). Made on first use.
	settleMu sync.Mutex
	settling map[leaseKey]chan struct{}
	// unreleased holds, per session, the token of a lease of this Store
	// whose Release failed (the database was unreachable, or restarting):
	// the next Acquire of the session through any Project of the Store
	// ends it first, as Release would have, instead of finding the
	// session busy under this Store's own name until the lease's TTL.
	// An entry whose lease has expired (its TTL passed since the failed
	// Release) is dropped whenever an entry is added or ended, so that the
	// map of a Store whose released sessions are never acquired again does
	// not grow without bound. Guarded by settleMu; made on first use.
	unreleased map[leaseKey]unreleasedLease

	sweepChose func()              // tests only: see export_test.go
	backendPID func(uint32) uint32 // tests only: see export_test.go
	clock      func() time.Time    // tests only (see export_test.go); nil is time.Now
}

// target names a database in errors: never the password.
type target struct {
	host, database, user string
}

func (t target) String() string {
	return fmt.Sprintf("host %s database %s user %s", t.host, t.database, t.user)
}

// validSchema reports whether name matches ^[a-z_][a-z0-9_]{0,62}$, an
// unquoted PostgreSQL identifier. A function, not a regexp: the bounded
// repetition compiles to a large program, and every lite-agent command
// would compile it at start-up.
func validSchema(name string) bool {
	if name == "" || len(name) > 63 || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := range len(name) {
		if c := name[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// Open connects to the database named by dsn (a postgres:// or
// postgresql:// URL, or a libpq key=value string) and makes sure the schema
// exists with the version this package writes: an empty or missing schema
// is created, under an advisory lock so that concurrent first users do not
// race; a schema of another version is refused with a *[SchemaError].
//
// Errors never hold the password: a dsn that does not parse is a
// *[ConfigError]; a database that cannot be reached, refuses the login or
// does not answer before ctx ends is a *[ConnectError] naming host,
// database and user (errors.Is(err, context.DeadlineExceeded) tells the
// last). A failed Open closes what it opened as [Store.Close] does: on a
// database that stopped answering, it returns about 2 s after ctx ended.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	schema := opts.Schema
	if schema == "" {
		schema = DefaultSchema
	}
	if !validSchema(schema) {
		return nil, &ConfigError{Message: fmt.Sprintf("invalid schema name %q: want ^[a-z_][a-z0-9_]{0,62}$", schema)}
	}
	if opts.LeaseTTL < 0 {
		return nil, &ConfigError{Message: "negative LeaseTTL"}
	}
	if scheme, _, ok := strings.Cut(dsn, "://"); ok && !strings.ContainsAny(scheme, " =") && scheme != "postgres" && scheme != "postgresql" {
		return nil, &ConfigError{Message: fmt.Sprintf("unknown URL scheme %q: want postgres:// or postgresql://", scheme)}
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, &ConfigError{Message: "invalid connection string: " + parseProblem(err, dsn)}
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	cfg.PrepareConn = prepareConn
	conns := &connSet{}
	cfg.ConnConfig.DialFunc = conns.dial(cfg.ConnConfig.DialFunc)
	cc := cfg.ConnConfig
	t := target{host: net.JoinHostPort(cc.Host, strconv.Itoa(int(cc.Port))), database: cc.Database, user: cc.User}
	if strings.HasPrefix(cc.Host, "/") {
		t.host = cc.Host
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, &ConnectError{target: t, cause: scrub(err, cc.Password)}
	}
	s := &Store{
		pool:   pool,
		conns:  conns,
		schema: schema,
		q:      newQueries(pgx.Identifier{schema}.Sanitize()),
		ttl:    opts.LeaseTTL,
		holder: opts.Holder,
		target: t,
		checks: newCheckShared(),
	}
	s.life, s.endLife = context.WithCancel(context.Background())
	if s.ttl == 0 {
		s.ttl = DefaultLeaseTTL
	}
	// The server counts a lease's life in whole milliseconds: a TTL cut
	// there would make the lease shorter than the bounds the Store keeps
	// by it (leaseLanded reads its row back within the TTL counted from
	// before its transaction began, and finds it live only if the row
	// lives at least that long).
	if r := s.ttl % time.Millisecond; r != 0 {
		s.ttl += time.Millisecond - r
	}
	if s.holder == "" {
		host, _ := os.Hostname()
		s.holder = host + ":" + strconv.Itoa(os.Getpid())
	}
	if err := s.ensureSchema(ctx); err != nil {
		// Closed as Close does: on a database that stopped answering, a
		// bare pool close waits 15 s for each connection's goodbye (and
		// for the cancel request pgx sends for one closed under its
		// statement); Close gives them closeGrace.
		s.Close()
		var se *SchemaError
		if errors.As(err, &se) {
			return nil, err
		}
		if cerr := ctx.Err(); cerr != nil {
			// A server that accepts and never answers (or one slower
			// than the deadline): still named, and errors.Is(err,
			// context.DeadlineExceeded) (or Canceled) holds.
			return nil, &ConnectError{target: t, cause: "no answer before the context ended: " + cerr.Error(), err: cerr}
		}
		return nil, &ConnectError{target: t, cause: scrub(err, cc.Password)}
	}
	return s, nil
}

// Close closes the connection pool. Leases still held are not released
// (release them first), nor renewed any more; they expire after their
// TTL. It first waits for
// the statements of Acquires whose callers gave up and the release of what
// they took, which would otherwise fail on the closed pool and leave the
// session busy until its TTL: while the database answers (a statement
// waiting for a lock), for up to the lease's TTL. On a database that does
// not answer, Close returns after about 2 to 3 s: it then closes every
// network connection of the Store (cancel requests under way among them),
// and an Acquire's lease left taken expires after its TTL. A write still
// asking whether its lost reply landed (see [OutcomeUnknownError]) is
// then ended: it fails with an *OutcomeUnknownError. Call it only once no
// other call of the Store runs. On a nil or zero Store (one not
// made by Open) it does nothing.
func (s *Store) Close() {
	if !s.open() {
		return
	}
	bg := make(chan struct{})
	go func() {
		s.bg.Wait()
		close(bg)
	}()
	// A statement left running in the background is not cut while the
	// database answers: cut, it may still commit (the server does not
	// look at the connection while it waits for a lock), and what it took
	// would never be released. Its own bound is the lease's TTL.
	for waiting := true; waiting; {
		select {
		case <-bg:
			waiting = false
		case <-time.After(closeGrace):
			if !s.answers() {
				s.conns.close()
				<-bg
				waiting = false
			}
		}
	}
	// The checks of writes whose reply was lost end, and dial no more.
	s.endLife()
	// On a database that stopped answering, the goodbyes never end (see
	// closeGrace): the connections are closed under them.
	grace := time.AfterFunc(closeGrace, s.conns.close)
	defer grace.Stop()
	s.pool.Close()
}

// answers reports whether the database answers a new connection's ping
// within half of closeGrace.
func (s *Store) answers() bool {
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace/2)
	defer cancel()
	c, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig)
	if err != nil {
		// The server's refusal (too many clients, say) is an answer.
		var pe *pgconn.PgError
		return errors.As(err, &pe)
	}
	defer c.Close(ctx)
	return c.Ping(ctx) == nil
}

// Schema returns the schema the store uses.
func (s *Store) Schema() string { return s.schema }

// Project returns the stores of one namespace and project: enc.Namespace
// and enc.ProjectID select the rows (and "" means storage.DefaultNamespace
// and storage.StandaloneProject, as for files), and enc encodes every
// payload with the same storage.Context a file store binds. It fails with a
// *storage.Error for an invalid namespace or codec, and with [ErrNotOpen] on
// a Store not made by Open.
func (s *Store) Project(enc storage.Encoding) (*Project, error) {
	if !s.open() {
		return nil, ErrNotOpen
	}
	frozen, err := enc.Frozen()
	if err != nil {
		return nil, err
	}
	sc := frozen.Context(storage.KindCheckpoint, "", "")
	p := &Project{s: s, enc: frozen, ns: sc.Namespace, project: sc.ProjectID, leases: map[string]*Lease{}}
	p.cp = &Checkpointer{p: p}
	return p, nil
}

// A Project is the stores of one namespace and project in a [Store]. It is
// safe for concurrent use. Get one from [Store.Project]: the zero Project
// is not usable.
type Project struct {
	s           *Store
	enc         storage.Encoding
	ns, project string
	cp          *Checkpointer

	mu     sync.Mutex
	leases map[string]*Lease // session id -> lease held through this Project
	// tokensReady is set once the project's high-water row of lease
	// tokens is known to exist (see leaseTokensRow).
	tokensReady bool

	heads headCache

	importChecked  func()          // tests only: see export_test.go
	importCopied   func()          // tests only: see export_test.go
	importSession  func(id string) // tests only: see export_test.go
	importVerified func()          // tests only: see export_test.go
	importKept     func()          // tests only: see export_test.go
}

// ConfigError reports a connection string or option that cannot be used.
// Its message never holds the password.
type ConfigError struct {
	// Message says what cannot be used, without the password.
	Message string
}

// Error returns "postgres: " and the message.
func (e *ConfigError) Error() string { return "postgres: " + e.Message }

// ConnectError reports a database that could not be reached or refused the
// connection (wrong password, missing permission, unknown database), or
// that did not answer before Open's context ended. Its message names host,
// database and user, never the password.
type ConnectError struct {
	target target
	cause  string
	err    error // the context's error, when it ended first
}

// Unwrap returns the context's error when the context ended before the
// database answered (errors.Is(err, context.DeadlineExceeded)), and nil
// otherwise.
func (e *ConnectError) Unwrap() error { return e.err }

// Error names host, database and user and says why the connection failed.
func (e *ConnectError) Error() string {
	return "postgres: " + e.target.String() + ": " + e.cause
}

// Host returns the host (and port) the connection was for.
func (e *ConnectError) Host() string { return e.target.host }

// Database returns the database the connection was for.
func (e *ConnectError) Database() string { return e.target.database }

// SchemaError reports a schema this package cannot use: one written by
// another version, or one holding tables that are not ours. Nothing was
// changed in it.
type SchemaError struct {
	// Schema is the schema's name.
	Schema string
	// Found is the version recorded in the schema, or 0 if it holds
	// foreign tables and no version; Want is the version this package
	// uses.
	Found, Want int
}

// Error names the schema and its version and says what to do.
func (e *SchemaError) Error() string {
	if e.Found == 0 {
		return fmt.Sprintf("postgres: schema %q holds tables but no lite-agent schema version: choose an empty schema (Options.Schema, or ?search_path in --store)", e.Schema)
	}
	if e.Found > e.Want {
		return fmt.Sprintf("postgres: schema %q has version %d, newer than this build's %d: upgrade lite-agent, or use another schema", e.Schema, e.Found, e.Want)
	}
	return fmt.Sprintf("postgres: schema %q has version %d, older than this build's %d: copy it out with the build that wrote it (lite-agent migrate --from-store) and into a new schema with this one (lite-agent migrate --to-store); nothing is migrated in place", e.Schema, e.Found, e.Want)
}

// parseProblem describes why dsn does not parse without repeating it.
func parseProblem(err error, dsn string) string {
	msg := err.Error()
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) && pe.Unwrap() != nil {
		msg = pe.Unwrap().Error()
	}
	msg = strings.ReplaceAll(msg, dsn, "<dsn>")
	if u := strings.Index(dsn, "://"); u >= 0 {
		rest := dsn[u+3:]
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if c := strings.Index(rest[:at], ":"); c >= 0 {
				msg = scrub(errors.New(msg), rest[c+1:at])
			}
		}
	}
	return msg
}

// scrub returns err's text on one line, with every occurrence of password
// replaced. The driver reports each connection attempt (with and without
// TLS, each address of a host) on a line of its own; they become one line,
// "; " between them, an attempt that failed like the one before it once.
func scrub(err error, password string) string {
	msg := err.Error()
	if password != "" {
		msg = strings.ReplaceAll(msg, password, "xxxxx")
	}
	var parts []string
	for _, line := range strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' }) {
		line = strings.TrimSpace(line)
		if line != "" && !slices.Contains(parts, line) {
			parts = append(parts, line)
		}
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return parts[0] + " " + strings.Join(parts[1:], "; ")
}

// now returns the client's time: time.Now, or the test clock.
func (s *Store) now() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}
