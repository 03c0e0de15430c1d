package cache

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"

	"github.com/attache/attache/internal/namedfile"
)

// accessFile is <path>.access, where a closing Store leaves the access
// times that only recency needs, without a transaction and without an
// fsync.
//
// A process that reads one cached body and exits (an attachectl read)
// would otherwise commit a write at Close for its access time alone: a WAL
// frame, a check-point when the last connection closes, four fsyncs, and a
// new .clean record through a rename, which made a plain hit a third
// slower than one that writes nothing. Recency is worth none of that: the
// times go into this file with one append, and the next write transaction
// of any Store on the file, which is where eviction needs them, folds them
// into last_access and empties the file.
//
// The file holds no body and no credential: a key (server, method,
// param), a partition (scope, and the account's digest, as the rows hold
// it) and a time, one JSON array per line. A crash can lose or tear its
// tail, and an append that races a fold can be lost: either costs some
// recency, never an entry. A line that does not parse is skipped.
type accessFile struct{ path string }

// maxAccessFileBytes is the size past which a closing Store writes its
// times to SQLite instead (which empties the file): the file stays small,
// and folding it stays cheap, however many processes only read.
const maxAccessFileBytes = 256 << 10

// accessLine is one line of the file.
type accessLine [6]any

// appendTimes adds pending to the file in one write, creating it (0600)
// if needed.
func (f accessFile) appendTimes(pending map[slot]int64) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for s, t := range pending {
		k := s.key
		if err := enc.Encode(accessLine{k.Server, k.Method, k.Param, string(s.scope), s.account, t}); err != nil {
			return err
		}
	}
	out, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = out.Write(buf.Bytes())
	return errors.Join(err, out.Close())
}

// size returns the file's size, 0 when there is none.
func (f accessFile) size() int64 {
	fi, err := os.Stat(f.path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// readTimes returns the times in the file, the latest for each slot: nil
// for a missing or empty file, a map (perhaps empty, when no line parsed)
// for one that holds something. One that is not a regular file, or is
// far past its bound, is an error (the caller empties it).
func (f accessFile) readTimes(ctx context.Context) (map[slot]int64, error) {
	if f.size() == 0 {
		return nil, nil
	}
	b, err := namedfile.Read(ctx, f.path, 4*maxAccessFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	times := make(map[slot]int64)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		if s, t, ok := parseAccessLine(sc.Bytes()); ok && t > times[s] {
			times[s] = t
		}
	}
	return times, nil
}

// parseAccessLine reads one line, or reports that it is not one.
func parseAccessLine(line []byte) (slot, int64, bool) {
	var l struct {
		Server, Method, Param, Scope, Account string
		At                                    int64
	}
	fields := []any{&l.Server, &l.Method, &l.Param, &l.Scope, &l.Account, &l.At}
	if json.Unmarshal(line, &fields) != nil || len(fields) != 6 || l.At <= 0 {
		return slot{}, 0, false
	}
	return slot{key: Key{Server: l.Server, Method: l.Method, Param: l.Param}, scope: Scope(l.Scope), account: l.Account}, l.At, true
}

// clear empties the file; a missing one is already empty.
func (f accessFile) clear() error {
	err := os.Truncate(f.path, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
