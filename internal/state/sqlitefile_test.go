package state

import (
	"context"
	"database/sql"

	"github.com/attache/attache/internal/sqlitefile"
)

// dsn is the URI a test opens the state file at path with, bypassing
// Open: the Store's settings, without its check, migration or purge.
func dsn(path string) string { return sqlitefile.URI(path, driverParams) }

// migrate runs steps on db as Open runs migrations.
func migrate(ctx context.Context, db *sql.DB, steps []string) error {
	return sqlitefile.Migrate(ctx, db, steps)
}
