package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// radioChoice is a widget.RadioGroup whose options draw the focus ring
// (Fyne's own options take a halo of the faint focus tint). Its fields and
// methods are the RadioGroup's (Options, Selected, SetSelected, Required,
// Horizontal, OnChanged); only the options are drawn here. Each option is
// a Tab stop; Space or Enter chooses it, as a click does.
type radioChoice struct {
	widget.RadioGroup
	// onFocus, when set, is told of an option that takes the focus.
	onFocus func(fyne.CanvasObject)
}

// newRadioChoice is widget.NewRadioGroup.
func newRadioChoice(options []string, changed func(string)) *radioChoice {
	r := &radioChoice{}
	r.Options, r.OnChanged = options, changed
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer lays the options out in a row or a column.
func (r *radioChoice) CreateRenderer() fyne.WidgetRenderer {
	rr := &radioChoiceRenderer{group: r}
	rr.update()
	return rr
}

// choose is a click on option i: it chooses it, or, in a group that need
// not have a choice, takes back the choice of the chosen one.
func (r *radioChoice) choose(i int) {
	if r.Disabled() || i >= len(r.Options) {
		return
	}
	option := r.Options[i]
	if option == r.Selected && !r.Required {
		option = ""
	}
	r.SetSelected(option)
}

type radioChoiceRenderer struct {
	group   *radioChoice
	options []*radioOption
	objects []fyne.CanvasObject
}

// update makes an option for each of the group's, showing its state.
func (rr *radioChoiceRenderer) update() {
	g := rr.group
	for len(rr.options) < len(g.Options) {
		i := len(rr.options)
		o := &radioOption{onTap: func() { g.choose(i) }}
		o.ring.onFocus = func() {
			if g.onFocus != nil {
				g.onFocus(o)
			}
		}
		o.ExtendBaseWidget(o)
		rr.options = append(rr.options, o)
	}
	rr.options = rr.options[:len(g.Options)]
	rr.objects = rr.objects[:0]
	for i, o := range rr.options {
		o.label, o.chosen, o.off = g.Options[i], g.Options[i] == g.Selected, g.Disabled()
		o.Refresh()
		rr.objects = append(rr.objects, o)
	}
}

func (rr *radioChoiceRenderer) Layout(size fyne.Size) {
	gap := theme.Padding()
	var at fyne.Position
	for _, o := range rr.options {
		m := o.MinSize()
		if rr.group.Horizontal {
			o.Move(at)
			o.Resize(fyne.NewSize(m.Width, size.Height))
			at.X += m.Width + gap
			continue
		}
		o.Move(at)
		o.Resize(fyne.NewSize(size.Width, m.Height))
		at.Y += m.Height
	}
}

func (rr *radioChoiceRenderer) MinSize() fyne.Size {
	var s fyne.Size
	for i, o := range rr.options {
		m := o.MinSize()
		if rr.group.Horizontal {
			s.Width += m.Width
			if i > 0 {
				s.Width += theme.Padding()
			}
			s.Height = max(s.Height, m.Height)
			continue
		}
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
	}
	return s
}

func (rr *radioChoiceRenderer) Refresh() {
	rr.update()
	rr.Layout(rr.group.Size())
	canvas.Refresh(rr.group)
}

func (rr *radioChoiceRenderer) Objects() []fyne.CanvasObject { return rr.objects }
func (rr *radioChoiceRenderer) Destroy()                     {}

// radioOption is one option of a radioChoice: the radio mark and the
// label, with the focus ring.
type radioOption struct {
	widget.BaseWidget
	ring        focusRing
	label       string
	chosen, off bool
	onTap       func()
}

// Tapped chooses the option and takes the focus, as Fyne's do.
func (o *radioOption) Tapped(*fyne.PointEvent) {
	if o.off {
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil {
		c.Focus(o)
	}
	o.onTap()
}

// FocusGained shows the ring.
func (o *radioOption) FocusGained() { o.ring.gained(); o.Refresh() }

// FocusLost hides it.
func (o *radioOption) FocusLost() { o.ring.lost(); o.Refresh() }

func (o *radioOption) focusRingOf() *focusRing { return &o.ring }

// Disabled is the group's: the focus passes a disabled option by.
func (o *radioOption) Disabled() bool { return o.off }

// Enable and Disable follow the group, which sets off.
func (o *radioOption) Enable()  {}
func (o *radioOption) Disable() {}

// TypedRune chooses the option on Space.
func (o *radioOption) TypedRune(r rune) {
	if r == ' ' {
		o.onTap()
	}
}

// TypedKey chooses the option on Enter, and hands Escape to the window.
func (o *radioOption) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter {
		o.onTap()
		return
	}
	escapeToWindow(o, ev)
}

// CreateRenderer draws the mark (Fyne's radio icons, coloured as Fyne
// colours them) and the label, with the ring.
func (o *radioOption) CreateRenderer() fyne.WidgetRenderer {
	fill, edge := canvas.NewImageFromResource(nil), canvas.NewImageFromResource(nil)
	text := canvas.NewText("", nil)
	r := &radioOptionRenderer{o: o, fill: fill, edge: edge, text: text, objects: []fyne.CanvasObject{fill, edge, text}}
	r.Refresh()
	return withRing(r, &o.ring)
}

type radioOptionRenderer struct {
	o          *radioOption
	fill, edge *canvas.Image
	text       *canvas.Text
	objects    []fyne.CanvasObject
}

func (r *radioOptionRenderer) iconSize() float32 { return theme.IconInlineSize() }

// Layout and MinSize are Fyne's radio item's.
func (r *radioOptionRenderer) Layout(size fyne.Size) {
	pad, icon, border := theme.InnerPadding(), r.iconSize(), theme.InputBorderSize()
	at := fyne.NewPos(pad/2+border, (size.Height-icon)/2)
	for _, img := range []*canvas.Image{r.fill, r.edge} {
		img.Move(at)
		img.Resize(fyne.NewSquareSize(icon))
	}
	r.text.Move(fyne.NewPos(icon+pad+theme.Padding(), 0))
	r.text.Resize(size)
}

func (r *radioOptionRenderer) MinSize() fyne.Size {
	pad := 2 * theme.InnerPadding()
	return r.text.MinSize().AddWidthHeight(pad+r.iconSize()+theme.Padding(), pad)
}

func (r *radioOptionRenderer) Refresh() {
	o := r.o
	edge := theme.NewThemedResource(theme.RadioButtonIcon())
	fill := theme.NewThemedResource(theme.RadioButtonFillIcon())
	edge.ColorName, fill.ColorName = theme.ColorNameInputBorder, theme.ColorNameInputBackground
	r.text.Color = theme.Color(theme.ColorNameForeground)
	if o.chosen {
		edge.ColorName, fill.ColorName = theme.ColorNameForeground, theme.ColorNamePrimary
	}
	if o.off {
		edge.ColorName, fill.ColorName = theme.ColorNameDisabled, theme.ColorNameBackground
		if o.chosen {
			fill.ColorName = theme.ColorNameDisabled
		}
		r.text.Color = theme.Color(theme.ColorNameDisabled)
	}
	r.fill.Resource, r.edge.Resource = fill, edge
	r.text.Text, r.text.TextSize = o.label, theme.TextSize()
	r.fill.Refresh()
	r.edge.Refresh()
	r.text.Refresh()
}

func (r *radioOptionRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *radioOptionRenderer) Destroy()                     {}
