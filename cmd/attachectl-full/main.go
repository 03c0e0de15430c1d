// Command attachectl-full is attachectl with the model SDKs and the lab's
// chart libraries linked in: it runs every command, and attachectl hands
// it the ones that need them (see internal/ctl). It is built and installed
// beside attachectl; people type attachectl.
package main

import (
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/ctl"
	"github.com/attache/attache/internal/labreport"
	"github.com/attache/attache/internal/provider"
	"github.com/attache/attache/internal/apikey"
)

func main() {
	ctl.Main(&ctl.Full{
		NewModel: func(pc hostcore.ProviderConfig, keys apikey.Store) (hostcore.Model, error) {
			return provider.New(pc, &provider.Options{Keys: keys})
		},
		WriteReport: labreport.Write,
	})
}
