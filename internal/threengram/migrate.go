package threengram

// migrations is the schema, one step per version: migrations[i] takes a
// file from PRAGMA user_version i to i+1 (see sqlitefile.Migrate). The list
// only grows: a step that has shipped is never edited, since files in the
// wild have run it.
var migrations = []string{
	// 1: the memories and the bearer tokens of `threengram token`. Files
	// written before the schema had versions hold these tables at version 0,
	// hence IF NOT EXISTS.
	`CREATE TABLE IF NOT EXISTS memories (
		id TEXT PRIMARY KEY,
		tenant TEXT NOT NULL,
		content TEXT NOT NULL,
		topic TEXT NOT NULL,
		tags TEXT NOT NULL DEFAULT '[]',
		memory_type TEXT NOT NULL,
		scope TEXT NOT NULL,
		project TEXT NOT NULL,
		recorded_at TEXT NOT NULL,
		status TEXT NOT NULL DEFAULT 'active',
		valid_to TEXT,
		commitment_status TEXT,
		superseded_by TEXT REFERENCES memories(id)
	);
	CREATE INDEX IF NOT EXISTS memories_tenant_id ON memories(tenant, id);
	CREATE INDEX IF NOT EXISTS memories_tenant_recorded ON memories(tenant, recorded_at);
	CREATE TABLE IF NOT EXISTS tokens (
		token_hash TEXT PRIMARY KEY,
		tenant TEXT NOT NULL,
		scopes TEXT NOT NULL,
		revoked INTEGER NOT NULL DEFAULT 0
	);`,

	// 2: the OAuth authorization server. A grant is one approved sign-in of
	// a client as a tenant; its access and refresh tokens live and die with
	// it. Codes, tokens and client secrets are stored as SHA-256 hashes.
	// Times are unix nanoseconds.
	`CREATE TABLE oauth_clients (
		client_id TEXT PRIMARY KEY,
		secret_hash TEXT,
		auth_method TEXT NOT NULL CHECK (auth_method IN ('none', 'client_secret_basic', 'client_secret_post')),
		redirect_uris TEXT NOT NULL,
		grant_types TEXT NOT NULL,
		client_name TEXT NOT NULL,
		created_at INTEGER NOT NULL,
		CHECK ((auth_method = 'none') = (secret_hash IS NULL))
	);
	CREATE TABLE oauth_grants (
		id TEXT PRIMARY KEY,
		tenant TEXT NOT NULL,
		client_id TEXT NOT NULL,
		scopes TEXT NOT NULL,
		resource TEXT NOT NULL,
		created_at INTEGER NOT NULL,
		revoked INTEGER NOT NULL DEFAULT 0
	);
	CREATE INDEX oauth_grants_tenant ON oauth_grants(tenant);
	CREATE TABLE oauth_codes (
		code_hash TEXT PRIMARY KEY,
		tenant TEXT NOT NULL,
		client_id TEXT NOT NULL,
		redirect_uri TEXT NOT NULL,
		code_challenge TEXT NOT NULL,
		scopes TEXT NOT NULL,
		resource TEXT NOT NULL,
		refresh INTEGER NOT NULL,
		expires_at INTEGER NOT NULL,
		grant_id TEXT REFERENCES oauth_grants(id)
	);
	CREATE INDEX oauth_codes_tenant ON oauth_codes(tenant);
	CREATE TABLE oauth_tokens (
		token_hash TEXT PRIMARY KEY,
		grant_id TEXT NOT NULL REFERENCES oauth_grants(id),
		kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
		scopes TEXT NOT NULL,
		expires_at INTEGER NOT NULL,
		used INTEGER NOT NULL DEFAULT 0
	);
	CREATE INDEX oauth_tokens_expiry ON oauth_tokens(expires_at);`,
}
