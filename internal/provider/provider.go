// Package provider connects the host to model providers through the
// vendors' official SDKs: OpenAI's Chat Completions
// (github.com/openai/openai-go/v3), which OpenAI and every OpenAI-compatible
// server speak (Ollama, llama.cpp's server, vLLM, LM Studio), and
// Anthropic's Messages (github.com/anthropics/anthropic-sdk-go/v2). Each
// adapter implements hostcore.Model. A provider of kind demo is the
// built-in demo model (package demo), which reaches no network.
//
// It is an adapter in the house's sense: hostcore says what it needs of a
// model (hostcore.Model) and never imports this package, so the SDKs, and
// the dozen modules they pull in (OpenTelemetry, a websocket client, JSON
// path libraries), stay out of the domain. cmd/ wires a provider to a
// hostcore.Chat.
//
// Neither SDK is allowed to configure itself from the environment: the
// base URL and the key are the config's and nobody else's, so that an
// ANTHROPIC_API_KEY or OPENAI_BASE_URL set for another program never sends
// a conversation, or a key, somewhere the config did not say.
package provider

import (
	"errors"
	"fmt"
	"net/http"
	"os"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/provider/demo"
)

// KeyStore holds API keys by provider name (the OS keyring, see
// internal/secretstore).
type KeyStore interface {
	APIKey(provider string) (key string, ok bool, err error)
}

// Options configure New. The zero value, and nil, are usable.
type Options struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Keys is asked for a key the environment does not hold; nil means
	// the environment only.
	Keys KeyStore
	// HTTPClient makes the requests; nil means the SDK's own.
	HTTPClient *http.Client
}

func (o *Options) getenv(name string) string {
	if o != nil && o.Getenv != nil {
		return o.Getenv(name)
	}
	return os.Getenv(name)
}

// KeySource says where a provider's key comes from, for people to see
// (never the key): "env NAME", "keyring", "none", or "none needed" for
// the demo model.
func KeySource(pc hostcore.ProviderConfig, opts *Options) string {
	if pc.Kind == hostcore.ProviderDemo {
		return "none needed"
	}
	_, source, _ := Key(pc, opts)
	return source
}

// Key returns a provider's key: the environment variable APIKeyEnv names,
// if it is set and not empty, else the keyring's entry for the provider's
// name. A provider with neither has no key (a local server may need none);
// the request then goes without one, and a server that wants one answers
// 401.
func Key(pc hostcore.ProviderConfig, opts *Options) (key, source string, err error) {
	if pc.APIKeyEnv != "" {
		if v := opts.getenv(pc.APIKeyEnv); v != "" {
			return v, "env " + pc.APIKeyEnv, nil
		}
	}
	if opts != nil && opts.Keys != nil {
		v, ok, err := opts.Keys.APIKey(pc.Name)
		if err != nil {
			return "", "none", fmt.Errorf("reading the key of provider %s: %w", pc.Name, err)
		}
		if ok && v != "" {
			return v, "keyring", nil
		}
	}
	return "", "none", nil
}

// New returns the model of a provider entry.
func New(pc hostcore.ProviderConfig, opts *Options) (hostcore.Model, error) {
	if err := pc.Validate(); err != nil {
		return nil, err
	}
	if pc.Kind == hostcore.ProviderDemo {
		return demo.New(pc, nil), nil // no network, no key
	}
	key, _, err := Key(pc, opts)
	if err != nil {
		return nil, hostcore.NewModelError(hostcore.KindUsage, 0, err, "provider %s: its key could not be read", pc.Name)
	}
	var client *http.Client
	if opts != nil {
		client = opts.HTTPClient
	}
	switch pc.Kind {
	case hostcore.ProviderOpenAI:
		return newOpenAI(pc, key, client), nil
	case hostcore.ProviderAnthropic:
		return newAnthropic(pc, key, client), nil
	}
	return nil, errors.New("unreachable: Validate checks the kind")
}

// retries is the SDK retry count of a provider.
func retries(pc hostcore.ProviderConfig) int {
	if pc.MaxRetries != nil {
		return *pc.MaxRetries
	}
	return 2
}
