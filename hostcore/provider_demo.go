package hostcore

import (
	"slices"

	"github.com/attache/attache/hostcore/models"
)

// Providers returns the model providers: the config's, then the built-in
// ones (HostOptions.BuiltinProviders, such as models.DemoProvider) that no
// configured one hides.
func (h *Host) Providers() []models.Provider { return h.cfg.AllProviders(h.opts.BuiltinProviders...) }

// FindProvider returns the provider named name among Providers; "" means
// the first.
func (h *Host) FindProvider(name string) (models.Provider, error) {
	return h.cfg.FindProvider(name, h.opts.BuiltinProviders...)
}

// IsBuiltinProvider reports whether the provider named name is a built-in
// one (not the config's): it cannot be edited or removed.
func (h *Host) IsBuiltinProvider(name string) bool {
	if h.hasProvider(name) {
		return false
	}
	return slices.ContainsFunc(h.opts.BuiltinProviders, func(p models.Provider) bool { return p.Name == name })
}
