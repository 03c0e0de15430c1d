package state

// migrations is the schema, one step per version: migrations[i] takes a
// file from PRAGMA user_version i to i+1 (see sqlitefile.Migrate). Steps
// that have shipped are never edited, since files in the wild have run
// them; a change is a new step.
//
// Times are RFC 3339 text in UTC with nanoseconds (see timeFormat).
// removed_at is set while a row is removed and undoable, and removed_by
// (from step 2) names the session that removed it, the only one that may
// restore it (see Store). Rows removed before step 2 have no removed_by:
// their session has closed or died, and only Open's purge of stale
// removals concerns them. server is the
// hostcore.ServerRef as JSON; server_name, derived from it, is what the
// unique index compares. The index is partial so that a resource removed
// and attached again does not collide with its removed row.
var migrations = []string{
	// 1: conversations and their attachments.
	`CREATE TABLE conversations (
		id INTEGER PRIMARY KEY,
		title TEXT NOT NULL CHECK (title <> ''),
		created_at TEXT NOT NULL,
		updated_at TEXT NOT NULL,
		removed_at TEXT
	);
	CREATE TABLE attachments (
		id INTEGER PRIMARY KEY,
		conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		server TEXT NOT NULL CHECK (json_valid(server)),
		server_name TEXT GENERATED ALWAYS AS (json_extract(server, '$.name')) VIRTUAL
			CHECK (server_name <> ''),
		account TEXT NOT NULL,
		uri TEXT NOT NULL CHECK (uri <> ''),
		origin TEXT NOT NULL,
		template TEXT NOT NULL,
		title TEXT NOT NULL,
		added_at TEXT NOT NULL,
		pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)),
		priority_override REAL CHECK (priority_override BETWEEN 0 AND 1),
		annotations TEXT NOT NULL CHECK (json_valid(annotations)),
		position INTEGER NOT NULL,
		removed_at TEXT,
		UNIQUE (conversation_id, position)
	);
	CREATE UNIQUE INDEX attachments_attached
		ON attachments (conversation_id, server_name, account, uri)
		WHERE removed_at IS NULL;`,

	// 2: who removed a row, so that one session's Open or Close does not
	// delete another's removals while it can still undo them.
	`ALTER TABLE conversations ADD COLUMN removed_by TEXT;
	ALTER TABLE attachments ADD COLUMN removed_by TEXT;`,

	// 3: the model loop. A turn keeps the context it sent (the system
	// prompt and every attachment's verdict, cache status and digest) and
	// the tools it offered, as JSON; its requests and messages are rows of
	// their own, appended as they happen, so a failure or a Stop loses
	// nothing. Tool switches and "Always" grants are per conversation.
	`CREATE TABLE turns (
		id INTEGER PRIMARY KEY,
		conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		seq INTEGER NOT NULL CHECK (seq > 0),
		provider TEXT NOT NULL,
		model TEXT NOT NULL,
		started_at TEXT NOT NULL,
		finished_at TEXT,
		status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'stopped')),
		error_kind TEXT NOT NULL,
		error TEXT NOT NULL,
		context TEXT NOT NULL CHECK (json_valid(context)),
		tools TEXT NOT NULL CHECK (json_valid(tools)),
		listing_tokens INTEGER NOT NULL,
		UNIQUE (conversation_id, seq)
	);
	CREATE TABLE turn_requests (
		turn_id INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
		round INTEGER NOT NULL CHECK (round > 0),
		record TEXT NOT NULL CHECK (json_valid(record)),
		PRIMARY KEY (turn_id, round)
	);
	CREATE TABLE turn_messages (
		turn_id INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
		seq INTEGER NOT NULL,
		role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
		message TEXT NOT NULL CHECK (json_valid(message)),
		PRIMARY KEY (turn_id, seq)
	);
	CREATE TABLE tool_switches (
		conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		server TEXT NOT NULL CHECK (server <> ''),
		enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
		PRIMARY KEY (conversation_id, server)
	);
	CREATE TABLE tool_grants (
		conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		server TEXT NOT NULL CHECK (server <> ''),
		tool TEXT NOT NULL CHECK (tool <> ''),
		granted_at TEXT NOT NULL,
		PRIMARY KEY (conversation_id, server, tool)
	);`,
	// 4: the comparison lab's ground truth. The person marks which
	// resources a turn needed (a checkbox per attachment per turn), so that
	// its turns can be replayed with their relevance (lab export).
	`CREATE TABLE turn_relevance (
		turn_id INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
		uri TEXT NOT NULL CHECK (uri <> ''),
		PRIMARY KEY (turn_id, uri)
	);`,
	// 5: "Always" grants belong to a server's identity, not its name: a
	// digest of what it runs or where it points and of the credentials it
	// is sent (hostcore's grantIdentity), with the account the grant was
	// given as. A server has one grant per tool in a conversation; a new
	// one replaces the old. The grants of step 3 name a server only, and
	// nothing says what that server ran when they were given, so they are
	// not carried over: the next call of each tool is asked about again,
	// which is what a grant to a server that may have changed must mean.
	`CREATE TABLE tool_grants_by_identity (
		conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		server TEXT NOT NULL CHECK (server <> ''),
		account TEXT NOT NULL,
		identity TEXT NOT NULL CHECK (identity <> ''),
		tool TEXT NOT NULL CHECK (tool <> ''),
		granted_at TEXT NOT NULL,
		PRIMARY KEY (conversation_id, server, tool)
	);
	DROP TABLE tool_grants;
	ALTER TABLE tool_grants_by_identity RENAME TO tool_grants;
	CREATE INDEX tool_grants_server ON tool_grants (server);`,
}
