package subrecord

import (
	"context"
	"fmt"
	"strings"
)

// Resend subscribes to uris on c, or unsubscribes, as the person resending
// method from the console: one counted borrow of the connection's
// subscription each. It says what it did to each count.
func (s *Record) Resend(ctx context.Context, c Conn, method string, uris []string) (string, error) {
	var notes []string
	for _, uri := range uris {
		held := c.Subscriptions()[uri]
		var err error
		if method == "resources/unsubscribe" {
			err = s.Unsubscribe(ctx, c, uri)
		} else {
			err = s.Subscribe(ctx, c, uri)
		}
		if err != nil {
			return strings.Join(notes, "; "), err
		}
		notes = append(notes, subscriptionNote(method, uri, held, c.Subscriptions()[uri]))
	}
	return strings.Join(notes, "; "), nil
}

// subscriptionNote says what a subscription request did to the count.
func subscriptionNote(method, uri string, before, after int) string {
	switch {
	case method == "resources/unsubscribe" && after > 0:
		return fmt.Sprintf("gave back your subscription to %s; %d other borrower(s) keep it, so the server was not told", uri, after)
	case method == "resources/unsubscribe":
		return "unsubscribed from " + uri
	case before == after:
		return "you already subscribe to " + uri + ": nothing was sent"
	case before > 0:
		return fmt.Sprintf("subscribed to %s: the connection held it already (%d borrower(s)), so nothing was sent", uri, before)
	}
	return "subscribed to " + uri
}
