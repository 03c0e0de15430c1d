package hostcore

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// ProviderConfig is one model provider of the config file:
//
//	"providers": [{"name": "local", "kind": "openai", "baseURL": "http://127.0.0.1:11434/v1",
//	               "model": "llama3.2", "apiKeyEnv": "OPENAI_API_KEY"}]
//
// It never holds the key: the key comes from the environment variable
// APIKeyEnv names or, failing that, from the keyring entry kept for the
// provider's name (attachectl providers set-key). Config.Save writes
// providers back as they are, so a key can never reach the file.
type ProviderConfig struct {
	Name string `json:"name"`
	// Kind is ProviderOpenAI (Chat Completions, which OpenAI and every
	// OpenAI-compatible server speak), ProviderAnthropic (Messages) or
	// ProviderDemo (the built-in demo model, offline and scripted).
	Kind string `json:"kind"`
	// BaseURL is the API's base URL; empty means the vendor's own.
	BaseURL string `json:"baseURL,omitempty"`
	// Model is the model to ask for.
	Model string `json:"model"`
	// APIKeyEnv names the environment variable holding the key.
	APIKeyEnv string `json:"apiKeyEnv,omitempty"`
	// MaxTokens bounds a reply; 0 means DefaultMaxTokens. Anthropic
	// requires a bound; it is sent to OpenAI-compatible servers too.
	MaxTokens int `json:"maxTokens,omitempty"`
	// MaxRetries is how many times the SDK retries a 408, 409, 429 or 5xx
	// (honouring Retry-After); nil means 2, the SDKs' default.
	MaxRetries *int `json:"maxRetries,omitempty"`
	// NoStream asks for whole replies instead of streamed ones, for
	// servers whose streaming is broken.
	NoStream bool `json:"noStream,omitempty"`
	// ImageDetail is OpenAI's detail for the context's images, "high"
	// (the default: the tile estimate) or "low" (85 tokens an image);
	// OpenAI-compatible providers only.
	ImageDetail string `json:"imageDetail,omitempty"`
}

// The kinds of provider.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	// ProviderDemo is the built-in demo model (see DemoProvider): it needs
	// no network, no model and no key.
	ProviderDemo = "demo"
)

// DefaultMaxTokens bounds a reply when a provider sets no maxTokens.
const DefaultMaxTokens = 4096

// envName is what an environment variable's name may be.
var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// Validate checks the entry: a name, a known kind, a model, an http(s)
// base URL if any, and a plausible variable name. A demo provider takes
// none of the settings of a model over the network.
func (p ProviderConfig) Validate() error {
	switch {
	case strings.TrimSpace(p.Name) == "":
		return newError(KindUsage, nil, "a provider needs a name")
	case p.Kind != ProviderOpenAI && p.Kind != ProviderAnthropic && p.Kind != ProviderDemo:
		return newError(KindUsage, nil, "provider %q: kind %q is not %q, %q or %q", p.Name, p.Kind,
			ProviderOpenAI, ProviderAnthropic, ProviderDemo)
	case p.Kind == ProviderDemo:
		return p.validateDemo()
	case p.ImageDetail != "" && (p.Kind != ProviderOpenAI || p.ImageDetail != "high" && p.ImageDetail != "low"):
		return newError(KindUsage, nil, "provider %q: imageDetail %q: OpenAI-compatible providers take \"high\" or \"low\"", p.Name, p.ImageDetail)
	case strings.TrimSpace(p.Model) == "":
		return newError(KindUsage, nil, "provider %q needs a model", p.Name)
	case p.APIKeyEnv != "" && !envName().MatchString(p.APIKeyEnv):
		return newError(KindUsage, nil, "provider %q: apiKeyEnv %q is not an environment variable name (give the name, never the key)", p.Name, p.APIKeyEnv)
	case p.MaxTokens < 0, p.MaxRetries != nil && *p.MaxRetries < 0:
		return newError(KindUsage, nil, "provider %q: maxTokens and maxRetries cannot be negative", p.Name)
	case p.BaseURL != "":
		u, err := url.Parse(p.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return newError(KindUsage, nil, "provider %q: baseURL %q is not an http(s) URL", p.Name, RedactURL(p.BaseURL))
		}
	}
	return nil
}

// ReplyBound returns MaxTokens, or DefaultMaxTokens when it is not set.
func (p ProviderConfig) ReplyBound() int {
	if p.MaxTokens > 0 {
		return p.MaxTokens
	}
	return DefaultMaxTokens
}

// ProviderList returns the configured providers, in the file's order.
func (c *Config) ProviderList() []ProviderConfig {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Clone(c.Providers)
}

// FindProvider returns the provider named name; "" means the first one.
// The builtin providers (Host.Providers) come after the configured ones,
// and a configured provider of the same name hides a builtin one.
func (c *Config) FindProvider(name string, builtin ...ProviderConfig) (ProviderConfig, error) {
	all := c.AllProviders(builtin...)
	if len(all) == 0 {
		return ProviderConfig{}, newError(KindUsage, nil,
			`no model provider is configured: add "providers" to the config (see the README)`)
	}
	if name == "" {
		return all[0], nil
	}
	if i := slices.IndexFunc(all, func(p ProviderConfig) bool { return p.Name == name }); i >= 0 {
		return all[i], nil
	}
	names := make([]string, len(all))
	for i, p := range all {
		names[i] = p.Name
	}
	return ProviderConfig{}, newError(KindUsage, nil, "no provider named %q (known: %s)", name, strings.Join(names, ", "))
}

// UpsertProvider adds or replaces (by name) a provider, for a provider
// editor; Save writes it. The entry is checked first, and it holds no key
// to write: keep one with the front end's key store.
func (c *Config) UpsertProvider(p ProviderConfig) error {
	if err := p.Validate(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.IndexFunc(c.Providers, func(x ProviderConfig) bool { return x.Name == p.Name }); i >= 0 {
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
	c.Providers = slices.DeleteFunc(c.Providers, func(p ProviderConfig) bool { return p.Name == name })
	return len(c.Providers) != n
}

// validateProviders checks every provider entry and that names are unique.
func validateProviders(ps []ProviderConfig) error {
	seen := map[string]bool{}
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			return err
		}
		if seen[p.Name] {
			return newError(KindUsage, nil, "two providers are named %q", p.Name)
		}
		seen[p.Name] = true
	}
	return nil
}
