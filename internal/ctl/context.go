package ctl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/state"
)

// conversations opens the state database beside the cache, once.
func (a *app) conversations() (*hostcore.Conversations, error) {
	h, err := a.hostFor()
	if err != nil {
		return nil, err
	}
	if a.convs != nil {
		return a.convs, nil
	}
	s, err := a.stateStore()
	if err != nil {
		return nil, err
	}
	a.convs = hostcore.NewConversations(h, s)
	return a.convs, nil
}

// stateStore opens the state database beside the cache, once.
func (a *app) stateStore() (*state.Store, error) {
	if a.st != nil {
		return a.st, nil
	}
	dataDir, err := a.dataDir()
	if err != nil {
		return nil, err
	}
	s, err := state.Open(state.DefaultPath(dataDir), nil)
	switch {
	case errors.Is(err, state.ErrDiskFull):
		return nil, hostcore.NewDiskFullError("opening the conversations in "+dataDir, err)
	case err != nil:
		return nil, hostcore.NewUsageError(fmt.Sprintf("opening the conversations in %s: %v", dataDir, err))
	}
	if s.ReadOnly() {
		fmt.Fprintf(a.stderr, "attachectl: warning: the disk is full: the conversations in %s can be read, not changed\n", dataDir)
	}
	a.st, a.state = s, s
	return s, nil
}

// lazyGrants is the consent gate's grant store: the state database,
// opened on first use, so that a command that calls no tool (a cached
// read) never opens it.
type lazyGrants struct{ a *app }

func (g lazyGrants) ToolGrants(ctx context.Context, conv int64) ([]consent.ToolGrant, error) {
	s, err := g.a.stateStore()
	if err != nil {
		return nil, err
	}
	return s.ToolGrants(ctx, conv)
}

func (g lazyGrants) GrantTool(ctx context.Context, gr consent.ToolGrant) error {
	s, err := g.a.stateStore()
	if err != nil {
		return err
	}
	return s.GrantTool(ctx, gr)
}

func (g lazyGrants) RevokeTool(ctx context.Context, conv int64, server, tool string) error {
	s, err := g.a.stateStore()
	if err != nil {
		return err
	}
	return s.RevokeTool(ctx, conv, server, tool)
}

func (g lazyGrants) ForgetServerGrants(ctx context.Context, server string) error {
	s, err := g.a.stateStore()
	if err != nil {
		return err
	}
	return s.ForgetServerGrants(ctx, server)
}

// conversationID resolves CONV: a numeric id, or an exact title.
func (a *app) conversationID(cmd *cobra.Command, cv *hostcore.Conversations, arg string) (int64, error) {
	if id, err := strconv.ParseInt(arg, 10, 64); err == nil {
		if _, err := cv.Conversation(cmd.Context(), id); err != nil {
			return 0, notFound("no conversation %d", id)
		}
		return id, nil
	}
	all, err := cv.List(cmd.Context())
	if err != nil {
		return 0, err
	}
	for _, c := range all {
		if c.Title == arg {
			return c.ID, nil
		}
	}
	return 0, notFound("no conversation titled %q", arg)
}

func notFound(format string, args ...any) error {
	return hostcore.NewError(fault.KindNotFound, fmt.Sprintf(format, args...))
}

func (a *app) contextCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "context", Short: "Create, list and show conversations (their attachments are the model's context)"}
	cmd.AddCommand(&cobra.Command{
		Use: "new TITLE", Short: "Create a conversation and print its id", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cv, err := a.conversations()
			if err != nil {
				return err
			}
			c, err := cv.Create(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if a.flags.json {
				return a.printJSON(c)
			}
			fmt.Fprintln(a.stdout, c.ID)
			return nil
		},
	}, &cobra.Command{
		Use: "list", Short: "List conversations", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cv, err := a.conversations()
			if err != nil {
				return err
			}
			all, err := cv.List(cmd.Context())
			if err != nil {
				return err
			}
			if a.flags.json {
				return a.printJSON(all)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTITLE\tUPDATED")
			for _, c := range all {
				fmt.Fprintf(tw, "%d\t%s\t%s\n", c.ID, a.line(c.Title), c.UpdatedAt.Local().Format("2006-01-02 15:04"))
			}
			return tw.Flush()
		},
	}, a.showCmd())
	return cmd
}

func (a *app) showCmd() *cobra.Command {
	var live bool
	cmd := &cobra.Command{
		Use: "show CONV", Short: "List a conversation's attachments", Args: cobra.ExactArgs(1),
		Long: `List a conversation's attachments. With --live, threengram memories also
show their lifecycle (status, superseded, commitment), asked live from the
server's get_memories tool: a memory's body is cached, its state never is.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			cv, err := a.conversations()
			if err != nil {
				return err
			}
			id, err := a.conversationID(cmd, cv, args[0])
			if err != nil {
				return err
			}
			atts, err := cv.Attachments(cmd.Context(), id)
			if err != nil {
				return err
			}
			states := map[int64]string{}
			if live {
				states = a.lifecycles(cmd, cv, atts)
			}
			if a.flags.json {
				return a.printJSON(atts)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprint(tw, "ID\tSERVER\tACCOUNT\tORIGIN\tPINNED\tURI")
			if live {
				fmt.Fprint(tw, "\tSTATE (live)")
			}
			fmt.Fprintln(tw)
			for _, at := range atts {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%v\t%s", at.ID, a.line(at.Server.Name), a.line(at.Account), at.Origin, at.Pinned, a.line(at.URI))
				if live {
					fmt.Fprintf(tw, "\t%s", a.line(states[at.ID]))
				}
				fmt.Fprintln(tw)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&live, "live", false, "ask threengram servers for each memory's lifecycle state")
	return cmd
}

// lifecycles asks each attachment's server, live, for its memory's state.
func (a *app) lifecycles(cmd *cobra.Command, cv *hostcore.Conversations, atts []hostcore.Attachment) map[int64]string {
	out := map[int64]string{}
	for _, at := range atts {
		id := hostcore.MemoryID(at.URI)
		if id == "" {
			continue
		}
		c, err := cv.ConnFor(at)
		if err != nil {
			out[at.ID] = "?"
			continue
		}
		states, err := c.MemoryLifecycle(cmd.Context(), []string{id})
		switch st := states[id]; {
		case err != nil:
			out[at.ID] = "? (" + err.Error() + ")"
		case st.NotFound:
			out[at.ID] = "not found"
		default:
			out[at.ID] = describeLifecycle(st)
		}
	}
	return out
}

func describeLifecycle(st hostcore.Lifecycle) string {
	s := st.Status
	if st.SupersededBy != "" {
		s += ", superseded by " + st.SupersededBy
	}
	if st.CommitmentStatus != "" {
		s += ", commitment " + st.CommitmentStatus
	}
	return s
}

func (a *app) attachCmd() *cobra.Command {
	var id string
	cmd := &cobra.Command{
		Use:   "attach CONV [SERVER] URI | attach CONV [SERVER] --id ID",
		Short: "Attach a resource, or a threengram memory by id, to a conversation",
		Long: `Attach a resource to a conversation. The server (a configured name, or
--stdio/--url) and the account are remembered with the attachment, so rank
and export reach the same server later. Ad-hoc servers are remembered by
command line or URL, never with their headers: configure a server to keep
credentials.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cv, err := a.conversations()
			if err != nil {
				return err
			}
			conv, err := a.conversationID(cmd, cv, args[0])
			if err != nil {
				return err
			}
			want := 1 // URI
			if id != "" {
				want = 0
			}
			if !a.adHoc() {
				want++
			}
			if len(args)-1 != want {
				return usageError("attach takes CONV, then SERVER (unless --stdio or --url), then URI (unless --id)")
			}
			c, rest, err := a.conn(args[1:])
			if err != nil {
				return err
			}
			var at hostcore.Attachment
			if id != "" {
				at, err = cv.AttachID(cmd.Context(), conv, c, id)
			} else {
				at, err = cv.AttachURI(cmd.Context(), conv, c, rest[0])
			}
			if err != nil {
				return err
			}
			if a.flags.json {
				return a.printJSON(at)
			}
			fmt.Fprintf(a.stdout, "attached %s as %d\n", a.line(at.URI), at.ID)
			return nil
		},
	}
	cmd.Flags().StringVar(&id, "id", "", "a threengram memory id (expanded through the server's {id} template)")
	return cmd
}

func (a *app) rankCmd() *cobra.Command {
	var budget int
	cmd := &cobra.Command{
		Use:   "rank CONV",
		Short: "Say, for every attachment, whether it enters the model's context and why",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := a.rank(cmd, args[0], budget)
			if err != nil {
				return err
			}
			if a.flags.json {
				return a.printJSON(rankJSON(p))
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "RANK\tVERDICT\tTOKENS\tPRIORITY\tURI\tREASON")
			for _, d := range p.Decisions {
				fmt.Fprintf(tw, "%d\t%s\t%d\t%.2f\t%s\t%s\n", d.Rank, d.Verdict, d.Tokens, d.Priority, a.line(d.Item.URI), a.line(d.Reason))
			}
			tw.Flush()
			fmt.Fprintf(a.stdout, "%d of %d %s used", p.Used, p.Budget, pack.Plural(p.Budget, "token", "tokens"))
			if p.Exceeded > 0 {
				fmt.Fprintf(a.stdout, "; budget exceeded by %d %s (required items)", p.Exceeded, pack.Plural(p.Exceeded, "token", "tokens"))
			}
			fmt.Fprintln(a.stdout)
			return nil
		},
	}
	cmd.Flags().IntVar(&budget, "budget", pack.DefaultBudget, "token budget")
	return cmd
}

func (a *app) rank(cmd *cobra.Command, conv string, budget int) (pack.Packing, error) {
	cv, err := a.conversations()
	if err != nil {
		return pack.Packing{}, err
	}
	id, err := a.conversationID(cmd, cv, conv)
	if err != nil {
		return pack.Packing{}, err
	}
	if err := pack.CheckBudget(budget); err != nil {
		return pack.Packing{}, usageError("--budget: " + err.Error())
	}
	p, _, err := cv.Rank(cmd.Context(), id, &pack.RankOptions{Budget: budget})
	return p, err
}

// decisionJSON is the --json shape of one verdict.
type decisionJSON struct {
	Rank     int     `json:"rank"`
	ID       string  `json:"attachmentId"`
	Server   string  `json:"server"`
	Account  string  `json:"account"`
	URI      string  `json:"uri"`
	Verdict  string  `json:"verdict"`
	Tokens   int     `json:"tokens"`
	Priority float64 `json:"priority"`
	Pinned   bool    `json:"pinned"`
	Reason   string  `json:"reason"`
}

type packingJSON struct {
	Budget    int            `json:"budget"`
	Used      int            `json:"used"`
	Exceeded  int            `json:"exceeded"`
	Decisions []decisionJSON `json:"decisions"`
}

func rankJSON(p pack.Packing) packingJSON {
	out := packingJSON{Budget: p.Budget, Used: p.Used, Exceeded: p.Exceeded, Decisions: []decisionJSON{}}
	for _, d := range p.Decisions {
		out.Decisions = append(out.Decisions, decisionJSON{Rank: d.Rank, ID: d.Item.ID, Server: d.Item.Server,
			Account: d.Item.Account, URI: d.Item.URI, Verdict: string(d.Verdict), Tokens: d.Tokens,
			Priority: d.Priority, Pinned: d.Item.Pinned, Reason: d.Reason})
	}
	return out
}

func (a *app) exportCmd() *cobra.Command {
	var format, out string
	var budget int
	cmd := &cobra.Command{
		Use:   "export CONV --format md|json",
		Short: "Print the system prompt exactly as send would send it now: preamble, update notes, context",
		Long: `Print what the next turn of the conversation would send as its system
prompt, built as send builds it: the preamble, the notes of attachments that
changed since an earlier turn sent them, then the assembled context.
--format json prints the same prompt as "system", beside the assembled
context's sections.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			body, err := a.export(cmd, args[0], format, budget)
			if err != nil {
				return err
			}
			if out != "" {
				return os.WriteFile(out, body, 0o644)
			}
			_, err = io.WriteString(a.stdout, a.body(string(body))) // escaped on a terminal only
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "md", "md or json")
	cmd.Flags().StringVar(&out, "out", "", "write to FILE instead of stdout")
	cmd.Flags().IntVar(&budget, "budget", pack.DefaultBudget, "token budget")
	return cmd
}

// exportJSON is export's --format json: the system prompt and the
// assembled context it ends with.
type exportJSON struct {
	System string `json:"system"`
	pack.Document
}

// export renders the system prompt the next turn of conv would send, in
// format.
func (a *app) export(cmd *cobra.Command, conv, format string, budget int) ([]byte, error) {
	format = strings.ToLower(format)
	if format != "md" && format != "markdown" && format != "json" {
		return nil, usageError(fmt.Sprintf("--format %q: use md or json", format))
	}
	if budget <= 0 {
		return nil, usageError("--budget must be positive")
	}
	ch, cv, err := a.chat()
	if err != nil {
		return nil, err
	}
	id, err := a.conversationID(cmd, cv, conv)
	if err != nil {
		return nil, err
	}
	sc, doc, err := ch.Preview(cmd.Context(), id, budget)
	if err != nil {
		return nil, err
	}
	if format != "json" {
		return []byte(sc.System), nil
	}
	if doc.Sections == nil {
		doc.Sections = []pack.Section{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(exportJSON{System: sc.System, Document: doc}); err != nil {
		return nil, fmt.Errorf("encoding the export: %w", err)
	}
	return buf.Bytes(), nil
}
