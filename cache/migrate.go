package cache

// migrations is the schema, one step per version: migrations[i] takes a
// file from PRAGMA user_version i to i+1 (see sqlitefile.Migrate). The list
// only grows: a step that has shipped is never edited, since files in the
// wild have run it.
//
// Times are unix nanoseconds and durations nanoseconds, so that they
// compare and sort as integers.
var migrations = []string{
	// 1: the entries, one row per key and partition.
	`CREATE TABLE entries (
		id INTEGER PRIMARY KEY,
		server TEXT NOT NULL,
		method TEXT NOT NULL,
		param TEXT NOT NULL,
		scope TEXT NOT NULL CHECK (scope IN ('public', 'private')),
		account TEXT NOT NULL CHECK ((scope = 'public') = (account = '')),
		value BLOB NOT NULL,
		stored_at INTEGER NOT NULL,
		ttl INTEGER NOT NULL,
		size INTEGER NOT NULL,
		UNIQUE (server, method, param, scope, account)
	);`,

	// 2: least-recently-used bookkeeping. last_access orders eviction; the
	// running total, kept by triggers in the same transaction as every
	// change, spares each Put a SUM over the table.
	`ALTER TABLE entries ADD COLUMN last_access INTEGER NOT NULL DEFAULT 0;
	UPDATE entries SET last_access = stored_at;
	CREATE INDEX entries_by_last_access ON entries (last_access);
	CREATE INDEX entries_by_account ON entries (account, server);
	CREATE TABLE totals (
		only INTEGER PRIMARY KEY CHECK (only = 1),
		bytes INTEGER NOT NULL
	);
	INSERT INTO totals SELECT 1, coalesce(sum(size), 0) FROM entries;
	CREATE TRIGGER entries_added AFTER INSERT ON entries BEGIN
		UPDATE totals SET bytes = bytes + NEW.size;
	END;
	CREATE TRIGGER entries_removed AFTER DELETE ON entries BEGIN
		UPDATE totals SET bytes = bytes - OLD.size;
	END;
	CREATE TRIGGER entries_resized AFTER UPDATE OF size ON entries BEGIN
		UPDATE totals SET bytes = bytes - OLD.size + NEW.size;
	END;`,

	// 3: a private partition becomes the fingerprint of an authorization
	// context alone, and the account name that stored an entry a label of
	// its own, matched exactly (a prefix "alice@" also matched the
	// partitions of alice@example.com).
	//
	// Every private row goes. Its partition was "name@fingerprint" with the
	// fingerprint taken over the config's unresolved text, ${input:token}
	// placeholders and all, so it cannot be trusted to name the context the
	// body was read under; a cache may drop entries, and a refetch is the
	// price. Public rows stay, with no name. The delete comes first so that
	// the new CHECK holds for every row left.
	`DELETE FROM entries WHERE scope = 'private';
	ALTER TABLE entries ADD COLUMN account_name TEXT NOT NULL DEFAULT ''
		CHECK (scope = 'private' OR account_name = '');
	CREATE INDEX entries_by_account_name ON entries (account_name, server);`,

	// 4: a digest of each value, SHA-256, which every read from the file
	// verifies (see lookup): a value changed on disk, by a damaged sector
	// or by hand, is dropped and fetched again instead of served. Rows
	// stored before have no digest to check them by, so they go, as in
	// step 3: a refetch is the price. The CHECK holds every later row to a
	// digest.
	`DELETE FROM entries;
	ALTER TABLE entries ADD COLUMN digest BLOB NOT NULL DEFAULT x'' CHECK (length(digest) = 32);`,

	// 5: token counts, kept with the entry they were taken of (see
	// counts.go), one per counter (a tokenizer, its encoding and version),
	// so that no process loads a tokenizer's table for a body already
	// counted. A count goes with its entry: removed with it, and when its
	// value changes. Its seal ties it to the value's digest, the counter,
	// the text counted and the figure, so a count changed on disk, or left
	// from another value, is not trusted. Existing entries keep their rows
	// and have no count yet: the first ranking counts them.
	`CREATE TABLE counts (
		entry INTEGER NOT NULL,
		counter TEXT NOT NULL,
		subject BLOB NOT NULL CHECK (length(subject) = 32),
		tokens INTEGER NOT NULL CHECK (tokens >= 0),
		seal BLOB NOT NULL CHECK (length(seal) = 32),
		PRIMARY KEY (entry, counter)
	) WITHOUT ROWID;
	CREATE TRIGGER counts_of_removed AFTER DELETE ON entries BEGIN
		DELETE FROM counts WHERE entry = OLD.id;
	END;
	CREATE TRIGGER counts_of_replaced AFTER UPDATE OF digest ON entries WHEN OLD.digest IS NOT NEW.digest BEGIN
		DELETE FROM counts WHERE entry = OLD.id;
	END;`,
}
