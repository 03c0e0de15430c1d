package ui

import (
	"context"
	"time"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// shell is what the screens share: the host, the person's current choice of
// connection and conversation, and the ways one screen asks another for
// something. Its fields are used on the main goroutine only (the tracker
// excepted, which is safe anywhere).
type shell struct {
	ctx   context.Context // ends when the window closes
	cv    *hostcore.Conversations
	host  *hostcore.Host
	opts  Options
	prefs fyne.Preferences
	win   fyne.Window
	work  *tracker

	// conn is the server and account the picker browses; reads and
	// attachments go through it, so the cache partition follows the
	// account.
	conn *hostcore.Conn
	// browsing is the context of conn's listings: one that may sign in
	// (hostcore.MaySignIn) when the person chose conn.
	browsing context.Context
	// conv is the conversation attachments go to; ID 0 until one is loaded.
	conv hostcore.Conversation

	// read shows a read in the inspector.
	read func(readRequest)
	// attached tells the attachments panel that the conversation's
	// attachments changed.
	attached func()
	// openConsole opens the tester's console on conn.
	openConsole func()
	// notify and fail put a sentence on the status line.
	notify func(msg string)
	fail   func(err error)
}

// readRequest is one read the inspector is asked to show, with what the
// listing or template said about the resource.
type readRequest struct {
	conn        *hostcore.Conn
	uri         string
	title       string
	annotations pack.Annotations
	mode        hostcore.ReadMode
}

// listing is the context of the browsed connection's listings.
func (s *shell) listing() context.Context {
	if s.browsing != nil {
		return s.browsing
	}
	return s.ctx
}

// asked is the context of work the person asked for (a read, a search,
// an attach): a server that asks for a sign-in gets one.
func (s *shell) asked() context.Context { return hostcore.MaySignIn(s.ctx) }

// now is the shell's clock.
func (s *shell) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// readExpanded reads the uri a template expanded to, with the template's
// annotations, or says why there is none (err, from hostcore.Expand).
func (s *shell) readExpanded(c *hostcore.Conn, t *hostcore.Template, uri string, err error) {
	if err != nil {
		s.fail(err)
		return
	}
	s.read(readRequest{conn: c, uri: uri, title: t.DisplayName(), annotations: t.Annotations})
}

// act runs work on a goroutine; when it lands, a failure goes to the status
// line and a success runs then, on the main goroutine.
func (s *shell) act(work func(ctx context.Context) error, then func()) {
	run(s.work, s.ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, work(ctx)
	}, func(_ struct{}, err error) {
		if err != nil {
			s.fail(err)
			return
		}
		then()
	})
}

// attach runs an attach on a goroutine and, when it lands, tells the
// attachments panel and the status line.
func (s *shell) attach(what string, f func(ctx context.Context, conv int64, c *hostcore.Conn) (hostcore.Attachment, error)) {
	if s.conn == nil {
		s.fail(hostcore.NewUsageError("choose a server first"))
		return
	}
	if s.conv.ID == 0 {
		s.fail(hostcore.NewUsageError("create a conversation first"))
		return
	}
	conv, c, title := s.conv.ID, s.conn, s.conv.Title
	run(s.work, s.asked(), func(ctx context.Context) (hostcore.Attachment, error) {
		return f(ctx, conv, c)
	}, func(a hostcore.Attachment, err error) {
		if err != nil {
			s.fail(err)
			return
		}
		s.notify("Attached " + a.URI + " to “" + title + "” (" + what + ")")
		s.attached()
	})
}
