package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// themeLabels name the theme choices in the settings, in the order shown.
var themeLabels = []struct {
	choice ThemeChoice
	label  string
}{
	{ThemeSystem, "Follow the system"},
	{ThemeLight, "Light"},
	{ThemeDark, "Dark"},
}

// settings is the settings dialog: for now, the theme. A choice applies at
// once and is remembered.
type settings struct {
	sh    *shell
	radio *radioChoice
}

func newSettings(sh *shell) *settings { return &settings{sh: sh} }

// show opens the dialog on the current choice.
func (s *settings) show() {
	labels := make([]string, len(themeLabels))
	current := themeChoiceOf(s.sh.prefs)
	for i, l := range themeLabels {
		labels[i] = l.label
	}
	s.radio = newRadioChoice(labels, s.choose)
	s.radio.Required = true
	for _, l := range themeLabels {
		if l.choice == current {
			s.radio.Selected = l.label
		}
	}
	d := newDialog("Settings", "Close", widget.NewForm(widget.NewFormItem("Theme", s.radio)), s.sh.win)
	closeOnEscape(s.sh.win, d, d.Hide)
	d.Show()
}

// choose applies and remembers the theme labelled label.
func (s *settings) choose(label string) {
	for _, l := range themeLabels {
		if l.label == label {
			s.setTheme(l.choice)
		}
	}
}

// setTheme applies and remembers choice.
func (s *settings) setTheme(choice ThemeChoice) {
	s.sh.prefs.SetString(prefTheme, string(choice))
	ApplyTheme(fyne.CurrentApp())
}
