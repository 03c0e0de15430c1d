package ctl

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

func (a *app) readCmd() *cobra.Command {
	var out string
	var raw, refresh, noCache bool
	cmd := &cobra.Command{
		Use:   "read [SERVER] URI",
		Short: "Read a resource and print its body",
		Long: `Read a resource. Text is printed as is; a blob is summarized unless --out
FILE saves it. --json prints one object (uri, contents, protocolVersion,
elapsedMs); --raw prints the JSON-RPC request and response as sent.

On a terminal, control characters other than newlines and tabs are printed
escaped (\x1b, \u009b), so a body cannot drive the terminal; to a pipe or
with --out, the bytes are exactly the server's.`,
		Args: a.serverArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, rest, err := a.conn(args)
			if err != nil {
				return err
			}
			mode := hostcore.ReadUse
			switch {
			case refresh && noCache:
				return usageError("give --refresh or --no-cache, not both")
			case refresh:
				mode = hostcore.ReadRefresh
			case noCache, raw: // the exchange is on the wire: a hit has none
				mode = hostcore.ReadBypass
			}
			res, err := c.Read(cmd.Context(), rest[0], mode)
			if err != nil {
				return err
			}
			if a.flags.verbose {
				a.printCacheLine(res.Cache)
				if res.Hints.Note != "" {
					fmt.Fprintf(a.stderr, "attachectl: cache hint: %s\n", a.line(res.Hints.Note))
				}
				if len(res.Rounds) > 0 {
					fmt.Fprintf(a.stderr, "attachectl: %d more round(s) before the result: %s\n", len(res.Rounds), a.line(hostcore.DescribeRounds(res.Rounds)))
				}
			}
			switch {
			case raw:
				fmt.Fprintf(a.stdout, "%s\n%s\n", a.body(string(res.Raw.Request)), a.body(string(res.Raw.Response)))
				return nil
			case a.flags.json:
				return a.printJSON(readJSON(res))
			}
			return a.printBody(res, out)
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "save the body to FILE (several entries: FILE, FILE.1, ...)")
	cmd.Flags().BoolVar(&raw, "raw", false, "ask the server (bypassing the cache) and print the JSON-RPC exchange")
	cmd.Flags().BoolVar(&refresh, "refresh", false, "always ask the server; re-store the answer (or evict it if its TTL is 0)")
	cmd.Flags().BoolVar(&noCache, "no-cache", false, "ask the server and leave the cache alone")
	return cmd
}

// readOutput is the --json shape of a read.
// readOutput is read --json: what the server sent and what the host adds,
// kept apart, so that nothing the server never sent reads as if it had.
type readOutput struct {
	// Result is the server's result: its contents exactly as sent, and
	// its cache hints as sent (absent when it sent none). A result served
	// from the cache has the contents as the server sent them then; its
	// hints are in Host.Cache.
	Result resultOutput `json:"result"`
	// Host is the host's own report on the read.
	Host hostOutput `json:"host"`
}

type resultOutput struct {
	Contents   []contentOutput `json:"contents"`
	TTLMs      *int64          `json:"ttlMs,omitempty"`
	CacheScope string          `json:"cacheScope,omitempty"`
}

type hostOutput struct {
	URI             string `json:"uri"`
	ProtocolVersion string `json:"protocolVersion"`
	ElapsedMs       int64  `json:"elapsedMs"`
	// Sizes are the byte sizes of the contents, in order (decoded for a
	// blob), which the server does not send.
	Sizes []int       `json:"sizes"`
	Cache cacheOutput `json:"cache"`
}

// cacheOutput is the --json shape of a read's cache status.
type cacheOutput struct {
	Status    string `json:"status"`
	Scope     string `json:"scope,omitempty"`
	TTLMs     int64  `json:"ttlMs"`
	TTLLeftMs int64  `json:"ttlLeftMs"`
	AgeMs     int64  `json:"ageMs"`
	Account   string `json:"account"`
	NotStored string `json:"notStored,omitempty"`
	Dropped   string `json:"dropped,omitempty"`
}

type contentOutput struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     []byte  `json:"blob,omitempty"` // encoding/json writes base64
}

func readJSON(res *hostcore.ReadResult) readOutput {
	ci := res.Cache
	o := readOutput{
		Result: resultOutput{Contents: []contentOutput{}},
		Host: hostOutput{URI: res.URI, ProtocolVersion: res.ProtocolVersion, ElapsedMs: res.Elapsed.Milliseconds(), Sizes: []int{},
			Cache: cacheOutput{Status: string(ci.Status), Scope: ci.Scope, TTLMs: ci.TTL.Milliseconds(),
				TTLLeftMs: ci.TTLLeft.Milliseconds(), AgeMs: ci.Age.Milliseconds(), Account: ci.Account, NotStored: ci.NotStored, Dropped: ci.Dropped}},
	}
	if fetched := ci.Status != hostcore.CacheHit && ci.Status != hostcore.CacheStale; fetched {
		if res.Hints.TTLSent {
			ms := res.Hints.TTLMs
			o.Result.TTLMs = &ms
		}
		o.Result.CacheScope = res.Hints.Scope
	}
	for _, c := range res.Contents {
		co := contentOutput{URI: c.URI, MIMEType: c.MIMEType}
		if c.IsBlob {
			co.Blob = c.Blob
			if co.Blob == nil {
				co.Blob = []byte{}
			}
		} else {
			text := c.Text
			co.Text = &text
		}
		o.Result.Contents = append(o.Result.Contents, co)
		o.Host.Sizes = append(o.Host.Sizes, c.Size())
	}
	return o
}

func (a *app) printBody(res *hostcore.ReadResult, out string) error {
	for i, c := range res.Contents {
		if out != "" {
			name := out
			if i > 0 {
				name = fmt.Sprintf("%s.%d", out, i)
			}
			body := c.Blob
			if !c.IsBlob {
				body = []byte(c.Text)
			}
			if err := os.WriteFile(name, body, 0o644); err != nil {
				return hostcore.NewUsageError(fmt.Sprintf("writing %s: %v", name, err))
			}
			fmt.Fprintf(a.stderr, "attachectl: wrote %d %s to %s\n", len(body), pack.Plural(len(body), "byte", "bytes"), name)
			continue
		}
		if c.IsBlob {
			fmt.Fprintf(a.stdout, "[blob %s, %d %s: use --out FILE to save it]\n", a.line(orUnknown(c.MIMEType)), len(c.Blob), pack.Plural(len(c.Blob), "byte", "bytes"))
			continue
		}
		fmt.Fprint(a.stdout, a.body(c.Text))
		if len(c.Text) > 0 && c.Text[len(c.Text)-1] != '\n' {
			fmt.Fprintln(a.stdout)
		}
	}
	return nil
}

// printCacheLine says on stderr how the cache took part.
func (a *app) printCacheLine(ci hostcore.CacheInfo) {
	fmt.Fprintf(a.stderr, "attachectl: cache %s", ci.Status)
	if ci.Scope != "" {
		fmt.Fprintf(a.stderr, ", %s to %s, ttl %s left of %s, age %s", a.line(ci.Scope), a.line(ci.Account),
			ci.TTLLeft.Round(time.Second), ci.TTL.Round(time.Second), ci.Age.Round(time.Millisecond))
	}
	if ci.NotStored != "" {
		fmt.Fprintf(a.stderr, " (not stored: %s)", a.line(ci.NotStored))
	}
	if ci.Dropped != "" {
		fmt.Fprintf(a.stderr, " (%s)", a.line(ci.Dropped))
	}
	fmt.Fprintln(a.stderr)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "of unknown type"
	}
	return mime
}
