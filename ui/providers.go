package ui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/redact"
)

// ProviderKeys keeps the model providers' API keys out of the config file:
// in the OS keyring, or a 0600 file beside the config where no keyring
// answers. internal/desktop wires the secret store behind it; the editor only
// ever writes a key, never shows one.
type ProviderKeys interface {
	// Source says where a provider's key comes from: "env NAME",
	// "keyring" or "none". It never returns the key.
	Source(pc models.Provider) string
	// SetAPIKey keeps a provider's key.
	SetAPIKey(provider, key string) error
	// DeleteAPIKey forgets it; it reports whether there was one.
	DeleteAPIKey(provider string) (bool, error)
}

// providerEditor is the window that lists the model providers of the
// config and adds, edits and removes them, through the Host (which saves
// the config). A provider is saved without its key, which goes to
// ProviderKeys. Its fields are
// used on the main goroutine only.
type providerEditor struct {
	sh *shell
	// changed is told when the config's providers changed, on the main
	// goroutine (the conversation window rebuilds its picker).
	changed func()

	win    fyne.Window
	rows   *fyne.Container
	form   dialog.Dialog // the add or edit form, while it is shown
	fields *providerForm // its fields
}

func newProviderEditor(sh *shell, changed func()) *providerEditor {
	return &providerEditor{sh: sh, changed: changed}
}

// show opens the window, or brings it to the front.
func (e *providerEditor) show() {
	if e.win != nil {
		e.win.RequestFocus()
		return
	}
	e.win = fyne.CurrentApp().NewWindow("Model providers — Attaché")
	e.rows = container.NewVBox()
	add := newButton("Add a provider…", theme.ContentAddIcon(), func() { e.edit(nil) })
	add.Importance = widget.HighImportance
	note := widget.NewLabel("Providers are saved in the config file. Their API keys are not: a key comes from the " +
		"environment variable a provider names, or from the OS keyring (a file of mode 0600 beside the config where " +
		"there is no keyring).")
	note.Wrapping = fyne.TextWrapWord
	e.win.SetContent(container.NewBorder(note, container.NewHBox(add), nil, nil, container.NewVScroll(e.rows)))
	e.win.Resize(fyne.NewSize(640, 420))
	e.win.SetOnClosed(func() { e.win, e.form, e.fields = nil, nil, nil })
	e.list()
	e.win.Show()
}

// list lays out a row per provider.
func (e *providerEditor) list() {
	if e.win == nil {
		return
	}
	e.rows.RemoveAll()
	ps := e.sh.host.Providers()
	if len(ps) == 0 {
		e.rows.Add(widget.NewLabel("No provider yet. Add one: OpenAI or any server that speaks its Chat Completions API " +
			"(Ollama, llama.cpp, vLLM, LM Studio) by its base URL, or Anthropic."))
	}
	for _, pc := range ps {
		name := widget.NewLabelWithStyle(pc.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		what := widget.NewLabel(e.describe(pc))
		what.Wrapping = fyne.TextWrapWord
		if e.sh.host.IsBuiltinProvider(pc.Name) {
			// offered by the app, not the config: nothing to edit or remove
			e.rows.Add(container.NewBorder(nil, nil, name, widget.NewLabel("built in"), what))
			continue
		}
		edit := newButton("Edit…", theme.DocumentCreateIcon(), func() { e.edit(&pc) })
		remove := newButton("Remove", theme.DeleteIcon(), func() { e.confirmRemove(pc.Name) })
		e.rows.Add(container.NewBorder(nil, nil, name, container.NewHBox(edit, remove), what))
	}
	e.rows.Refresh()
}

// describe is a provider's row: its kind, model, base URL and where its
// key comes from.
func (e *providerEditor) describe(pc models.Provider) string {
	if pc.Kind == models.Demo {
		return pc.Kind + " · " + models.DemoModelName + " · runs in the app, reaches no network · key: none needed. " +
			"It quotes the attached context that best matches a question, and searches with a tool when nothing attached does."
	}
	base := "the vendor's API"
	if pc.BaseURL != "" {
		base = redact.URL(pc.BaseURL)
	}
	key := "none"
	if e.sh.opts.Keys != nil {
		key = e.sh.opts.Keys.Source(pc)
	} else if pc.APIKeyEnv != "" {
		key = "env " + pc.APIKeyEnv
	}
	if key == "none" && pc.APIKeyEnv != "" {
		key = "none (" + pc.APIKeyEnv + " is not set, and none is kept)"
	}
	return fmt.Sprintf("%s · %s · %s · key: %s", pc.Kind, pc.Model, base, key)
}

// providerForm is the add or edit form's fields.
type providerForm struct {
	name, baseURL, model, keyEnv, maxTokens *keyEntry // Escape closes the form from each
	key                                     *keyEntry // a password entry, with its reveal button
	kind                                    *selectBox
}

// edit shows the form for pc, or for a new provider when pc is nil.
func (e *providerEditor) edit(pc *models.Provider) {
	f := providerForm{name: newKeyEntry(), baseURL: newKeyEntry(), model: newKeyEntry(),
		keyEnv: newKeyEntry(), key: newPasswordKeyEntry(), maxTokens: newKeyEntry(),
		kind: newSelect([]string{models.OpenAI, models.Anthropic}, nil)}
	f.baseURL.SetPlaceHolder("empty: the vendor's; Ollama: http://127.0.0.1:11434/v1")
	f.model.SetPlaceHolder("llama3.2, gpt-4.1-mini, claude-sonnet-4-5…")
	f.keyEnv.SetPlaceHolder("OPENAI_API_KEY (the variable's name, never the key)")
	f.key.SetPlaceHolder("kept in the keyring; empty keeps the current one")
	f.maxTokens.SetPlaceHolder(strconv.Itoa(models.DefaultMaxTokens))
	f.kind.SetSelected(models.OpenAI)
	title := "Add a model provider"
	if pc != nil {
		title = "Edit " + pc.Name
		f.name.SetText(pc.Name)
		f.name.Disable() // the name is the key's entry in the keyring
		f.kind.SetSelected(pc.Kind)
		f.baseURL.SetText(pc.BaseURL)
		f.model.SetText(pc.Model)
		f.keyEnv.SetText(pc.APIKeyEnv)
		if pc.MaxTokens > 0 {
			f.maxTokens.SetText(strconv.Itoa(pc.MaxTokens))
		}
	}
	items := []*widget.FormItem{
		widget.NewFormItem("Name", f.name), widget.NewFormItem("Kind", f.kind),
		widget.NewFormItem("Base URL", f.baseURL), widget.NewFormItem("Model", f.model),
		widget.NewFormItem("Key variable", f.keyEnv), widget.NewFormItem("API key", f.key),
		widget.NewFormItem("Max tokens", f.maxTokens),
	}
	var old models.Provider
	if pc != nil {
		old = *pc
	}
	d := newFormDialog(title, "Save", "Cancel", items, func(ok bool) {
		e.form, e.fields = nil, nil
		if ok {
			e.save(old, f)
		}
	}, e.win)
	d.Resize(fyne.NewSize(560, 0))
	e.form, e.fields = d, &f
	closeOnEscape(e.win, d, d.Submit, f.name, f.baseURL, f.model, f.keyEnv, f.key, f.maxTokens)
	d.Show()
}

// save checks the form, saves the provider to the config and its key (if
// one was typed) to the key store, off the main goroutine.
func (e *providerEditor) save(old models.Provider, f providerForm) {
	pc := old
	pc.Name, pc.Kind = strings.TrimSpace(f.name.Text), f.kind.Selected
	pc.BaseURL, pc.Model, pc.APIKeyEnv = strings.TrimSpace(f.baseURL.Text), strings.TrimSpace(f.model.Text), strings.TrimSpace(f.keyEnv.Text)
	pc.MaxTokens = 0
	if s := strings.TrimSpace(f.maxTokens.Text); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			e.refuse(fmt.Errorf("max tokens %q is not a positive whole number", s))
			return
		}
		pc.MaxTokens = n
	}
	if err := pc.Validate(); err != nil {
		e.refuse(err)
		return
	}
	if old.Name == "" {
		if _, err := e.sh.host.Config().FindProvider(pc.Name); err == nil {
			e.refuse(fmt.Errorf("a provider is already named %q", pc.Name))
			return
		}
	}
	key, keys, host := strings.TrimSpace(f.key.Text), e.sh.opts.Keys, e.sh.host
	if key != "" && keys == nil {
		e.refuse(fmt.Errorf("this app has no key store: set the key in the environment variable instead"))
		return
	}
	e.sh.act(func(ctx context.Context) error {
		save := host.ReplaceProvider
		if old.Name == "" {
			save = host.AddProvider
		}
		if err := save(ctx, pc); err != nil {
			return err
		}
		if key != "" {
			if err := keys.SetAPIKey(pc.Name, key); err != nil {
				return fmt.Errorf("keeping the key of %s: %w", pc.Name, err)
			}
		}
		return nil
	}, func() {
		e.sh.notify("Saved the provider " + pc.Name)
		e.list()
		e.changed()
	})
}

// refuse says why the form was not saved, over the editor.
func (e *providerEditor) refuse(err error) {
	if e.win != nil {
		showError(err, e.win)
	}
}

// confirmRemove removes a provider, and its kept key, once confirmed.
func (e *providerEditor) confirmRemove(name string) {
	showConfirm("Remove "+name+"?", "The provider leaves the config, and its key kept in the keyring is forgotten. "+
		"Turns already sent with it stay.", func(ok bool) {
		if !ok {
			return
		}
		keys, host := e.sh.opts.Keys, e.sh.host
		e.sh.act(func(ctx context.Context) error {
			if err := host.RemoveProvider(ctx, name); err != nil {
				return err
			}
			if keys != nil {
				if _, err := keys.DeleteAPIKey(name); err != nil {
					return fmt.Errorf("forgetting the key of %s: %w", name, err)
				}
			}
			return nil
		}, func() {
			e.sh.notify("Removed the provider " + name)
			e.list()
			e.changed()
		})
	}, e.win)
}
