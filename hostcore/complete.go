package hostcore

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Completion is the server's suggestions for one template variable.
type Completion struct {
	Values  []string
	HasMore bool
	Total   int
}

// Complete asks the server for values of the variable arg of template that
// start with prefix, passing the variables already chosen in context. Answers
// are memoized per (template, argument, prefix, context) for the life of the
// connection, so typing back and forth does not ask twice. A server that
// declared no completions capability is never asked: the answer is empty
// (Offers tells why).
func (c *Conn) Complete(ctx context.Context, template, arg, prefix string, chosen map[string]string) (Completion, error) {
	key := completionKey(template, arg, prefix, chosen)
	if v, ok := c.memo.get(key); ok {
		return v, nil
	}
	if ok, err := c.Offers(ctx, FeatureCompletions); err != nil || !ok {
		return Completion{}, err
	}
	params := &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: template},
		Argument: mcp.CompleteParamsArgument{Name: arg, Value: prefix},
	}
	if len(chosen) > 0 {
		params.Context = &mcp.CompleteContext{Arguments: chosen}
	}
	res, err := call(ctx, c, "completing "+arg+" of "+template, "", func(ctx context.Context, cs *mcp.ClientSession) (*mcp.CompleteResult, error) {
		return cs.Complete(ctx, params)
	})
	if err != nil {
		return Completion{}, err
	}
	out := Completion{Values: res.Completion.Values, HasMore: res.Completion.HasMore, Total: res.Completion.Total}
	if len(out.Values) > 100 { // the protocol's cap; a server that sends more is trimmed
		out.Values, out.HasMore = out.Values[:100], true
	}
	c.memo.put(key, out)
	return out, nil
}

func completionKey(template, arg, prefix string, chosen map[string]string) string {
	names := make([]string, 0, len(chosen))
	for k := range chosen {
		names = append(names, k)
	}
	sort.Strings(names)
	pairs := make([][2]string, 0, len(names))
	for _, k := range names {
		pairs = append(pairs, [2]string{k, chosen[k]})
	}
	b, _ := json.Marshal([]any{template, arg, prefix, pairs})
	return string(b)
}

// completionMemo is a bounded map of completion answers; when full it starts over,
// which is cheap and good enough for keystroke-sized working sets.
type completionMemo struct {
	mu sync.Mutex
	m  map[string]Completion
}

const memoLimit = 4096

func (m *completionMemo) get(k string) (Completion, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[k]
	return v, ok
}

func (m *completionMemo) put(k string, v Completion) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= memoLimit {
		m.m = map[string]Completion{}
	}
	m.m[k] = v
}

// Debouncer runs only the last of a burst of calls, after the burst has been
// quiet for Delay: the UI calls Do on every keystroke and the server is asked
// once the person pauses. It is safe for concurrent use.
type Debouncer struct {
	Delay time.Duration
	// AfterFunc schedules f; nil means time.AfterFunc. Tests inject one.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)

	mu    sync.Mutex
	stop  func() bool
	epoch uint64
}

// Do schedules f, canceling the previously scheduled call if it has not run.
func (d *Debouncer) Do(f func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stop != nil {
		d.stop()
	}
	d.epoch++
	mine := d.epoch
	run := func() {
		d.mu.Lock()
		current := d.epoch == mine
		d.mu.Unlock()
		if current {
			f()
		}
	}
	after := d.AfterFunc
	if after == nil {
		after = func(dur time.Duration, f func()) func() bool { return time.AfterFunc(dur, f).Stop }
	}
	d.stop = after(d.Delay, run)
}
