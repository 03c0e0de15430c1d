package config

import (
	"slices"
	"strings"

	"github.com/attache/attache/hostcore/fault"

	"github.com/attache/attache/hostcore/models"
)

// ProviderList returns the configured providers, in the file's order.
func (c *Config) ProviderList() []models.Provider {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Clone(c.Providers)
}

// AllProviders returns the configured providers, in the file's order,
// then the builtin ones whose names no configured one takes.
func (c *Config) AllProviders(builtin ...models.Provider) []models.Provider {
	all := c.ProviderList()
	for _, b := range builtin {
		if !slices.ContainsFunc(all, func(p models.Provider) bool { return p.Name == b.Name }) {
			all = append(all, b)
		}
	}
	return all
}

// FindProvider returns the provider named name; "" means the first one.
// The builtin providers (Host.Providers) come after the configured ones,
// and a configured provider of the same name hides a builtin one.
func (c *Config) FindProvider(name string, builtin ...models.Provider) (models.Provider, error) {
	all := c.AllProviders(builtin...)
	if len(all) == 0 {
		return models.Provider{}, fault.New(fault.KindUsage, nil,
			`no model provider is configured: add "providers" to the config (see the README)`)
	}
	if name == "" {
		return all[0], nil
	}
	if i := slices.IndexFunc(all, func(p models.Provider) bool { return p.Name == name }); i >= 0 {
		return all[i], nil
	}
	names := make([]string, len(all))
	for i, p := range all {
		names[i] = p.Name
	}
	return models.Provider{}, fault.New(fault.KindUsage, nil, "no provider named %q (known: %s)", name, strings.Join(names, ", "))
}

// UpsertProvider adds or replaces (by name) a provider, for a provider
// editor; Save writes it. The entry is checked first, and it holds no key
// to write: keep one with the front end's key store.
func (c *Config) UpsertProvider(p models.Provider) error {
	if err := p.Validate(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.IndexFunc(c.Providers, func(x models.Provider) bool { return x.Name == p.Name }); i >= 0 {
		c.Providers[i] = p
	} else {
		c.Providers = append(c.Providers, p)
	}
	return nil
}

// RemoveProvider deletes a provider; it reports whether there was one.
func (c *Config) RemoveProvider(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.Providers)
	c.Providers = slices.DeleteFunc(c.Providers, func(p models.Provider) bool { return p.Name == name })
	return len(c.Providers) != n
}

// RestoreProviders puts back a list ProviderList returned, for an edit
// whose save failed.
func (c *Config) RestoreProviders(ps []models.Provider) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Providers = slices.Clone(ps)
}

// validateProviders checks every provider entry and that names are unique.
func validateProviders(ps []models.Provider) error {
	seen := map[string]bool{}
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			return err
		}
		if seen[p.Name] {
			return fault.New(fault.KindUsage, nil, "two providers are named %q", p.Name)
		}
		seen[p.Name] = true
	}
	return nil
}
