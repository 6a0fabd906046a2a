// Package builtin holds the agent's built-in tools: the file tools
// (read_file, write_file, edit_file, delete_file), the read-only search
// tools (glob, grep, list_dir), the task tools (TaskCreate, TaskUpdate,
// TaskGet, TaskList) and the context tool with its read_spilled alias.
// The bash tool and its background commands are in package
// [github.com/lite-agent/lite-agent-go/tool/builtin/bash]. Every tool is built with [tool.New], so its input
// is validated against its schema before the handler runs, and every
// handler honours its context.
//
// The tools take what they work on from their options, and what depends on
// the call (the session's task list, its archive, its read roots) from
// functions of the call's session, which they find in the [tool.Call] they
// receive.
//
// # Workspace rules
//
// The file tools work in one workspace directory. A relative path resolves
// against it and may use ".." only while it stays inside; an absolute path
// must lie inside it. Either breaks with "Path escapes workspace: <path>".
// read_file alone may also read absolute paths inside read roots: host
// directories or files given in [FileOptions.ReadRoots] and, per call,
// [FileOptions.SessionReadRoots] — for example the calling session's own
// log and archive directory, which [SessionDataRoots] gives only when the
// session's storage has no codec (with a codec the stored bytes are
// encoded, and the model reads archived content through the context tool).
//
// read_file follows symbolic links while the file they lead to stays
// inside the workspace (or inside the read root the path was given in);
// otherwise "Symlink escapes workspace: <path>". With [SymlinksDeny] it
// follows none. write_file, edit_file and delete_file never follow or
// replace a symbolic link: a path with a link in any component, a dangling
// final link included, fails with
// "Symlink paths are not allowed for write: <path>" (or "delete").
//
// The mutating tools open the file's parent directory beneath the
// workspace in one step, refusing every link on the way: on Linux with
// openat2 and RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS, elsewhere (and on
// kernels without openat2) one component at a time with O_NOFOLLOW. The
// temporary file is created, renamed over the target and, on any error,
// removed relative to that open directory, so a directory swapped for a
// link while a call runs cannot redirect the change, and no temporary file
// is left behind.
//
// # Protected paths
//
// write_file, edit_file and delete_file never create, change or delete
// a path in [FileOptions.Protected] or beneath one; the agent passes the
// data home, the project's permissions.json, hooks.json, mcps.json,
// agents/ and skills/, and .git/hooks and .git/config
// ([storage.ProjectPaths.ProtectedPaths]). The call fails with the text of
// a [ProtectedPathError]. The check compares the path below the real
// workspace by name, ignoring letter case, and the device and inode of
// every directory from the workspace to the opened parent and of the file
// itself, so "..", a case variant, an absolute spelling through a linked
// workdir or a hard link to a protected file are refused alike. read_file
// is not affected, and host code may still write these files. Not covered:
// a hard link in the workspace to a file outside it can be read (writes
// replace the link, never the file), and a concurrent process that renames
// whole directories (not the tools, but a command) can move the directory
// a write was checked in; the command sandbox is what contains that.
//
// A missing file gives read_file and edit_file a hint:
//
//	File not found: src/util/strings.go
//	Path "src/util" does not exist. Nearest existing directory "src" contains: main.go, text.
//	A file named "strings.go" exists at: src/text/strings.go (relative to the workspace root).
//
// listing up to 30 names of the nearest existing directory (hidden ones
// left out) and up to 5 files of the same name, found breadth first within
// 8 levels and 20,000 directory entries, skipping hidden directories,
// node_modules, dist and coverage.
//
// # Search
//
// [SearchTools] returns glob, grep and list_dir, which read under the
// rules above for read_file: the path they are given resolves as
// read_file's would, and below it they follow no symbolic link at all, so
// a link can neither lead a search out of the workspace nor make it loop.
// They open the path they resolved, and every directory and file below
// it, without following a link (as the mutating tools open theirs), so a
// link put in the place of a directory after the gate and the filter
// judged its name cannot lead a search to another file of the workspace
// either; the search then says the path kept changing. The path they
// resolved is handed to the checks of the call's context
// ([tool.CheckPath]) first, as read_file's is: the gate checks that grep
// searches what it decided about. A .gitignore that
// is a symbolic link is not read, as git does not read one.
// In the workspace, glob and grep skip the .git directory and what the
// .gitignore files (from the workspace root down, negations included) and
// .git/info/exclude ignore. A [SearchOptions.Readable] filter, which the
// agent gives the permission policy's read_file verdict, hides every file
// read_file may not read; grep does not open such a file, and each result
// says how many it left out.
//
//	glob {"pattern": "src/**/*.go"}      src/b.go, src/a/a.go (newest first, at most 100)
//	grep {"pattern": "func \w+", "type": "go"}
//	                                     src/a/a.go:3: func A() {}
//	list_dir {"path": "src"}             a/ (dir)
//	                                     b.go (file, 120 bytes)
//
// Patterns use the project's glob syntax ("**" for any number of
// segments, "{a,b}" alternatives); grep takes Go regular expressions and
// searches line by line, skips binary files (a NUL byte in the first 8,000
// bytes) and files over [FileOptions.MaxFileBytes], and shows at most 500
// characters of a line. Every result stays within
// [SearchOptions.MaxOutputChars] (50,000 characters by default) and ends
// with a note when something was cut or left out.
//
// # Changes and snapshots
//
// Before every change, the mutating tools give the [SnapshotRecorder] a
// [session.FileSnapshotEvent] with the file's previous content (UTF-8 text,
// or base64 for other bytes; nothing for a new file, and Truncated for one
// larger than [FileOptions.MaxSnapshotBytes]) and the SHA-256 of its new
// content (or Deleted). When recording fails, nothing is changed. Writes are
// atomic: the content goes to a temporary file beside the target, which is
// synced and renamed over it, keeping the old file's mode; missing parent
// directories are created. New files and directories get the usual modes
// under the umask (0644 and 0755), since they belong to the project.
//
// edit_file replaces the first occurrence of old_text literally: "$&",
// "$$" and similar patterns in new_text have no special meaning. When old_text does not occur the
// result is "Error: Text not found in <path>", which is not marked as an
// error, so the model simply tries again.
//
// # Large files
//
// read_file returns at most 50,000 characters, counted in UTF-16 code
// units, and marks a cut. When the text it would return is
// longer than 50,000 bytes and the session has an archive
// ([FileOptions.Archive]), it stores the whole file there instead and
// returns
//
//	[tool result archived: <ref>] <bytes> bytes from <path>.
//	<preview>
//	Read the complete file in pages using context({ref: "<ref>", offset: 0}).
//
// A limit that selects few enough lines returns them directly, even from a
// large file.
//
// # Tasks and the archive
//
// The task tools work on the [task.Store] a [TaskStoreFunc] returns for the
// call; [TaskReminder] renders the active tasks as the reminder the engine
// adds to every model request without storing it. The context tool searches
// or pages through the [archive.Archive] an [ArchiveResolver] returns, and
// read_spilled is the same tool under its older name.
package builtin
