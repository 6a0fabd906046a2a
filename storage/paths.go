package storage

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
)

// The names of the directories of the data home's project layout:
// <home>/<ProjectsDirName>/<hash>/{<SessionsDirName>,<TasksDirName>,<SpillDirName>}.
// Code that walks a data home (migration, retention, verification) matches
// entries against these; code that has a [ProjectPaths] uses its fields and
// methods instead.
const (
	ProjectsDirName = "projects"
	SessionsDirName = "sessions"
	TasksDirName    = "tasks"
	SpillDirName    = "spill"
)

// ProjectsDir returns the directory holding every project's runtime data
// under the data home home: <home>/projects.
func ProjectsDir(home string) string { return filepath.Join(home, ProjectsDirName) }

// IsProjectHash reports whether name has the form of a [ProjectHash]: 16
// lowercase hex digits.
func IsProjectHash(name string) bool {
	if len(name) != 16 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// PathsOptions is the input of [ResolveProjectPaths].
type PathsOptions struct {
	// Workdir is the project directory. "" means the working directory.
	Workdir string
	// Storage selects the namespace and the home.
	Storage Options
	// Home is the data home.
	//
	// Deprecated: set Storage.Home. Home is accepted when it resolves to the
	// same directory as Storage.Home (or Storage.Home is empty) and rejected
	// otherwise.
	Home string
}

// ProjectPaths is the resolved layout of one project under one data home and
// namespace. Every path is absolute and lexically clean.
type ProjectPaths struct {
	// Home is the data home: <home>.
	Home string `json:"home"`
	// Namespace is the namespace that selected the layout.
	Namespace string `json:"namespace"`
	// ProjectConfigDir is <workdir>/.<namespace>.
	ProjectConfigDir string `json:"projectConfigDir"`
	// Hash is the project hash, see [ProjectHash].
	Hash string `json:"hash"`
	// SessionsDir is <home>/projects/<hash>/sessions.
	SessionsDir string `json:"sessionsDir"`
	// TasksDir is <home>/projects/<hash>/tasks.
	TasksDir string `json:"tasksDir"`
	// SpillDir is <home>/projects/<hash>/spill.
	SpillDir string `json:"spillDir"`
	// GlobalSkillsDir is <home>/skills.
	GlobalSkillsDir string `json:"globalSkillsDir"`
	// ProjectSkillsDir is <workdir>/.<namespace>/skills.
	ProjectSkillsDir string `json:"projectSkillsDir"`
	// GlobalAgentsDir is <home>/agents.
	GlobalAgentsDir string `json:"globalAgentsDir"`
	// ProjectAgentsDir is <workdir>/.<namespace>/agents.
	ProjectAgentsDir string `json:"projectAgentsDir"`
}

// ResolveProjectPaths resolves the namespace, the data home and the project
// layout. It is pure: it reads the environment and the working directory but
// creates nothing on disk.
//
// The namespace is validated first. A Storage.Home of only whitespace is
// rejected; the deprecated Home conflicting with Storage.Home is rejected
// with a message containing "conflict". Without an explicit home,
// [DefaultHome] applies (so LITE_AGENT_HOME counts for the default namespace
// only). Errors are *[Error].
func ResolveProjectPaths(opts PathsOptions) (ProjectPaths, error) {
	ns := namespaceOrDefault(opts.Storage.Namespace)
	if err := ValidateNamespace(ns); err != nil {
		return ProjectPaths{}, err
	}
	home, err := resolveHome(ns, opts.Storage.Home, opts.Home)
	if err != nil {
		return ProjectPaths{}, err
	}
	wd, err := absPath(opts.Workdir)
	if err != nil {
		return ProjectPaths{}, err
	}
	hash := hashAbs(wd)
	project := filepath.Join(ProjectsDir(home), hash)
	config := filepath.Join(wd, "."+ns)
	return ProjectPaths{
		Home:             home,
		Namespace:        ns,
		ProjectConfigDir: config,
		Hash:             hash,
		SessionsDir:      filepath.Join(project, SessionsDirName),
		TasksDir:         filepath.Join(project, TasksDirName),
		SpillDir:         filepath.Join(project, SpillDirName),
		GlobalSkillsDir:  filepath.Join(home, "skills"),
		ProjectSkillsDir: filepath.Join(config, "skills"),
		GlobalAgentsDir:  filepath.Join(home, "agents"),
		ProjectAgentsDir: filepath.Join(config, "agents"),
	}, nil
}

// resolveHome applies the home resolution order: conflict check, empty
// check, storage home, deprecated home, default home.
func resolveHome(ns, storageHome, legacyHome string) (string, error) {
	if storageHome != "" && strings.TrimSpace(storageHome) == "" {
		return "", &Error{Op: "resolve", Message: "storage.home must not be empty"}
	}
	if legacyHome != "" && strings.TrimSpace(legacyHome) == "" {
		return "", &Error{Op: "resolve", Message: "home must not be empty"}
	}
	switch {
	case storageHome != "" && legacyHome != "":
		a, err := absPath(storageHome)
		if err != nil {
			return "", err
		}
		b, err := absPath(legacyHome)
		if err != nil {
			return "", err
		}
		if a != b {
			return "", &Error{Op: "resolve", Message: "home and storage.home conflict; use storage.home"}
		}
		return a, nil
	case storageHome != "":
		return absPath(storageHome)
	case legacyHome != "":
		return absPath(legacyHome)
	default:
		return DefaultHome(ns)
	}
}

// ProjectHash returns the project hash of workdir: the first 16 lowercase hex
// characters of the SHA-1 of the absolute, lexically cleaned path. Symlinks
// are not resolved and case is not folded; the home and the namespace play no
// part, so moving only the data home keeps every project hash.
func ProjectHash(workdir string) (string, error) {
	wd, err := absPath(workdir)
	if err != nil {
		return "", err
	}
	return hashAbs(wd), nil
}

func hashAbs(abs string) string {
	sum := sha1.Sum([]byte(abs))
	return hex.EncodeToString(sum[:])[:16]
}

// NameMax is the longest file name, in bytes, that the file systems a
// data home lives on accept: NAME_MAX, 255 on Linux (ext4, xfs, btrfs,
// tmpfs), macOS (APFS) and the BSDs.
const NameMax = 255

// lockSuffixOfLog is what the lock of a session log adds to its id,
// <id>.jsonl.lock: the longest name the TypeScript reference makes from an
// id, so that its ids are at most NameMax minus this, 244 characters.
const lockSuffixOfLog = len(".jsonl.lock")

// MaxIDLength is the longest valid session or task-list id, in characters
// (bytes, since only ASCII is allowed): 244, what the file system's name
// limit ([NameMax], 255 bytes) leaves for the lock of a session log,
// <id>.jsonl.lock, the longest name the TypeScript reference makes from
// every id it writes. Neither the spec nor the reference has a limit of
// its own; an id longer than this fails there on the first lock.
//
// Every other name made from an id fits too: a name whose usual form would
// be longer than NameMax takes a shorter form, recognised by every reader
// of a data home (see [FitName]): the copies of a log set aside by a
// repair or an append, <id>.broken-<n> and <id>.torn-<n> instead of
// <id>.jsonl.broken-<unix ms> and <id>.jsonl.torn-<unix ms>; a log being
// deleted, <id>.deleting instead of <id>.jsonl.deleting; the lock of a
// context archive, <id>.c.lock instead of <id>.context.lock; and a
// temporary file, its record's name cut short. Longer ids are refused by
// [ValidateID] with [ErrIDTooLong], before any file is made, by every
// backend (a Store on PostgreSQL too, so that its sessions can move to a
// data home and back). It was 228 before (the longest usual name,
// <id>.jsonl.broken-<unix ms>, had to fit), which refused sessions the
// reference wrote with ids of 229 to 244 characters, and 128 before that.
const MaxIDLength = NameMax - lockSuffixOfLog

// FitName reports whether name fits in a directory entry ([NameMax]
// bytes). Stores use it to choose between the usual form of a name made
// from an id and its shorter form.
func FitName(name string) bool { return len(name) <= NameMax }

// ErrIDTooLong is the cause of the *[Error] that [ValidateID] returns for
// an id longer than [MaxIDLength]: errors.Is(err, storage.ErrIDTooLong).
var ErrIDTooLong = errors.New("id too long")

// validID reports whether id matches ^[A-Za-z0-9_-]{1,MaxIDLength}$.
func validID(id string) bool {
	return id != "" && len(id) <= MaxIDLength && idChars(id)
}

// idChars reports whether id holds only ASCII letters, digits, underscores
// and hyphens.
func idChars(id string) bool {
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// ValidateID reports whether id may name a built-in file session or task
// list: one to [MaxIDLength] ASCII letters, digits, underscores or hyphens.
// Invalid ids are rejected, never rewritten. The error is a *[Error]; for
// an id that is only too long, it wraps [ErrIDTooLong].
func ValidateID(id string) error {
	if len(id) > MaxIDLength && idChars(id) {
		return (&Error{Op: "validate", Record: quoteID(id), Message: "ids must be at most " + strconv.Itoa(MaxIDLength) + " characters (file names made from them must fit in " + strconv.Itoa(NameMax) + " bytes)"}).WithCause(ErrIDTooLong)
	}
	if !validID(id) {
		return &Error{Op: "validate", Record: quoteID(id), Message: "ids must contain only letters, digits, underscores or hyphens"}
	}
	return nil
}

// quoteID renders a rejected id for an error message without letting control
// characters or very long input through.
func quoteID(id string) string {
	const max = 80
	if len(id) > max {
		id = id[:max] + "…"
	}
	return strconv.Quote(id)
}

// SessionContextDir returns the per-session context archive directory for
// sessionID under sessionsDir: <sessionsDir>/<id>.context for an id made of
// letters, digits, underscores and hyphens, else
// <sessionsDir>/session-<sha256 hex of id>.context, so that distinct ids
// never share a directory.
func SessionContextDir(sessionsDir, sessionID string) string {
	if validID(sessionID) {
		return filepath.Join(sessionsDir, sessionID+contextDirSuffix)
	}
	sum := sha256.Sum256([]byte(sessionID))
	return filepath.Join(sessionsDir, hashedContextPrefix+hex.EncodeToString(sum[:])+contextDirSuffix)
}

const (
	contextDirSuffix    = ".context"
	hashedContextPrefix = "session-"
)

// ParseContextDirName reports whether name is the base name of a context
// archive directory (see [SessionContextDir]) and returns its stem, the
// name without ".context": the session id for a session whose id is a
// valid file id. hashed reports a name of the form session-<64 hex>.context,
// which is what the directory of a session with any other id is called; its
// stem is not that session's id, which the name does not recover (a valid
// id may also have that form: hashed says only what the name looks like).
func ParseContextDirName(name string) (id string, hashed, ok bool) {
	id, ok = strings.CutSuffix(name, contextDirSuffix)
	if !ok || !validID(id) {
		return "", false, false
	}
	h, hashed := strings.CutPrefix(id, hashedContextPrefix)
	hashed = hashed && len(h) == 2*sha256.Size && strings.Trim(h, "0123456789abcdef") == ""
	return id, hashed, true
}

// Workdir is the project directory the layout was resolved for: the parent
// of ProjectConfigDir.
func (p ProjectPaths) Workdir() string { return filepath.Dir(p.ProjectConfigDir) }

// ProjectDir is the directory of the project's runtime data in the data
// home, <home>/projects/<hash>: the parent of SessionsDir, TasksDir and
// SpillDir, and what a migration of one project copies.
func (p ProjectPaths) ProjectDir() string { return filepath.Dir(p.SessionsDir) }

// ArchiveDir is the context archive directory of session sessionID, see
// [SessionContextDir].
func (p ProjectPaths) ArchiveDir(sessionID string) string {
	return SessionContextDir(p.SessionsDir, sessionID)
}

// TaskListDir is the directory of task list listID: <TasksDir>/<listID>.
// listID is not validated; see [ValidateID].
func (p ProjectPaths) TaskListDir(listID string) string { return filepath.Join(p.TasksDir, listID) }

// ProtectedPaths lists, as absolute lexically clean paths, what the agent's
// own tools must never write or delete: the data home, the project's
// permissions.json, hooks.json, mcps.json, agents/ and skills/ under
// ProjectConfigDir, and the workdir's .git/hooks and .git/config, and
// .git/commondir and .git/config.worktree (which make git read
// configuration, and so run code, from elsewhere; they rarely exist). A path
// in the list protects everything beneath it. Host code may still write
// them; callers compare canonical paths (symlinks resolved), not names.
func (p ProjectPaths) ProtectedPaths() []string {
	wd := p.Workdir()
	return []string{
		p.Home,
		filepath.Join(p.ProjectConfigDir, "permissions.json"),
		filepath.Join(p.ProjectConfigDir, "hooks.json"),
		filepath.Join(p.ProjectConfigDir, "mcps.json"),
		p.ProjectAgentsDir,
		p.ProjectSkillsDir,
		filepath.Join(wd, ".git", "hooks"),
		filepath.Join(wd, ".git", "config"),
		filepath.Join(wd, ".git", "commondir"),
		filepath.Join(wd, ".git", "config.worktree"),
	}
}
