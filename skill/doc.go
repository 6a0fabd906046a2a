// Package skill finds skills, Markdown instructions in files named
// SKILL.md, lists them in the system prompt and gives the model the
// load_skill tool to read one.
//
// # Where skills are found
//
// [Load] walks, in this order:
//
//   - <home>/skills, the global skills;
//   - <workdir>/.<namespace>/skills, the project's skills;
//   - an extra directory the host names, if any.
//
// No other directory is consulted: with the namespace "acme", project
// skills live in .acme/skills, and a .lite-agent/skills beside it is
// ignored. Each directory is walked recursively and every file named
// exactly SKILL.md is a skill. A skill with the same name as an earlier one
// replaces it, so project skills shadow global ones and the extra directory
// shadows both.
//
// # File format
//
// A SKILL.md starts with optional YAML frontmatter between two "---" lines,
// followed by a Markdown body:
//
//	---
//	name: release-notes
//	description: Write release notes from the merged pull requests.
//	tags: [docs, release]
//	---
//	# Release notes
//
//	1. List the pull requests merged since the last tag ...
//
// name defaults to the name of the file's directory; description defaults
// to "No description"; tags is a string or a list of strings. Other keys
// are ignored. The body is trimmed. A file over 256 KiB, invalid UTF-8,
// unterminated frontmatter, YAML that is malformed or not a mapping,
// duplicate keys, a name or description that is not a scalar, an empty
// name or one with control characters fails [Load] with an *[Error] naming
// the file, unless [LoadOptions.OnInvalid] asks to skip such files.
// Symbolic links inside a skills directory are never followed.
//
// # In the agent
//
// [PromptSection] is the Skills section of the default system prompt, one
// line per skill:
//
//	# Skills
//	Skills hold instructions for particular kinds of work. …
//	  - release-notes: Write release notes from the merged pull requests. [docs, release]
//
// and [Tool] is load_skill, offered only when a skill exists, which returns
// a skill's body wrapped in <skill name="…"> … </skill>. Skills are read
// once, by Load; the tool serves the bodies loaded then.
package skill
