// Package audit keeps a tamper-evident log of what agents did: every
// event of their runs as one JSON line, each line carrying the hash of the
// line before it, so that an edit, a removal, a reordering or a
// duplication of records is found by [Verify], which names the first
// broken record.
//
// # Writing
//
// [NewLog] opens the log; [Log.Append] writes one [engine.Event] as a
// record. An agent's events reach it through [liteagent.Agent.SubscribeAll]
// (its own runs and its subagents'; Subscribe leaves subagents out), which
// calls its function before the run goes on, so that, with fsync (the
// default), each event is on the disk before the program sees it:
//
//	log, err := audit.NewLog("/var/log/agent/audit.jsonl", audit.Options{Key: key})
//	…
//	unsubscribe, err := agent.SubscribeAll(func(n liteagent.Notice) {
//		log.Append(context.Background(), n.Event) // a failure is kept for log.Err and log.Close
//	})
//
// Events are redacted before they are written ([Options.Redact]; by
// default the permission package's redactor, which hides likely secrets:
// keys, tokens, passwords, private keys, e-mail addresses).
//
// Several processes may append to one file: each Append takes the
// flock(2) of the lock file FILE.lock and reads where the chain stands
// before writing, so that their records form one chain. The kernel
// releases the lock of a process that dies, so a crash delays no one.
//
// # Format
//
// A log is a file of lines, each a JSON object with the members, in this
// order:
//
//	v         1, the format version
//	ts        the time of the append, UTC, in milliseconds
//	sessionId the session of the event
//	seq       1 for the first record, then one more for each record
//	prevHash  the previous record's hash; "" for the first
//	hash      the record's hash, 64 lowercase hex digits
//	event     the event, redacted (see below)
//
// The hash is SHA-256, or HMAC-SHA256 under [Options.Key], over prevHash,
// a newline, and the record's line without its hash member (the bytes
// from `,"hash":` to the end of its value cut out). For example (hashes
// shortened):
//
//	{"v":1,"ts":"2026-01-02T03:04:05.678Z","sessionId":"s1","seq":1,"prevHash":"","hash":"3f1c…","event":{"sessionId":"s1","turn":1,"type":"turn_start"}}
//	{"v":1,"ts":"2026-01-02T03:04:05.901Z","sessionId":"s1","seq":2,"prevHash":"3f1c…","hash":"a80e…","event":{"modelCall":{"model":"m"},"sessionId":"s1","turn":1,"type":"model_call_start"}}
//
// where the first hash is SHA-256 of "\n" followed by
// {"v":1,"ts":"2026-01-02T03:04:05.678Z","sessionId":"s1","seq":1,"prevHash":"","event":{…}}.
//
// The event member holds the event's type, sessionId, agentId, turn,
// text, message (a model message, as sessions store it), error and fatal,
// and one object per kind-specific part: tool (call, result, isError,
// durationMs), modelCall (model, usage, stopReason, durationMs; on a
// model_call_start, maxTokens, and maxTokensFrom, inputTokens and
// inputCounted when the engine lowered it), task, permission, retry,
// diagnostic, context (counted: its figures are the provider's count, and
// an estimate scaled to it), compaction (beforeCounted, afterCounted: its
// figures are the provider's counts), restore (a
// checkpoint restore's progress), completion, and result (the prompt's
// outcome, with its user message as prompt). Empty members are left out;
// the default redactor sorts object keys.
//
// # Rotation
//
// Before a record that would take the file past [Options.MaxBytes], FILE
// is renamed FILE.1 (FILE.1 to FILE.2, …, up to FILE.(MaxFiles-1); older
// files are removed) and a new FILE begins. The chain goes on: the new
// file's first record holds the hash of FILE.1's last. [Files] lists a
// log's files oldest first, for [Verify]. Once files are removed, the
// oldest remaining one begins mid-chain ([Report.Start] is false).
//
// # Crashes
//
// A record is written with one write call and, unless [Options.NoSync],
// fsynced before Append returns. A crash during a write may leave a torn
// last line (no newline): [Verify] reports it in [Report.Torn], not as a
// broken chain, and the next Append copies it aside to FILE.torn-<unix
// ms>, cuts it off and goes on from the last whole record. A crash during
// a rotation leaves FILE missing or empty, and the chain goes on from
// FILE.1.
//
// # What a chain proves
//
// Without a key, anyone who can write the file can rewrite the whole
// chain from the first changed record on; with a key, only a holder of
// the key can. Either way, records cut from the end of the log, or whole
// files removed at either end, look like a log that ended (or began)
// there: keep [Report.LastSeq] and [Report.LastHash], or ship records
// elsewhere, to detect that.
package audit
