// Package models describes the model providers the config names: which
// API each speaks, where, which model, and where its key comes from (never
// the key itself). hostcore's Config keeps them in the config file; the
// adapters of internal/provider build a chat.Model from one.
package models

import (
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/redact"
)

// Provider is one model provider of the config file:
//
//	"providers": [{"name": "local", "kind": "openai", "baseURL": "http://127.0.0.1:11434/v1",
//	               "model": "llama3.2", "apiKeyEnv": "OPENAI_API_KEY"}]
//
// It never holds the key: the key comes from the environment variable
// APIKeyEnv names or, failing that, from the keyring entry kept for the
// provider's name (attachectl providers set-key). Config.Save writes
// providers back as they are, so a key can never reach the file.
type Provider struct {
	Name string `json:"name"`
	// Kind is OpenAI (Chat Completions, which OpenAI and every
	// OpenAI-compatible server speak) or Anthropic (Messages).
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
}

// The kinds of provider: the API each speaks.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// DefaultMaxTokens bounds a reply when a provider sets no maxTokens.
const DefaultMaxTokens = 4096

// envName is what an environment variable's name may be.
var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// Validate checks the entry: a name, a known kind, a model, an http(s)
// base URL if any, and a plausible variable name.
func (p Provider) Validate() error {
	switch {
	case strings.TrimSpace(p.Name) == "":
		return fault.New(fault.KindUsage, nil, "a provider needs a name")
	case p.Kind != OpenAI && p.Kind != Anthropic:
		return fault.New(fault.KindUsage, nil, "provider %q: kind %q is not %q or %q", p.Name, p.Kind, OpenAI, Anthropic)
	case strings.TrimSpace(p.Model) == "":
		return fault.New(fault.KindUsage, nil, "provider %q needs a model", p.Name)
	case p.APIKeyEnv != "" && !envName().MatchString(p.APIKeyEnv):
		return fault.New(fault.KindUsage, nil, "provider %q: apiKeyEnv %q is not an environment variable name (give the name, never the key)", p.Name, p.APIKeyEnv)
	case p.MaxTokens < 0, p.MaxRetries != nil && *p.MaxRetries < 0:
		return fault.New(fault.KindUsage, nil, "provider %q: maxTokens and maxRetries cannot be negative", p.Name)
	case p.BaseURL != "":
		u, err := url.Parse(p.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fault.New(fault.KindUsage, nil, "provider %q: baseURL %q is not an http(s) URL", p.Name, redact.URL(p.BaseURL))
		}
	}
	return nil
}

// ReplyBound returns MaxTokens, or DefaultMaxTokens when it is not set.
func (p Provider) ReplyBound() int {
	if p.MaxTokens > 0 {
		return p.MaxTokens
	}
	return DefaultMaxTokens
}
