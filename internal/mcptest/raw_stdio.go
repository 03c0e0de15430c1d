package mcptest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
)

// serveStdio answers newline-delimited JSON-RPC from in on out, each request
// in its own goroutine, until in reaches EOF, ctx is done or the server dies
// in-process. It cancels the requests still running but does not wait for
// them: one may be blocked writing to a client that stopped reading (the
// oversize mode), and the process must still exit.
func (s *rawServer) serveStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &lineWriter{w: bufio.NewWriter(out)}
	lines := readLines(ctx, in)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.died:
			return ErrDied
		case line, ok := <-lines:
			if !ok {
				return nil
			}
			go s.answerLine(ctx, line, w)
		}
	}
}

// answerLine answers one line and writes the reply, if any.
func (s *rawServer) answerLine(ctx context.Context, line []byte, w *lineWriter) {
	msg, req, err := s.handle(ctx, line)
	if err != nil || msg == nil {
		return
	}
	w.write(msg, req.ID)
}

// readLines sends each non-blank line of in until EOF, a read error or ctx
// is done. Lines have no length limit.
func readLines(ctx context.Context, in io.Reader) <-chan []byte {
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		r := bufio.NewReader(in)
		for {
			line, err := r.ReadBytes('\n')
			if line = bytes.TrimSpace(line); len(line) > 0 {
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return lines
}

// lineWriter writes whole messages, one per line, from many goroutines.
type lineWriter struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
}

// write writes one message and its newline and flushes. After a failed
// write (the client is gone) it writes nothing more.
func (lw *lineWriter) write(msg message, id []byte) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.err != nil {
		return
	}
	lw.err = errors.Join(msg(lw.w, id), lw.w.WriteByte('\n'), lw.w.Flush())
}
