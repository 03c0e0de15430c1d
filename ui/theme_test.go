package ui

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// luminance is WCAG 2's relative luminance of c, composited over bg when c
// is translucent.
func luminance(c, bg color.Color) float64 {
	r, g, b, a := c.RGBA()
	br, bgg, bb, _ := bg.RGBA()
	over := func(fg, back uint32) float64 { // premultiplied fg over opaque back
		return (float64(fg) + float64(back)*(1-float64(a)/0xffff)) / 0xffff
	}
	lin := func(s float64) float64 {
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(over(r, br)) + 0.7152*lin(over(g, bgg)) + 0.0722*lin(over(b, bb))
}

// contrast is WCAG 2's contrast ratio of text colour fg on background bg.
func contrast(fg, bg color.Color) float64 {
	l1, l2 := luminance(fg, bg), luminance(bg, color.White)
	if l1 < l2 {
		l1, l2 = l2, l1
	}
	return (l1 + 0.05) / (l2 + 0.05)
}

// TestContrast computes, from the theme's own colours, the contrast of each
// text colour on each background it is drawn on, in both variants of every
// choice, and wants WCAG AA's 4.5:1 for all of them (and 3:1 for the
// edge of a control).
func TestContrast(t *testing.T) {
	texts := []fyne.ThemeColorName{
		theme.ColorNameForeground, theme.ColorNameDisabled, theme.ColorNamePlaceHolder,
		theme.ColorNamePrimary, theme.ColorNameHyperlink,
		theme.ColorNameSuccess, theme.ColorNameWarning, theme.ColorNameError,
	}
	backgrounds := []fyne.ThemeColorName{
		theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameMenuBackground,
		theme.ColorNameOverlayBackground, theme.ColorNameHeaderBackground, theme.ColorNameButton,
	}
	// Text drawn on a coloured fill: a button's label on its importance.
	onFill := map[fyne.ThemeColorName]fyne.ThemeColorName{
		theme.ColorNameForegroundOnPrimary: theme.ColorNamePrimary,
		theme.ColorNameForegroundOnSuccess: theme.ColorNameSuccess,
		theme.ColorNameForegroundOnWarning: theme.ColorNameWarning,
		theme.ColorNameForegroundOnError:   theme.ColorNameError,
	}
	th := newReadableTheme(ThemeSystem)
	lowest := map[fyne.ThemeVariant]string{}
	lowestRatio := map[fyne.ThemeVariant]float64{}
	want := func(v fyne.ThemeVariant, fg, bg fyne.ThemeColorName, min float64) {
		r := contrast(th.Color(fg, v), th.Color(bg, v))
		if min == 4.5 && (lowestRatio[v] == 0 || r < lowestRatio[v]) {
			lowestRatio[v], lowest[v] = r, fmt.Sprintf("%s on %s", fg, bg)
		}
		t.Run(fmt.Sprintf("%d/%s on %s", v, fg, bg), func(t *testing.T) {
			if r < min {
				t.Errorf("contrast %.2f:1, want at least %.1f:1", r, min)
			}
		})
	}
	defer func() {
		for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
			t.Logf("variant %d: lowest text contrast %.2f:1 (%s)", v, lowestRatio[v], lowest[v])
		}
	}()
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		for _, bg := range backgrounds {
			for _, fg := range texts {
				want(v, fg, bg, 4.5)
			}
		}
		for fg, bg := range onFill {
			want(v, fg, bg, 4.5)
		}
		for _, bg := range []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameInputBackground} {
			want(v, theme.ColorNameInputBorder, bg, 3) // the edge of a control
		}
		for _, bg := range backgrounds {
			want(v, colorNameFocusRing, bg, 3) // the focus ring, around a control
		}
		for _, tint := range []fyne.ThemeColorName{theme.ColorNameSelection, theme.ColorNameHover} {
			wantOver(t, th, v, colorNameFocusRing, tint, 3) // around a control in a chosen or hovered list row
		}
	}
}

// wantOver wants fg to have a contrast of at least min against the
// translucent tint laid over the window's background.
func wantOver(t *testing.T, th fyne.Theme, v fyne.ThemeVariant, fg, tint fyne.ThemeColorName, min float64) {
	bg := over(th.Color(tint, v), th.Color(theme.ColorNameBackground, v))
	r := contrast(th.Color(fg, v), bg)
	t.Run(fmt.Sprintf("%d/%s on %s over background", v, fg, tint), func(t *testing.T) {
		if r < min {
			t.Errorf("contrast %.2f:1, want at least %.1f:1", r, min)
		}
	})
}

// over is c composited over the opaque bg.
func over(c, bg color.Color) color.Color {
	r, g, b, a := c.RGBA()
	br, bgg, bb, _ := bg.RGBA()
	mix := func(f, back uint32) uint8 { return uint8((f + back*(0xffff-a)/0xffff) >> 8) }
	return color.NRGBA{R: mix(r, br), G: mix(g, bgg), B: mix(b, bb), A: 0xff}
}

// TestContrastOfFyneDefault checks the measure itself on the case the issue
// reported: Fyne's own green text on white is about 1.5:1.
func TestContrastOfFyneDefault(t *testing.T) {
	r := contrast(theme.DefaultTheme().Color(theme.ColorNameSuccess, theme.VariantLight), color.White)
	t.Logf("Fyne's green on white: %.2f:1; the readable theme's: %.2f:1", r,
		contrast(newReadableTheme(ThemeLight).Color(theme.ColorNameSuccess, theme.VariantLight), color.White))
	if r < 1.4 || r > 1.7 {
		t.Errorf("Fyne's green on white: %.2f:1, want about 1.5:1", r)
	}
	if r := contrast(color.Black, color.White); math.Abs(r-21) > 0.01 {
		t.Errorf("black on white: %.2f:1, want 21:1", r)
	}
}

// TestThemeChoiceForcesVariant checks that Light and Dark ignore the
// desktop's variant, and System follows it.
func TestThemeChoiceForcesVariant(t *testing.T) {
	fg := theme.ColorNameForeground
	light, dark := newReadableTheme(ThemeLight), newReadableTheme(ThemeDark)
	if light.Color(fg, theme.VariantDark) != light.Color(fg, theme.VariantLight) {
		t.Error("the light choice follows the desktop's dark variant")
	}
	if dark.Color(fg, theme.VariantLight) != dark.Color(fg, theme.VariantDark) {
		t.Error("the dark choice follows the desktop's light variant")
	}
	sys := newReadableTheme(ThemeSystem)
	if sys.Color(fg, theme.VariantLight) == sys.Color(fg, theme.VariantDark) {
		t.Error("the system choice ignores the desktop's variant")
	}
}

// Fonts warmed on a goroutine measure, once New has waited for them, as
// they would have measured on the main goroutine: the warming hands its
// faces over through the channel and shares nothing with the window while
// it runs (run with -race).
func TestWarmFontsBeforeTheWindow(t *testing.T) {
	test.NewTempApp(t)
	styles := append([]fyne.TextStyle{{}}, warmStyles...)
	want := make([]fyne.Size, len(styles))
	for i, st := range styles {
		want[i] = fyne.MeasureText("Attaché ● ✕", theme.TextSize(), st)
	}
	test.NewTempApp(t) // a fresh app: the faces are loaded again
	warmed := WarmFonts()
	// What the main goroutine does before New (opening the stores) does
	// not measure text; New waits for the warming first.
	<-warmed
	for i, st := range styles {
		if got := fyne.MeasureText("Attaché ● ✕", theme.TextSize(), st); got != want[i] {
			t.Errorf("style %+v measures %v after the warming, want %v", st, got, want[i])
		}
	}
}

// The body viewer draws text over the search's matches and the person's
// selection: the text keeps 4.5:1 over each, in both variants (a
// translucent colour counted over the background it lies on).
func TestContrastOfViewerMarks(t *testing.T) {
	th := newReadableTheme(ThemeSystem)
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		bg := th.Color(theme.ColorNameBackground, v)
		fg := th.Color(theme.ColorNameForeground, v)
		for _, mark := range []fyne.ThemeColorName{colorNameMatch, colorNameMatchCurrent, theme.ColorNameSelection} {
			under := flatten(th.Color(mark, v), bg)
			if r := contrast(fg, under); r < 4.5 {
				t.Errorf("variant %d: text on %s: %.2f:1, want at least 4.5:1", v, mark, r)
			} else {
				t.Logf("variant %d: text on %s: %.2f:1", v, mark, r)
			}
		}
		if a, b := th.Color(colorNameMatch, v), th.Color(colorNameMatchCurrent, v); contrast(flatten(a, bg), flatten(b, bg)) < 1.3 {
			t.Errorf("variant %d: the current match does not stand out from the others", v)
		}
	}
}

// flatten is c drawn over the opaque bg.
func flatten(c, bg color.Color) color.Color {
	r, g, b, a := c.RGBA()
	br, bgg, bb, _ := bg.RGBA()
	mix := func(f, back uint32) uint8 { return uint8((f + back*(0xffff-a)/0xffff) >> 8) }
	return color.NRGBA{R: mix(r, br), G: mix(g, bgg), B: mix(b, bb), A: 0xff}
}
