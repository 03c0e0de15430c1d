package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2/theme"
)

// After a live change of theme the meter's track and fill are the new
// theme's, and its text reads on them (4.5:1), both ways.
func TestMeterFollowsTheTheme(t *testing.T) {
	h := newHarness(t)
	h.attachIDs(h.memoryIDs("acme", "m", 1)...)
	m := h.app.attachments.meter
	for _, choice := range []ThemeChoice{ThemeLight, ThemeDark, ThemeLight} {
		th := newReadableTheme(choice)
		h.do(func() { h.fa.Settings().SetTheme(th) })
		v := theme.VariantLight
		if choice == ThemeDark {
			v = theme.VariantDark
		}
		want := th.Color(theme.ColorNameInputBackground, v)
		h.waitFor("the meter to follow the theme", func() bool {
			var ok bool
			h.do(func() { ok = sameColor(m.bg.FillColor, want) })
			return ok
		})
		h.do(func() {
			track := over(m.fill.FillColor, over(m.bg.FillColor, th.Color(theme.ColorNameBackground, v)))
			if r := contrast(th.Color(theme.ColorNameForeground, v), track); r < 4.5 {
				t.Errorf("%s: the meter's text on its fill: %.2f:1, want 4.5:1", choice, r)
			}
			if !sameColor(m.bg.StrokeColor, th.Color(theme.ColorNameInputBorder, v)) {
				t.Errorf("%s: the meter's edge is %v, not the theme's", choice, m.bg.StrokeColor)
			}
		})
	}
}

func sameColor(a, b color.Color) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}
