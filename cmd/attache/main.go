// Command attache is the Attaché desktop app: an MCP host that lets a person
// attach resources, above all threengram memories, to a model's context.
package main

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/ui"
)

func main() {
	a := app.NewWithID("dev.attache.app")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	w := ui.NewMainWindow(a)
	w.ShowAndRun()
}
