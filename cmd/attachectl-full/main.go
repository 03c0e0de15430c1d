// Command attachectl-full is attachectl with the model SDKs and the lab's
// chart libraries linked in: it runs every command, and attachectl hands
// it the ones that need them (see internal/ctl). It is built and installed
// beside attachectl; people type attachectl.
package main

import (
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/apikey"
	"github.com/attache/attache/internal/ctl"
	"github.com/attache/attache/internal/labreport"
	"github.com/attache/attache/internal/provider"
)

func main() {
	ctl.Main(&ctl.Full{
		NewModel: func(pc models.Provider, keys apikey.Store) (chat.Model, error) {
			return provider.New(pc, &provider.Options{Keys: keys})
		},
		WriteReport: labreport.Write,
	})
}
