package ctl

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/redact"
	"github.com/attache/attache/internal/apikey"
	"github.com/attache/attache/internal/secretstore"
)

// modelCmds are the commands of the model loop (issue 12): providers,
// send, turns, and the tools a model is offered.
func (a *app) modelCmds() []*cobra.Command {
	return []*cobra.Command{a.providersCmd(), a.sendCmd(), a.turnsCmd(), a.toolsCmd(), a.callCmd(), a.labCmd()}
}

// keyStore is where API keys are kept: the OS keyring, or a 0600 file
// beside the config when none answers (ATTACHE_TOKEN_STORE=file forces
// the file, as for sign-ins).
func (a *app) keyStore() (*secretstore.Store, error) {
	path, err := a.configPath()
	if err != nil {
		return nil, err
	}
	return secretstore.Open(filepath.Dir(path), &secretstore.Options{
		File: os.Getenv("ATTACHE_TOKEN_STORE") == "file",
		Warn: func(msg string) { fmt.Fprintln(a.stderr, "attachectl: "+msg) },
	}), nil
}

// model returns the named provider's model ("" is the first configured).
func (a *app) model(name string) (chat.Model, models.Provider, error) {
	h, err := a.hostFor()
	if err != nil {
		return nil, models.Provider{}, err
	}
	pc, err := h.Config().FindProvider(name)
	if err != nil {
		return nil, pc, err
	}
	keys, err := a.keyStore()
	if err != nil {
		return nil, pc, err
	}
	m, err := a.newModel(pc, keys)
	return m, pc, err
}

// providerRow is the --json shape of a provider: never its key.
type providerRow struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Model     string `json:"model"`
	BaseURL   string `json:"baseURL,omitempty"`
	APIKeyEnv string `json:"apiKeyEnv,omitempty"`
	// Key says where the key comes from: "env NAME", "keyring" or "none".
	Key string `json:"key"`
}

func (a *app) providersCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "providers",
		Short: "List the model providers of the config, and where each one's key comes from (never the key)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, err := a.hostFor()
			if err != nil {
				return err
			}
			keys, err := a.keyStore()
			if err != nil {
				return err
			}
			rows := []providerRow{}
			for _, pc := range h.Config().ProviderList() {
				rows = append(rows, providerRow{Name: pc.Name, Kind: pc.Kind, Model: pc.Model, BaseURL: redact.URL(pc.BaseURL),
					APIKeyEnv: pc.APIKeyEnv, Key: keySource(pc, keys)})
			}
			if a.flags.json {
				return a.printJSON(rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(a.stderr, `attachectl: no provider is configured; add "providers" to the config (see the README)`)
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tKIND\tMODEL\tBASE URL\tKEY")
			for _, r := range rows {
				base := r.BaseURL
				if base == "" {
					base = "(the vendor's)"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", a.line(r.Name), r.Kind, a.line(r.Model), a.line(base), r.Key)
			}
			return tw.Flush()
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "set-key NAME",
		Short: "Keep a provider's API key in the OS keyring (read from stdin, not echoed on a terminal)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			h, err := a.hostFor()
			if err != nil {
				return err
			}
			if _, err := h.Config().FindProvider(args[0]); err != nil {
				return err
			}
			key, err := a.readSecret("API key for " + args[0])
			if err != nil {
				return err
			}
			keys, err := a.keyStore()
			if err != nil {
				return err
			}
			if err := keys.SetAPIKey(args[0], key); err != nil {
				return hostcore.NewUsageError("keeping the key: " + err.Error())
			}
			fmt.Fprintf(a.stderr, "attachectl: the key of %s is kept\n", a.line(args[0]))
			return nil
		},
	}, &cobra.Command{
		Use:   "delete-key NAME",
		Short: "Forget a provider's API key kept in the keyring",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			keys, err := a.keyStore()
			if err != nil {
				return err
			}
			had, err := keys.DeleteAPIKey(args[0])
			if err != nil {
				return hostcore.NewUsageError("forgetting the key: " + err.Error())
			}
			if !had {
				return notFound("no key is kept for %s", args[0])
			}
			return nil
		},
	})
	return cmd
}

// readSecret reads one line from stdin: without echo on a terminal, as is
// from a pipe.
func (a *app) readSecret(what string) (string, error) {
	if f, ok := a.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(a.stderr, "%s: ", what)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(a.stderr)
		if err != nil || len(strings.TrimSpace(string(b))) == 0 {
			return "", usageError("no " + what + " given")
		}
		return strings.TrimSpace(string(b)), nil
	}
	line, err := readLine(a.stdin)
	if strings.TrimSpace(line) == "" {
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		return "", usageError("no " + what + " given on stdin")
	}
	return strings.TrimSpace(line), nil
}

// readLine reads up to a newline a byte at a time, so that nothing after
// the line is taken from a stdin that other prompts read too.
func readLine(r io.Reader) (string, error) {
	var b strings.Builder
	buf := make([]byte, 1)
	for {
		n, err := r.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				return strings.TrimSuffix(b.String(), "\r"), nil
			}
			b.WriteByte(buf[0])
		}
		if err != nil {
			return b.String(), err
		}
	}
}

// keySource says where a provider's key comes from (never the key).
func keySource(pc models.Provider, keys apikey.Store) string {
	_, source, _ := apikey.Find(pc.Name, pc.APIKeyEnv, os.Getenv, keys)
	return source
}
