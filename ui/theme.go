package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// ThemeChoice is the person's choice of theme in the settings.
type ThemeChoice string

// Theme choices. ThemeSystem follows the desktop (and FYNE_THEME).
const (
	ThemeSystem ThemeChoice = "system"
	ThemeLight  ThemeChoice = "light"
	ThemeDark   ThemeChoice = "dark"
)

// prefTheme is the preference that keeps the ThemeChoice.
const prefTheme = "theme"

// readableTheme is Fyne's default theme with the colours of text changed so
// that every text colour has a contrast of at least 4.5:1 (WCAG AA) against
// every background it is drawn on, in both variants: Fyne's light variant
// draws its green, orange, red and blue text, its hints and its
// low-importance labels at 1.3:1 to 3.7:1 on white. A choice other than
// ThemeSystem forces its variant whatever the desktop says.
type readableTheme struct {
	fyne.Theme
	choice ThemeChoice
}

// newReadableTheme returns the app's theme for choice.
func newReadableTheme(choice ThemeChoice) fyne.Theme {
	return &readableTheme{Theme: theme.DefaultTheme(), choice: choice}
}

// Color returns the readable palette's colour where it has one, else
// Fyne's default.
func (t *readableTheme) Color(name fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	switch t.choice {
	case ThemeLight:
		v = theme.VariantLight
	case ThemeDark:
		v = theme.VariantDark
	}
	palette := readableLight
	if v == theme.VariantDark {
		palette = readableDark
	}
	if c, ok := palette[name]; ok {
		return c
	}
	return t.Theme.Color(name, v)
}

// The colours the readable theme changes. Backgrounds stay Fyne's; text
// colours are darkened (light) or lightened (dark) until each meets 4.5:1
// against the least contrasting background of its variant (see
// theme_test.go, which computes it). Disabled doubles as the colour of
// low-importance labels, which are text people read, so it passes too.
// InputBorder, the ring of an unchecked radio or check box and an entry's
// edge, gets the 3:1 WCAG asks of the parts of a control, and so does the
// focus ring (colorNameFocusRing, see focus_ring.go) against every
// background a control sits on.
var (
	readableLight = map[fyne.ThemeColorName]color.Color{
		colorNameFocusRing:                 rgb(0x1a, 0x56, 0xc8),
		theme.ColorNameForeground:          rgb(0x30, 0x30, 0x30),
		theme.ColorNameInputBorder:         rgb(0x8c, 0x8c, 0x8c),
		theme.ColorNameDisabled:            rgb(0x6a, 0x6a, 0x6a),
		theme.ColorNamePlaceHolder:         rgb(0x6a, 0x6a, 0x6a),
		theme.ColorNamePrimary:             rgb(0x1a, 0x56, 0xc8),
		theme.ColorNameHyperlink:           rgb(0x1a, 0x56, 0xc8),
		theme.ColorNameForegroundOnPrimary: rgb(0xff, 0xff, 0xff),
		theme.ColorNameSuccess:             rgb(0x1b, 0x6e, 0x20),
		theme.ColorNameForegroundOnSuccess: rgb(0xff, 0xff, 0xff),
		theme.ColorNameWarning:             rgb(0x8a, 0x4b, 0x00),
		theme.ColorNameForegroundOnWarning: rgb(0xff, 0xff, 0xff),
		theme.ColorNameError:               rgb(0xb7, 0x1c, 0x1c),
		theme.ColorNameForegroundOnError:   rgb(0xff, 0xff, 0xff),
		colorNameMatch:                     rgb(0xff, 0xe0, 0x82),
		colorNameMatchCurrent:              rgb(0xff, 0xa7, 0x40),
	}
	readableDark = map[fyne.ThemeColorName]color.Color{
		colorNameFocusRing:                 rgb(0x6e, 0xa4, 0xff),
		theme.ColorNameInputBorder:         rgb(0x7a, 0x7a, 0x7a),
		theme.ColorNameDisabled:            rgb(0x9a, 0x9a, 0x9a),
		theme.ColorNamePlaceHolder:         rgb(0xb2, 0xb2, 0xb2),
		theme.ColorNamePrimary:             rgb(0x6e, 0xa4, 0xff),
		theme.ColorNameHyperlink:           rgb(0x6e, 0xa4, 0xff),
		theme.ColorNameForegroundOnPrimary: rgb(0x17, 0x17, 0x18),
		theme.ColorNameSuccess:             rgb(0x5c, 0xd6, 0x5c),
		theme.ColorNameForegroundOnSuccess: rgb(0x17, 0x17, 0x18),
		theme.ColorNameWarning:             rgb(0xff, 0xa7, 0x26),
		theme.ColorNameForegroundOnWarning: rgb(0x17, 0x17, 0x18),
		theme.ColorNameError:               rgb(0xff, 0x6e, 0x6e),
		theme.ColorNameForegroundOnError:   rgb(0x17, 0x17, 0x18),
		colorNameMatch:                     rgb(0x5c, 0x48, 0x00),
		colorNameMatchCurrent:              rgb(0x8f, 0x4a, 0x00),
	}
)

// The body viewer's colours for the search's matches, drawn behind text:
// every match, and the one in view. The readable theme has them (their
// contrast with the text is in theme_test.go); viewerColor falls back to
// them under a theme that has not.
const (
	colorNameMatch        fyne.ThemeColorName = "attache.match"
	colorNameMatchCurrent fyne.ThemeColorName = "attache.matchCurrent"
)

// viewerColor is the colour name of w's theme in the app's variant, or,
// when the theme has none (a transparent answer), the readable theme's.
func viewerColor(w fyne.Widget, name fyne.ThemeColorName) color.Color {
	v := fyne.CurrentApp().Settings().ThemeVariant()
	var th fyne.Theme = theme.Current()
	if tw, ok := w.(interface{ Theme() fyne.Theme }); ok {
		th = tw.Theme()
	}
	if c := th.Color(name, v); c != nil {
		if _, _, _, a := c.RGBA(); a != 0 {
			return c
		}
	}
	return newReadableTheme(ThemeSystem).Color(name, v)
}

func rgb(r, g, b uint8) color.NRGBA { return color.NRGBA{R: r, G: g, B: b, A: 0xff} }

// themeChoiceOf reads the remembered choice; anything unknown is
// ThemeSystem.
func themeChoiceOf(prefs fyne.Preferences) ThemeChoice {
	switch c := ThemeChoice(prefs.String(prefTheme)); c {
	case ThemeLight, ThemeDark:
		return c
	}
	return ThemeSystem
}

// ApplyTheme sets fa's theme to the person's remembered choice. cmd/attache
// calls it before the window shows; the settings call it on a change.
func ApplyTheme(fa fyne.App) {
	fa.Settings().SetTheme(newReadableTheme(themeChoiceOf(fa.Preferences())))
}

// warmStyles are the text styles the first frame draws with, in the order
// the screens first need them: the plain one (whose first use also scans
// the system's fonts for the locale's fallback), bold (buttons and
// headings), italic and monospace (the servers' cards and the inspector).
var warmStyles = []fyne.TextStyle{{}, {Bold: true}, {Italic: true}, {Monospace: true}}

// WarmFonts loads, on a goroutine, the font faces of warmStyles, so that
// they are ready when the window is built. Fyne parses a style's faces on
// its first use, and every style parses the 4 MB emoji font again: about
// 50 ms a style on a quiet machine, all on the main goroutine otherwise. A
// second core takes that on while the main goroutine opens the config, the
// stores and the host. Measuring text, even an empty one, shapes a space
// with the style's faces, and go-text's faces are not safe for concurrent
// use (their glyph-extents cache is a plain slice): nothing may measure
// with these styles until the returned channel is closed. Hand it to New
// as Options.FontsWarmed, which waits for it before building the window.
// Call it once the theme is set.
func WarmFonts() <-chan struct{} {
	size, done := theme.TextSize(), make(chan struct{})
	go func() {
		defer close(done)
		for _, st := range warmStyles {
			fyne.MeasureText("", size, st)
		}
	}()
	return done
}
