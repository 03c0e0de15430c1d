package signin

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/hooks"
)

// A sign-in is a state machine the person drives. Per account (a grant
// key: the resource and the account's name) there is at most one wait for
// the person at a time, and the host starts one only when the person
// asked for what needs it:
//
//   - a request whose context came through MayStart (Sign in, a read the
//     person started, every attachectl command) may present the page;
//     any other (a watcher, a poll, a prefetch) gets ErrNeeded;
//   - a second request that needs the same sign-in while one waits joins
//     that wait instead of presenting a second page;
//   - CancelSignIn ends the wait, whoever started it, and every request
//     waiting on it;
//   - once the person signed out, canceled, or let the wait time out, no
//     request signs the account in again until Login, which is the person
//     asking (Sign in); requests say so ("you signed out; Sign in to read
//     this");
//   - when the server's authorization server changed (SEP-2352), the
//     account is "moved" until it signs in there.
//
// The board is in memory: each process (the app, every attachectl run)
// has its own, and the grants they share are in the TokenStore.

// mayStartKey marks a context whose requests may start a sign-in.
type mayStartKey struct{}

// MayStart returns a context under which a request that a server answers
// with "sign in first" may start a sign-in: present the authorization page
// and wait for the person. Pass it for what the person asked for (a read,
// a listing they opened); background work (watchers, polls, prefetches)
// runs without it and gets an Unauthorized error (ErrNeeded) that
// says how to sign in.
func MayStart(ctx context.Context) context.Context {
	return context.WithValue(ctx, mayStartKey{}, true)
}

func mayStart(ctx context.Context) bool { v, _ := ctx.Value(mayStartKey{}).(bool); return v }

// State is where an account's sign-in stands in this process, for people
// to see. The grant itself is the TokenStore's.
type State struct {
	// Waiting is set while a sign-in is under way: the host is finding out
	// where to sign in, or waits for the person at Page.
	Waiting bool
	// Page is the authorization page the host waits on ("" until shown).
	Page string
	// Ended says why the account's last sign-in ended without a grant, or
	// why its grant went, when only the person can start the next one (Sign
	// in): "you signed out", "the sign-in was canceled", "no sign-in came
	// within 5m0s". "" otherwise.
	Ended string
	// MovedTo is the authorization server the server now sends its
	// accounts to, when it is not the one the kept grant came from
	// (SEP-2352). It stays until the account signs in there.
	MovedTo string
}

// SignedOut is why a sign-in ended when the person signed out, as
// State.Ended says it.
const SignedOut = "you signed out"

// signInCanceled is why a sign-in ended when the person canceled it.
const signInCanceled = "the sign-in was canceled"

// errSignInCanceled is the cause of a wait the person canceled.
var errSignInCanceled = errors.New(signInCanceled)

// board holds the sign-in state of every account. It is safe for
// concurrent use.
type board struct {
	mu       sync.Mutex
	accounts map[GrantKey]*accountSignIn
	changed  hooks.List[func()]
}

type accountSignIn struct {
	flight  *signInFlight
	ended   string
	movedTo string
}

// signInFlight is one wait for the person. done is closed when it ends,
// with err its outcome.
type signInFlight struct {
	done   chan struct{}
	err    error
	page   string
	cancel context.CancelCauseFunc
}

func (b *board) of(k GrantKey) *accountSignIn {
	if b.accounts == nil {
		b.accounts = map[GrantKey]*accountSignIn{}
	}
	a, ok := b.accounts[k]
	if !ok {
		a = &accountSignIn{}
		b.accounts[k] = a
	}
	return a
}

// update changes k's state under the lock, then tells the hooks.
func (b *board) update(k GrantKey, f func(a *accountSignIn)) {
	b.mu.Lock()
	f(b.of(k))
	b.mu.Unlock()
	for _, h := range b.changed.All() {
		h()
	}
}

func (b *board) state(k GrantKey) State {
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.of(k)
	st := State{Ended: a.ended, MovedTo: a.movedTo}
	if a.flight != nil {
		st.Waiting, st.Page = true, a.flight.page
	}
	return st
}

// begin returns k's flight in progress, or starts one (owner), whose
// cancel is cancel.
func (b *board) begin(k GrantKey, cancel context.CancelCauseFunc) (fl *signInFlight, owner bool) {
	b.mu.Lock()
	if a := b.of(k); a.flight != nil {
		fl = a.flight
		b.mu.Unlock()
		return fl, false
	}
	fl = &signInFlight{done: make(chan struct{}), cancel: cancel}
	b.of(k).flight = fl
	b.mu.Unlock()
	b.update(k, func(*accountSignIn) {})
	return fl, true
}

// shown records the page fl waits on.
func (b *board) shown(k GrantKey, fl *signInFlight, page string) {
	b.update(k, func(a *accountSignIn) {
		if a.flight == fl {
			fl.page = page
		}
	})
}

// finish ends fl with err: a grant clears what ended before and any move;
// a cancel or a timeout the person let happen is recorded as ended.
func (b *board) finish(k GrantKey, fl *signInFlight, err error, ended string) {
	b.update(k, func(a *accountSignIn) {
		if a.flight == fl {
			a.flight = nil
		}
		switch {
		case err == nil:
			a.ended, a.movedTo = "", ""
		case ended != "":
			a.ended = ended
		}
	})
	fl.err = err
	close(fl.done)
}

// end records that k's sign-in ended by the person's doing (a sign-out, a
// cancel), and cancels a wait in flight.
func (b *board) end(k GrantKey, why string) {
	b.update(k, func(a *accountSignIn) {
		a.ended = why
		if a.flight != nil {
			a.flight.cancel(errSignInCanceled)
		}
	})
}

// allow clears what ended k's last sign-in: the person asks again.
func (b *board) allow(k GrantKey) { b.update(k, func(a *accountSignIn) { a.ended = "" }) }

// moved records that k's server now signs in at to.
func (b *board) moved(k GrantKey, to string) {
	b.update(k, func(a *accountSignIn) { a.movedTo = to })
}

// ended returns why k's last sign-in ended, if only the person can start
// the next.
func (b *board) ended(k GrantKey) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.of(k).ended
}

// SignOut records that key's account signed out: a wait for its sign-in
// ends, and no request signs it in again until Login.
func (k *Keeper) SignOut(key GrantKey) { k.board.end(key, SignedOut) }

// OnChange registers f to run whenever an account's State may have
// changed (a wait began or ended, a page was shown, an account signed out
// or moved), and returns the function that unregisters it. f runs on the
// host's goroutines and must not block.
func (k *Keeper) OnChange(f func()) (unregister func()) { return k.board.changed.Add(f) }

// KeyOf is the grant key of account ("" for the first) at the HTTP server
// sc; false when sc is not an HTTP server or has no such account.
func KeyOf(sc config.ServerConfig, account string) (GrantKey, bool) {
	acct, err := sc.Account(account)
	if err != nil || !sc.IsHTTP() {
		return GrantKey{}, false
	}
	return GrantKey{Resource: config.CanonicalURL(sc.URL), Account: acct.Name}, true
}

// patienceMargin is how much before the caller's deadline a sign-in gives
// up, at most.
const patienceMargin = 100 * time.Millisecond

// callerDeadlineKey holds the deadline a request's caller set, before the
// host added its own connect and request timeouts.
type callerDeadlineKey struct{}

type callerDeadline struct {
	at time.Time
	ok bool
}

// WithCallerDeadline records ctx's own deadline (a command's budget), once:
// a sign-in outlasts the host's connect and request timeouts, a person
// being slower than a server, but never the caller's.
func WithCallerDeadline(ctx context.Context) context.Context {
	if _, ok := ctx.Value(callerDeadlineKey{}).(callerDeadline); ok {
		return ctx
	}
	at, ok := ctx.Deadline()
	return context.WithValue(ctx, callerDeadlineKey{}, callerDeadline{at, ok})
}

// patient returns a context with ctx's values and cancellation, and the
// caller's own deadline (see WithCallerDeadline), but not the deadlines
// the host added. It ends a little before the caller's deadline, so that
// the sign-in's own error, which says what it waited for, reaches the
// caller before the caller gives up on its own.
func patient(ctx context.Context) (context.Context, context.CancelFunc) {
	p, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stopDeadline := func() {}
	if d, _ := ctx.Value(callerDeadlineKey{}).(callerDeadline); d.ok {
		margin := min(patienceMargin, time.Until(d.at)/10)
		var c context.Context
		c, stopDeadline = context.WithDeadline(p, d.at.Add(-margin))
		p = c
	}
	unhook := context.AfterFunc(ctx, func() {
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			cancel(ctx.Err())
		}
	})
	return p, func() { unhook(); stopDeadline(); cancel(nil) }
}
