package hostcore

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/fault"
)

// Subscribe asks the server to notify changes to uri, once per connection
// however many borrowers ask: subscriptions are counted per connection and
// URI, and the server hears only the first Subscribe and the last
// Unsubscribe. A borrower is counted only once the server has acknowledged
// a subscription: one that asks while the first request is in flight waits
// for its answer, and asks the server itself if that answer was a refusal,
// so that no one is told it is subscribed when the server never agreed.
// The connection subscribes again after a reconnect, since the server has
// forgotten the old session's subscriptions. It fails when the server does
// not declare resources.subscribe (errors.Is ErrNotOffered), without
// asking it.
func (c *Conn) Subscribe(ctx context.Context, uri string) error {
	const op = "subscribing"
	defer c.host.subs.Counted(c, uri) // the host's record follows the count
	if ok, err := c.Offers(ctx, FeatureSubscribe); err != nil {
		return err
	} else if !ok {
		return newError(fault.KindUsage, ErrNotOffered, "%s to %s: %s does not offer subscriptions", op, uri, c.Server.Name)
	}
	for {
		s, wait, err := c.joinSubscription(op, uri)
		switch {
		case err != nil:
			return err
		case s == nil:
			return nil // counted: the server had acknowledged it
		case wait != nil:
			select {
			case <-wait: // the request in flight was answered: look again
				continue
			case <-ctx.Done():
				return classify(ctx.Err(), op+" to "+uri, "", 0)
			}
		}
		err = c.askSubscribe(ctx, op, uri)
		c.answered(uri, s, err)
		return err
	}
}

// askSubscribe asks the server to subscribe to uri and waits for its
// acknowledgement. Before 2026-07-28 that is the answer to
// resources/subscribe. On 2026-07-28, go-sdk sends subscriptions/listen
// without waiting for anything (the stream stays open while subscribed,
// and an error answer is dropped), so the acknowledgement is the server's
// notifications/subscriptions/acknowledged that names uri; a server that
// sends none within the request timeout has not subscribed, and the
// listen is withdrawn, so that the next Subscribe asks again.
func (c *Conn) askSubscribe(ctx context.Context, op, uri string) error {
	ack, stop := c.acks.Await(uri)
	defer stop()
	_, err := call(ctx, c, op, uri, func(ctx context.Context, cs *mcp.ClientSession) (struct{}, error) {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil || !listens(cs) {
			return struct{}{}, err
		}
		select {
		case <-ack:
			return struct{}{}, nil
		case <-ctx.Done():
			cs.Unsubscribe(context.WithoutCancel(ctx), &mcp.UnsubscribeParams{URI: uri})
			return struct{}{}, fmt.Errorf("the server did not acknowledge the subscription: %w", ctx.Err())
		}
	})
	return err
}

// listens reports whether cs subscribes with 2026-07-28
// subscriptions/listen.
func listens(cs *mcp.ClientSession) bool {
	res := cs.InitializeResult()
	return res != nil && res.ProtocolVersion >= protocolVersionDiscover
}

// observeAcks hands the server's subscription acknowledgements to the
// connection's waiters (go-sdk keeps them to itself).
func (c *Conn) observeAcks(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams); ok && p != nil {
			c.acks.Acknowledged(p.Notifications.ResourceSubscriptions)
		}
		return next(ctx, method, req)
	}
}

// subscription is what a connection knows of one URI's subscription.
type subscription struct {
	n      int           // borrowers counted: the server acknowledged
	asking chan struct{} // closed when the request in flight is answered; nil when none is
}

// joinSubscription counts a borrower of uri's acknowledged subscription
// (it returns a nil subscription), or says to wait for the request in
// flight, or makes the caller the one who asks (it returns the
// subscription and no channel).
func (c *Conn) joinSubscription(op, uri string) (*subscription, <-chan struct{}, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil, c.errClosed(op)
	}
	if c.subs == nil {
		c.subs = map[string]*subscription{}
	}
	s := c.subs[uri]
	switch {
	case s == nil:
		s = &subscription{}
		c.subs[uri] = s
	case s.n > 0:
		s.n++
		return nil, nil, nil
	case s.asking != nil:
		return s, s.asking, nil
	}
	s.asking = make(chan struct{})
	return s, nil, nil
}

// answered records the server's answer to the Subscribe that s asked.
func (c *Conn) answered(uri string, s *subscription, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	close(s.asking)
	s.asking = nil
	if err == nil {
		s.n++
	} else if s.n == 0 && c.subs[uri] == s {
		delete(c.subs, uri)
	}
}

// Unsubscribe gives back one Subscribe of uri; the last one tells the server.
func (c *Conn) Unsubscribe(ctx context.Context, uri string) error {
	defer c.host.subs.Counted(c, uri)
	if !c.release(uri) {
		return nil
	}
	cs, closed := c.live()
	if closed || cs == nil {
		return nil // the server's session, and its subscriptions, are gone
	}
	_, err := call(ctx, c, "unsubscribing", uri, func(ctx context.Context, cs *mcp.ClientSession) (struct{}, error) {
		return struct{}{}, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
	})
	return err
}

// release drops one count of uri and reports whether it was the last.
func (c *Conn) release(uri string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.subs[uri]
	if !ok || s.n == 0 {
		return false
	}
	s.n--
	if s.n > 0 {
		return false
	}
	if s.asking == nil {
		delete(c.subs, uri)
	}
	return true
}

// Subscriptions returns how many borrowers subscribed to each URI (and the
// server acknowledged).
func (c *Conn) Subscriptions() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.subs))
	for k, s := range c.subs {
		if s.n > 0 {
			out[k] = s.n
		}
	}
	return out
}

// subscribed returns the URIs the server acknowledged, sorted; c.mu is
// held.
func (c *Conn) subscribed() []string {
	var out []string
	for k, s := range c.subs {
		if s.n > 0 {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// resubscribe renews the subscriptions of a new session.
func (c *Conn) resubscribe(cs *mcp.ClientSession, uris []string) {
	for _, uri := range uris {
		ctx, cancel := context.WithTimeout(context.Background(), c.host.opts.RequestTimeout)
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			c.host.log.Warn("subscribing again after a reconnect", "server", c.Server.Name, "uri", uri, "err", c.redact(err))
		}
		cancel()
	}
}

// redact hides the connection's secrets in err's text.
func (c *Conn) redact(err error) error {
	c.mu.Lock()
	auth := c.auth
	c.mu.Unlock()
	return auth.redactError(err)
}

// SubscribeMethod names how c's session subscribes: subscriptions/listen
// at 2026-07-28, resources/subscribe before.
func (c *Conn) SubscribeMethod() string {
	if c.Info().ProtocolVersion >= protocolVersionDiscover {
		return "subscriptions/listen"
	}
	return "resources/subscribe"
}
