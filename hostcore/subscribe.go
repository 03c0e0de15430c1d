package hostcore

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Subscribe asks the server to notify changes to uri, once per connection
// however many borrowers ask: subscriptions are counted per connection and
// URI, and the server hears only the first Subscribe and the last
// Unsubscribe. The connection subscribes again after a reconnect, since the
// server has forgotten the old session's subscriptions. It fails when the
// server does not declare resources.subscribe (errors.Is ErrNotOffered),
// without asking it.
func (c *Conn) Subscribe(ctx context.Context, uri string) error {
	const op = "subscribing"
	defer c.host.subs.counted(c, uri) // the host's record follows the count
	if ok, err := c.Offers(ctx, FeatureSubscribe); err != nil {
		return err
	} else if !ok {
		return newError(KindUsage, ErrNotOffered, "%s to %s: %s does not offer subscriptions", op, uri, c.Server.Name)
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return c.errClosed(op)
	}
	if c.subs == nil {
		c.subs = map[string]int{}
	}
	c.subs[uri]++
	first := c.subs[uri] == 1
	c.mu.Unlock()
	if !first {
		return nil
	}
	_, err := call(ctx, c, op, uri, func(ctx context.Context, cs *mcp.ClientSession) (struct{}, error) {
		return struct{}{}, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
	})
	if err != nil {
		c.release(uri)
	}
	return err
}

// Unsubscribe gives back one Subscribe of uri; the last one tells the server.
func (c *Conn) Unsubscribe(ctx context.Context, uri string) error {
	defer c.host.subs.counted(c, uri)
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
	n, ok := c.subs[uri]
	if !ok {
		return false
	}
	if n <= 1 {
		delete(c.subs, uri)
		return true
	}
	c.subs[uri] = n - 1
	return false
}

// Subscriptions returns how many borrowers subscribed to each URI.
func (c *Conn) Subscriptions() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.subs))
	for k, v := range c.subs {
		out[k] = v
	}
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
