package hostcore

import "slices"

// DemoProviderName is the name of the built-in demo model's provider, as
// --provider and the provider picker know it.
const DemoProviderName = "demo"

// DemoModelName is how the demo model is named wherever it appears: the
// provider picker and editor, the conversation window, the turns, and
// attachectl providers.
const DemoModelName = "demo model (offline, scripted)"

// DemoProvider is the built-in demo model: it runs in the host's process,
// reaches no network and needs no key, and answers from the attached
// context (see internal/provider/demo). The app and attachectl offer it
// after the configured providers, so that a first run has a conversation
// that works.
func DemoProvider() ProviderConfig {
	return ProviderConfig{Name: DemoProviderName, Kind: ProviderDemo, Model: DemoModelName}
}

// validateDemo refuses a demo entry's settings of a model over the
// network.
func (p ProviderConfig) validateDemo() error {
	if p.BaseURL != "" || p.APIKeyEnv != "" || p.MaxRetries != nil || p.NoStream || p.ImageDetail != "" {
		return newError(KindUsage, nil, "provider %q: a demo provider runs in the app: it takes no baseURL, apiKeyEnv, "+
			"maxRetries, noStream or imageDetail", p.Name)
	}
	if p.Model != "" && p.Model != DemoModelName {
		return newError(KindUsage, nil, "provider %q: a demo provider's model is %q (or leave it out)", p.Name, DemoModelName)
	}
	return nil
}

// ModelName is the model as people are shown it: the configured model, or
// DemoModelName for a demo provider.
func (p ProviderConfig) ModelName() string {
	if p.Kind == ProviderDemo {
		return DemoModelName
	}
	return p.Model
}

// Label names the provider for people: "name (model)", or for the demo
// provider its model's name alone, which says what it is.
func (p ProviderConfig) Label() string {
	if p.Kind == ProviderDemo && p.Name == DemoProviderName {
		return DemoModelName
	}
	return p.Name + " (" + p.ModelName() + ")"
}

// ModelLabel names a turn's provider and model for people, as Label does
// for a provider.
func ModelLabel(provider, model string) string {
	if model == DemoModelName && (provider == DemoProviderName || provider == "") {
		return DemoModelName
	}
	return provider + " (" + model + ")"
}

// AllProviders returns the configured providers, in the file's order,
// then the builtin ones whose names no configured one takes.
func (c *Config) AllProviders(builtin ...ProviderConfig) []ProviderConfig {
	all := c.ProviderList()
	for _, b := range builtin {
		if !slices.ContainsFunc(all, func(p ProviderConfig) bool { return p.Name == b.Name }) {
			all = append(all, b)
		}
	}
	return all
}

// Providers returns the model providers: the config's, then the built-in
// ones (HostOptions.BuiltinProviders) that no configured one hides.
func (h *Host) Providers() []ProviderConfig { return h.cfg.AllProviders(h.opts.BuiltinProviders...) }

// FindProvider returns the provider named name among Providers; "" means
// the first.
func (h *Host) FindProvider(name string) (ProviderConfig, error) {
	return h.cfg.FindProvider(name, h.opts.BuiltinProviders...)
}

// IsBuiltinProvider reports whether the provider named name is a built-in
// one (not the config's): it cannot be edited or removed.
func (h *Host) IsBuiltinProvider(name string) bool {
	if slices.ContainsFunc(h.cfg.ProviderList(), func(p ProviderConfig) bool { return p.Name == name }) {
		return false
	}
	return slices.ContainsFunc(h.opts.BuiltinProviders, func(p ProviderConfig) bool { return p.Name == name })
}
