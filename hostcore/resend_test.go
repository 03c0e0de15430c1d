package hostcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/resend"
	"github.com/attache/attache/hostcore/wire"
	"github.com/attache/attache/internal/mcptest"
)

// resendRaw parses raw and resends it on c.
func resendRaw(t *testing.T, c *hostcore.Conn, raw string, opts *resend.Options) (resend.Result, error) {
	t.Helper()
	req, err := resend.Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return c.Resend(context.Background(), req, opts)
}

// sentRequest returns the request numbered seq in c's record.
func sentRequest(t *testing.T, c *hostcore.Conn, seq uint64) (method string, id string, params map[string]any) {
	t.Helper()
	for _, m := range c.Tap().Messages() {
		if m.Seq == seq {
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params map[string]any  `json:"params"`
			}
			if err := json.Unmarshal(m.Raw, &msg); err != nil || m.Dir != wire.Sent {
				t.Fatalf("message %d is %s %s (%v)", seq, m.Dir, m.Raw, err)
			}
			return msg.Method, string(msg.ID), msg.Params
		}
	}
	t.Fatalf("the record holds no message %d", seq)
	return
}

// A resent request goes on the wire with the session's next id; an edited
// one with its new params.
func TestResendGetsANewID(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, everything(t), "")
	const doc = "demo://resource/static/document/architecture.md"
	if _, err := c.Read(context.Background(), doc, hostcore.ReadRefresh); err != nil {
		t.Fatal(err)
	}
	var original wire.RPCEntry
	entries, _ := c.Tap().History()
	for _, e := range entries {
		if e.Kind == wire.KindRequest && e.Method == "resources/read" {
			original = e
		}
	}
	got, err := resendRaw(t, c, string(original.Raw), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID == "" || got.ID == original.ID || got.Seq <= original.Seq {
		t.Fatalf("resent as id %q (message %d); want a new id after %s (message %d)", got.ID, got.Seq, original.ID, original.Seq)
	}
	if m, id, p := sentRequest(t, c, got.Seq); m != "resources/read" || id != got.ID || p["uri"] != doc {
		t.Errorf("the record holds %s #%s %v; want the read of %s", m, id, p, doc)
	}
	const other = "demo://resource/static/document/features.md"
	edited := strings.Replace(string(original.Raw), doc, other, 1)
	got, err = resendRaw(t, c, edited, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, p := sentRequest(t, c, got.Seq); p["uri"] != other {
		t.Errorf("the edited request went as %v; want uri %s", p, other)
	}
	if _, err := resendRaw(t, c, `{"id":1,"method":"resources/read","params":{"uri":"demo://resource/static/document/none.md"}}`, nil); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("a resent read of a missing resource = %v; want not found", err)
	}
}

// A resent tools/call passes the consent gate as the person's own call:
// it runs, and the gate records who approved it; a destructive tool needs
// a confirmation, and without one nothing is sent.
func TestResendCallPassesTheGate(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, memoryServer(t), "")
	got, err := resendRaw(t, c, `{"id":9,"method":"tools/call","params":{"name":"create_entities","arguments":{"entities":[{"name":"Ada","entityType":"person","observations":[]}]}}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Decision == nil || !got.Decision.Run || got.Decision.By != consent.ApprovedRequest || got.ID == "" {
		t.Fatalf("resent call: %+v; want run, approved by the request, with an id", got)
	}
	recent := h.Consent().Recent()
	if last := recent[len(recent)-1]; last.Caller != consent.CallerPerson || last.Tool != "create_entities" {
		t.Errorf("the gate's last decision is %+v; want the person's create_entities", last)
	}
	mark := lastSeq(c)
	destroy := `{"id":10,"method":"tools/call","params":{"name":"delete_entities","arguments":{"entityNames":["Ada"]}}}`
	got, err = resendRaw(t, c, destroy, nil)
	if !errors.Is(err, fault.ErrNotApproved) || got.Decision == nil || got.Decision.Refusal != consent.RefusedNotConfirmed || got.ID != "" {
		t.Errorf("an unconfirmed destructive call: %+v, %v; want not approved, not confirmed, nothing sent", got, err)
	}
	for _, m := range c.Tap().Messages() {
		if m.Seq > mark && strings.Contains(string(m.Raw), `"delete_entities"`) && m.Dir == wire.Sent {
			t.Errorf("the unconfirmed call was sent: %s", m.Raw)
		}
	}
	asked := 0
	confirm := func(context.Context, consent.ToolRequest) (consent.Approval, error) {
		asked++
		return consent.ApproveOnce, nil
	}
	got, err = resendRaw(t, c, destroy, &resend.Options{Confirm: confirm})
	if err != nil || asked != 1 || got.Decision.By != consent.ApprovedConfirmed || got.ID == "" {
		t.Errorf("a confirmed destructive call: %+v, %v, asked %d; want run once confirmed", got, err, asked)
	}
}

// A resent resources/subscribe is the person's counted borrow, and a
// resent resources/unsubscribe gives back only that.
func TestResendSubscription(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, memoryServer(t), "")
	ctx := context.Background()
	if err := c.Subscribe(ctx, graphURI); err != nil { // an attachment's watch
		t.Fatal(err)
	}
	sub := `{"id":4,"method":"resources/subscribe","params":{"uri":"` + graphURI + `"}}`
	got, err := resendRaw(t, c, sub, nil)
	if err != nil || got.ID != "" || !strings.Contains(got.Note, "nothing was sent") {
		t.Errorf("subscribing where the watch holds one: %+v, %v; want counted, nothing sent", got, err)
	}
	if s, _ := h.Subscriptions().Find(c, graphURI); !s.Yours || s.Borrowers != 2 {
		t.Errorf("after the resent subscribe: %+v; want yours and the watch's", s)
	}
	unsub := `{"id":5,"method":"resources/unsubscribe","params":{"uri":"` + graphURI + `"}}`
	got, err = resendRaw(t, c, unsub, nil)
	if err != nil || got.ID != "" || c.Subscriptions()[graphURI] != 1 {
		t.Errorf("the resent unsubscribe: %+v, %v, %d borrowers; want the watch's left, nothing sent", got, err, c.Subscriptions()[graphURI])
	}
	if _, err := resendRaw(t, c, unsub, nil); !errors.Is(err, fault.ErrUsage) {
		t.Errorf("unsubscribing what the person does not hold = %v; want a usage error", err)
	}
	if err := c.Unsubscribe(ctx, graphURI); err != nil {
		t.Fatal(err)
	}
	got, err = resendRaw(t, c, sub, nil)
	if err != nil || got.ID == "" {
		t.Errorf("the first subscription: %+v, %v; want it sent, with an id", got, err)
	}
}

// ListPage pages a list one page at a time, each request with its cursor
// on the wire, the next cursor the reply's nextCursor.
func TestListPage(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestStdio(t, mcptest.ModePaged, "--resources", "250", "--page-size", "100"), "")
	ctx := context.Background()
	var pages []hostcore.ListPage
	cursor := ""
	for range 5 {
		p, err := c.ListPage(ctx, "resources/list", cursor)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
		if _, _, params := sentRequest(t, c, p.Seq); cursor != "" && params["cursor"] != cursor {
			t.Errorf("page %d went with params %v; want cursor %q", len(pages), params, cursor)
		}
		if cursor = p.Next; cursor == "" {
			break
		}
	}
	if len(pages) != 3 || len(pages[0].Items) != 100 || len(pages[2].Items) != 50 || pages[1].Cursor == "" || pages[2].Next != "" {
		t.Fatalf("paged %d pages: %+v", len(pages), pages)
	}
	if pages[0].Items[0] != mcptest.PagedURI(0) || pages[2].Items[49] != mcptest.PagedURI(249) {
		t.Errorf("the pages hold %s … %s", pages[0].Items[0], pages[2].Items[49])
	}
	if pages[0].ID == pages[1].ID || pages[1].ID == "" {
		t.Errorf("page ids %q %q; want one request each", pages[0].ID, pages[1].ID)
	}
	if _, err := c.ListPage(ctx, "tools/list", ""); !errors.Is(err, hostcore.ErrNotOffered) {
		t.Errorf("tools/list of a server without tools = %v; want not offered", err)
	}
}
