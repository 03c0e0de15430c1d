package ui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/google/shlex"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
)

// serverForm adds or edits a configured server: how to reach it (a command
// line for stdio, or a URL for Streamable HTTP), its environment or
// headers, and its accounts, one a line: "name: KEY=VALUE; KEY=VALUE".
// An account's pairs are environment variables of a stdio server, headers
// of an HTTP one.
type serverForm struct {
	orig     config.ServerConfig
	name     *keyEntry // the one-line fields close the form on Escape
	title    *keyEntry
	command  *keyEntry
	url      *keyEntry
	env      *keyEntry
	accounts *keyEntry
	problem  *widget.Label
	save     *button
	dlg      dialog.Dialog
}

func newServerForm(sc config.ServerConfig) *serverForm {
	f := &serverForm{orig: sc, name: newKeyEntry(), title: newKeyEntry(), command: newKeyEntry(),
		url: newKeyEntry(), env: newMultiLineKeyEntry(), accounts: newMultiLineKeyEntry(),
		problem: widget.NewLabel("")}
	f.name.SetText(sc.Name)
	f.name.SetPlaceHolder("memory")
	if sc.Name != "" {
		f.name.Disable() // the name is the server's identity in attachments
	}
	f.title.SetText(sc.Title)
	f.command.SetText(commandLine(sc.Command, sc.Args))
	f.command.SetPlaceHolder("npx -y @modelcontextprotocol/server-memory")
	f.url.SetText(sc.URL)
	f.url.SetPlaceHolder("https://example.com/mcp")
	pairs := sc.Env
	if sc.IsHTTP() {
		pairs = sc.Headers
	}
	f.env.SetText(pairLines(pairs, "\n"))
	f.env.SetPlaceHolder("KEY=VALUE, one a line")
	f.env.SetMinRowsVisible(2)
	var lines []string
	for _, a := range sc.Accounts {
		kv := a.Env
		if sc.IsHTTP() {
			kv = a.Headers
		}
		lines = append(lines, a.Name+": "+pairLines(kv, "; "))
	}
	f.accounts.SetText(strings.Join(lines, "\n"))
	f.accounts.SetPlaceHolder("acme: THREENGRAM_TENANT=acme")
	f.accounts.SetMinRowsVisible(3)
	f.problem.Importance = widget.DangerImportance
	f.problem.Wrapping = fyne.TextWrapWord
	f.problem.Hide()
	return f
}

func (f *serverForm) buildUI(onSave func(config.ServerConfig)) fyne.CanvasObject {
	form := widget.NewForm(
		widget.NewFormItem("Name", f.name),
		widget.NewFormItem("Title", f.title),
		widget.NewFormItem("Command (stdio)", f.command),
		widget.NewFormItem("or URL (HTTP)", f.url),
		widget.NewFormItem("Env / headers", f.env),
		widget.NewFormItem("Accounts", f.accounts),
	)
	cancel := newButton("Cancel", nil, func() { f.dlg.Hide() })
	f.save = newButton("Save", theme.DocumentSaveIcon(), func() {
		sc, err := f.config()
		if err != nil {
			f.problem.SetText(oneLine(err))
			f.problem.Show()
			return
		}
		f.dlg.Hide()
		onSave(sc)
	})
	f.save.Importance = widget.HighImportance
	return container.NewVBox(form, f.problem, container.NewHBox(layout.NewSpacer(), cancel, f.save))
}

// show opens the form in a dialog over w.
func (f *serverForm) show(w fyne.Window, onSave func(config.ServerConfig)) {
	title := "Add a server"
	if f.orig.Name != "" {
		title = "Edit " + f.orig.Name
	}
	f.dlg = dialog.NewCustomWithoutButtons(title, f.buildUI(onSave), w)
	f.dlg.Resize(fyne.NewSize(560, 0))
	submit := func() {
		if !f.save.Disabled() {
			f.save.OnTapped()
		}
	}
	closeOnEscape(w, f.dlg, submit, f.name, f.title, f.command, f.url)
	f.dlg.Show()
}

// config reads the form back into a server entry and validates it.
func (f *serverForm) config() (config.ServerConfig, error) {
	sc := config.ServerConfig{Name: strings.TrimSpace(f.name.Text), Title: strings.TrimSpace(f.title.Text),
		URL: strings.TrimSpace(f.url.Text), Cwd: f.orig.Cwd}
	if line := strings.TrimSpace(f.command.Text); line != "" {
		words, err := shlex.Split(line)
		if err != nil || len(words) == 0 {
			return sc, hostcore.NewUsageError(fmt.Sprintf("%q is not a command line", line))
		}
		sc.Command, sc.Args = words[0], words[1:]
	}
	pairs, err := parsePairs(strings.Split(f.env.Text, "\n"))
	if err != nil {
		return sc, err
	}
	if sc.URL != "" {
		sc.Headers, sc.Transport = pairs, f.orig.Transport // the form has no field for it: keep what the file says
	} else {
		sc.Env = pairs
	}
	if sc.Accounts, err = parseAccounts(f.accounts.Text, sc.URL != ""); err != nil {
		return sc, err
	}
	return sc, sc.Validate()
}

// parseAccounts reads "name: K=V; K=V" lines.
func parseAccounts(text string, http bool) ([]config.Account, error) {
	var out []config.Account
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		name, rest, _ := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, hostcore.NewUsageError(fmt.Sprintf("account line %q has no name before the colon", line))
		}
		pairs, err := parsePairs(strings.Split(rest, ";"))
		if err != nil {
			return nil, err
		}
		a := config.Account{Name: name}
		if http {
			a.Headers = pairs
		} else {
			a.Env = pairs
		}
		out = append(out, a)
	}
	return out, nil
}

// parsePairs reads KEY=VALUE items; blank items are skipped.
func parsePairs(items []string) (map[string]string, error) {
	var out map[string]string
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		k, v, ok := strings.Cut(it, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, hostcore.NewUsageError(fmt.Sprintf("%q is not KEY=VALUE", it))
		}
		if out == nil {
			out = map[string]string{}
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

// pairLines writes pairs as KEY=VALUE, sorted, joined by sep.
func pairLines(m map[string]string, sep string) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, k+"="+m[k])
	}
	return strings.Join(out, sep)
}

// commandLine writes a command and its arguments as a shell would read
// them back.
func commandLine(cmd string, args []string) string {
	if cmd == "" {
		return ""
	}
	words := []string{cmd}
	words = append(words, args...)
	for i, w := range words {
		if w == "" || strings.ContainsAny(w, " \t\"'\\") {
			words[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(words, " ")
}
