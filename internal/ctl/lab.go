package ctl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/hostcore/pack"
)

// The comparison lab (see labrun.Run): replay turns against a real
// server as the host attaching, the model fetching by tool, or both, and
// measure reach, duplicates, the listing's cost and polling.

// bundledSource names the bundled replay in reports.
const bundledSource = "assets/replay.jsonl (bundled, synthetic)"

// exitThreshold is lab check's exit code when a strategy falls short.
const exitThreshold = 1

// shortfallError is lab check's failure: it exits 1, not as a usage error.
type shortfallError struct{ shortfalls []lab.Shortfall }

func (e *shortfallError) Error() string {
	parts := make([]string, len(e.shortfalls))
	for i, s := range e.shortfalls {
		parts[i] = s.String()
	}
	return "below the thresholds: " + strings.Join(parts, "; ")
}

func (a *app) labCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "lab", Short: "The comparison lab: host-attached versus tool-fetched context, measured on your turns"}
	cmd.AddCommand(a.labRunCmd(), a.labCheckCmd(), a.labExportCmd(), a.labMarkCmd(), a.labSampleCmd())
	return cmd
}

// labFlags are what run and check share.
type labFlags struct {
	server, strategies, provider, tools string
	bundled                             bool
	poll                                time.Duration
}

func (f *labFlags) add(cmd *cobra.Command, strategiesFlag bool) {
	cmd.Flags().StringVar(&f.server, "server", "", "the server to replay against (a configured name, or demo); or give --stdio or --url")
	cmd.Flags().BoolVar(&f.bundled, "bundled", false, "replay the bundled synthetic replay instead of a file")
	cmd.Flags().StringVar(&f.provider, "provider", "", "live: ask this provider's model every turn and make the calls it asks for")
	cmd.Flags().DurationVar(&f.poll, "poll-interval", hostcore.DefaultPollInterval, "the polling interval the freshness comparison assumes")
	cmd.Flags().StringVar(&f.tools, "tools", "read-only", "read-only: offer and run only the tools the server marks read-only; ask: offer all, ask on the terminal before a call of any other; auto: run every call (for scripts)")
	if strategiesFlag {
		cmd.Flags().StringVar(&f.strategies, "strategies", "host,tool,both", "strategies to replay: host, tool, both")
	}
}

// runLab reads the replay and runs it.
func (a *app) runLab(cmd *cobra.Command, args []string, f *labFlags) (*labrun.Report, error) {
	turns, source, synthetic, err := a.readReplay(cmd.Context(), args, f.bundled)
	if err != nil {
		return nil, err
	}
	strategies, err := lab.ParseStrategies(f.strategies)
	if err != nil {
		return nil, usageError(err.Error())
	}
	if f.poll <= 0 {
		return nil, usageError("--poll-interval must be positive")
	}
	var serverArgs []string
	if f.server != "" {
		if a.adHoc() {
			return nil, usageError("give --server or --stdio/--url, not both")
		}
		serverArgs = []string{f.server}
	} else if !a.adHoc() {
		return nil, usageError("name the server to replay against with --server (demo is built in)")
	}
	c, _, err := a.conn(serverArgs)
	if err != nil {
		return nil, err
	}
	opts := &labrun.Options{Strategies: strategies, PollInterval: f.poll, Source: source, Synthetic: synthetic}
	if opts.Tools, err = consent.ParseToolPolicy(f.tools); err != nil || opts.Tools == consent.ToolsOff {
		return nil, usageError(fmt.Sprintf("--tools %q: use read-only, ask or auto (--strategies host offers no tools)", f.tools))
	}
	if opts.Tools == consent.ToolsAsk {
		opts.Ask = a.askLabTool
	}
	if f.provider != "" {
		m, pc, err := a.model(f.provider)
		if err != nil {
			return nil, err
		}
		opts.Model, opts.ModelName = m, pc.Label()
	}
	rep, err := labrun.Run(cmd.Context(), c, turns, opts)
	if err == nil {
		a.warnLab(rep)
	}
	return rep, err
}

// warnLab says on stderr, whatever the output, which of the replay's
// servers could not be used: their attachments counted as failures.
func (a *app) warnLab(rep *labrun.Report) {
	for _, w := range labrun.Warnings(rep) {
		fmt.Fprintln(a.stderr, a.line(w))
	}
}

// readReplay reads the replay named by args ("-" is stdin), or the
// bundled one, within the command's budget: a file that is not a regular
// one (a FIFO, /dev/zero) is refused at once, a file or stdin over
// lab.MaxReplayBytes too, and a stdin that never ends stops with the
// budget or a signal. A file that is the bundled replay is synthetic too.
func (a *app) readReplay(ctx context.Context, args []string, bundled bool) ([]lab.Turn, string, bool, error) {
	var data []byte
	var source string
	var err error
	switch {
	case bundled && len(args) > 0:
		return nil, "", false, usageError("give a replay file or --bundled, not both")
	case bundled:
		data, source = assets.Replay, bundledSource
	case len(args) != 1:
		return nil, "", false, usageError("name a replay file (JSON Lines; - for stdin), or give --bundled")
	case args[0] == "-":
		data, err = config.ReadNamedStream(ctx, "the replay on stdin", a.stdin, lab.MaxReplayBytes)
		source = "stdin"
	default:
		data, err = config.ReadNamedFile(ctx, "the replay", args[0], lab.MaxReplayBytes)
		source = args[0]
	}
	if err != nil {
		return nil, "", false, err
	}
	turns, err := lab.ParseContext(ctx, bytes.NewReader(data))
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, "", false, hostcore.NewError(fault.KindTimeout, "the time ran out while reading "+source)
	case ctx.Err() != nil:
		return nil, "", false, hostcore.NewError(fault.KindCanceled, "stopped while reading "+source)
	case err != nil:
		return nil, "", false, usageError(fmt.Sprintf("%s is not a replay: %v", source, err))
	}
	return turns, source, bytes.Equal(data, assets.Replay), nil
}

func (a *app) labRunCmd() *cobra.Command {
	var f labFlags
	var out string
	cmd := &cobra.Command{
		Use:         "run [REPLAY.jsonl] --server NAME",
		Annotations: map[string]string{needsFull: "provider,out"},
		Short:       "Replay turns under each strategy against a real server, and print the figures",
		Long: `Replay every turn of a replay file (JSON Lines, see the README) under each
strategy, making the real reads and tool calls through the cache:

  host   the host attaches; no tools are offered
  tool   tools are offered and the recorded calls are made; nothing is attached
  both   attachments and tools together

Every call, recorded or live, passes the host's consent gate. By default
(--tools read-only) only the tools the server marks read-only are offered
and run; a call of any other is not run, and is counted and shown as "not
run: not read-only". --tools ask offers every tool and asks on the terminal
before a call of one that is not read-only; --tools auto runs every call,
for a script that means it.

and print per strategy: reach (turns whose relevant data all reached the
context), item reach and the duplicate rate, each with its 95% (Wilson
score) interval, the tool listing's tokens per request and share, context
tokens per turn, round trips, bytes, wall time, cache hits, failures and
calls not run; then what polling costs against a re-read on every turn.

Each attachment (and recorded call) that names its server and account, as
an exported conversation does, is replayed against its own; --server is
the one for the rest. One whose server or account cannot be used here is
counted as a failure, and a warning on stderr names it.
--json prints the report as JSON; --out DIR writes report.md, report.json
and PNG charts. --provider asks a real model every turn instead of
replaying the recorded calls (give a longer --timeout). --bundled replays
the bundled synthetic replay.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := a.runLab(cmd, args, &f)
			if err != nil {
				return err
			}
			if out != "" {
				paths, err := a.writeReport(out, rep)
				if err != nil {
					return usageError(fmt.Sprintf("writing the report in %s: %v", out, err))
				}
				for _, p := range paths {
					fmt.Fprintf(a.stderr, "wrote %s\n", p)
				}
			}
			if a.flags.json {
				return a.printJSON(rep)
			}
			a.printLab(rep)
			return nil
		},
	}
	f.add(cmd, true)
	cmd.Flags().StringVar(&out, "out", "", "write report.md, report.json and PNG charts into this directory")
	return cmd
}

// withheld says which listed tools the run did not offer.
func (a *app) withheld(r labrun.Replay) string {
	if len(r.Withheld) == 0 {
		return ""
	}
	return fmt.Sprintf(" (not offered, not read-only: %s)", a.line(strings.Join(r.Withheld, ", ")))
}

// printLab prints the report for a person.
func (a *app) printLab(rep *labrun.Report) {
	r := rep.Replay
	if r.Synthetic {
		fmt.Fprintf(a.stdout, "%s\n", labrun.SyntheticNote)
	}
	how := "recorded calls"
	if r.Live != "" {
		how = "live: " + a.line(r.Live)
	}
	fmt.Fprintf(a.stdout, "%s: %s in %s against %s (%s); listing of %s: %s; tools %s%s\n",
		a.line(r.Source), pack.Quantity(r.Turns, "turn"), pack.Quantity(r.Sessions, "session"), a.line(r.Server), how,
		pack.Quantity(len(r.Tools), "tool"), pack.Quantity(r.ListingTokens, "token"), r.ToolPolicy, a.withheld(r))
	if len(r.Servers) > 1 {
		fmt.Fprintf(a.stdout, "each attachment replayed against its own server: %s\n", a.line(strings.Join(r.Servers, ", ")))
	}
	io.WriteString(a.stdout, labrun.Table(rep))
	fr := rep.Freshness
	fmt.Fprintf(a.stdout, "freshness: polling every %.0fs costs %.0f reads per session-hour, against %.0f for a re-read on every turn (%.2f session-hours)\n",
		fr.PollIntervalSeconds, fr.PollReadsPerSessionHour, fr.PerTurnReadsPerSessionHour, fr.SessionHours)
}

func (a *app) labCheckCmd() *cobra.Command {
	var f labFlags
	var minReach, maxDup float64
	var strategy string
	cmd := &cobra.Command{
		Use:         "check [REPLAY.jsonl] --server NAME --min-reach R --max-duplicates D",
		Annotations: map[string]string{needsFull: "provider"},
		Short:       "Exit 1 when a strategy falls short of the thresholds (for a team's CI)",
		Long: `Replay as lab run does, and compare each strategy (or only --strategy) with
the thresholds written down before a change ships: --min-reach (a fraction
between 0 and 1) and --max-duplicates. Exits 1 and names every threshold
that failed; 0 when all hold; 2 for bad input.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("min-reach") && !cmd.Flags().Changed("max-duplicates") {
				return usageError("give --min-reach, --max-duplicates or both")
			}
			if minReach < 0 || minReach > 1 || (cmd.Flags().Changed("max-duplicates") && (maxDup < 0 || maxDup > 1)) {
				return usageError("thresholds are fractions between 0 and 1")
			}
			f.strategies = strategy
			rep, err := a.runLab(cmd, args, &f)
			if err != nil {
				return err
			}
			th := lab.Thresholds{MinReach: minReach, MaxDuplicates: -1}
			if cmd.Flags().Changed("max-duplicates") {
				th.MaxDuplicates = maxDup
			}
			short := th.Check(rep.Strategies)
			for _, s := range rep.Strategies {
				fmt.Fprintf(a.stdout, "%s: reach %.4f, duplicates %.4f\n", s.Strategy, s.Reach, s.DuplicateRate)
			}
			if len(short) > 0 {
				return &shortfallError{short}
			}
			fmt.Fprintln(a.stdout, "every threshold holds")
			return nil
		},
	}
	f.add(cmd, false)
	cmd.Flags().Float64Var(&minReach, "min-reach", 0, "the least reach a strategy may have")
	cmd.Flags().Float64Var(&maxDup, "max-duplicates", 0, "the highest duplicate rate a strategy may have")
	cmd.Flags().StringVar(&strategy, "strategy", "host,tool,both", "the strategies held to the thresholds")
	return cmd
}

func (a *app) labExportCmd() *cobra.Command {
	var relevantFile string
	cmd := &cobra.Command{
		Use:   "export CONV",
		Short: "Write a conversation's turns as a replay (JSON Lines) on stdout",
		Long: `Write a conversation's stored turns in the lab's replay format: the
person's message, the resources each turn sent, and the tool calls the model
made. Relevance is the person's to mark: --relevant FILE gives it as a JSON
object from turn numbers to the URIs each turn needs; a turn it leaves out
keeps the marks stored with it (lab mark, or the checkboxes of the app's
Compare window), and needs nothing without any.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var relevant map[int][]string
			if relevantFile != "" {
				b, err := config.ReadNamedFile(cmd.Context(), "the relevance file", relevantFile, lab.MaxReplayBytes)
				if err != nil {
					return err
				}
				if relevant, err = labrun.ParseRelevance(b); err != nil {
					return err
				}
			}
			_, conv, turns, err := a.conversationTurns(cmd, args[0])
			if err != nil {
				return err
			}
			out := labrun.FromTurns(fmt.Sprintf("conv-%d", conv), turns, relevant)
			if len(out) == 0 {
				return notFound("conversation %s has no turn yet", args[0])
			}
			return lab.Write(a.stdout, out)
		},
	}
	cmd.Flags().StringVar(&relevantFile, "relevant", "", `relevance by turn: a JSON object such as {"1": ["threengram://memory/m1"]}`)
	return cmd
}

func (a *app) labMarkCmd() *cobra.Command {
	var off bool
	cmd := &cobra.Command{
		Use:   "mark CONV TURN URI...",
		Short: "Mark resources as needed by a turn (the lab's ground truth), or not with --off",
		Args:  cobra.MinimumNArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			seq, err := strconv.Atoi(args[1])
			if err != nil || seq <= 0 {
				return usageError(fmt.Sprintf("turn %q: give the turn's number (see turns)", args[1]))
			}
			ch, _, turns, err := a.conversationTurns(cmd, args[0])
			if err != nil {
				return err
			}
			i := slices.IndexFunc(turns, func(t chat.Turn) bool { return t.Seq == seq })
			if i < 0 {
				return notFound("conversation %s has no turn %d", args[0], seq)
			}
			for _, uri := range args[2:] {
				if err := ch.MarkRelevant(cmd.Context(), turns[i].ID, uri, !off); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&off, "off", false, "unmark: the turn does not need them")
	return cmd
}

func (a *app) labSampleCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "sample",
		Short: "Print the bundled synthetic replay (249 support-style turns over the demo corpus)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := a.stdout.Write(assets.Replay)
			return err
		},
	}
}

// isShortfall reports whether err is lab check's.
func isShortfall(err error) bool {
	var s *shortfallError
	return errors.As(err, &s)
}

// conversationTurns resolves the conversation arg (an id or a title) and
// returns the model loop and its turns, oldest first.
func (a *app) conversationTurns(cmd *cobra.Command, arg string) (*chat.Chat, int64, []chat.Turn, error) {
	ch, cv, err := a.chat()
	if err != nil {
		return nil, 0, nil, err
	}
	conv, err := a.conversationID(cmd, cv, arg)
	if err != nil {
		return nil, 0, nil, err
	}
	turns, err := ch.Turns(cmd.Context(), conv)
	return ch, conv, turns, err
}
