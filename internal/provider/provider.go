// Package provider connects the host to model providers through the
// vendors' official SDKs: OpenAI's Chat Completions
// (github.com/openai/openai-go/v3), which OpenAI and every OpenAI-compatible
// server speak (Ollama, llama.cpp's server, vLLM, LM Studio), and
// Anthropic's Messages (github.com/anthropics/anthropic-sdk-go/v2). Each
// adapter implements chat.Model.
//
// It is an adapter in the house's sense: hostcore says what it needs of a
// model (chat.Model) and never imports this package, so the SDKs, and
// the dozen modules they pull in (OpenTelemetry, a websocket client, JSON
// path libraries), stay out of the domain. cmd/ wires a provider to a
// chat.Chat.
//
// Neither SDK is allowed to configure itself from the environment: the
// base URL and the key are the config's and nobody else's, so that an
// ANTHROPIC_API_KEY or OPENAI_BASE_URL set for another program never sends
// a conversation, or a key, somewhere the config did not say.
package provider

import (
	"errors"
	"net/http"
	"os"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/apikey"
)

// KeyStore holds API keys by provider name (the OS keyring, see
// internal/secretstore).
type KeyStore = apikey.Store

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
// (never the key): "env NAME", "keyring", or "none".
func KeySource(pc models.Provider, opts *Options) string {
	_, source, _ := Key(pc, opts)
	return source
}

// Key returns a provider's key: the environment variable APIKeyEnv names,
// if it is set and not empty, else the keyring's entry for the provider's
// name. A provider with neither has no key (a local server may need none);
// the request then goes without one, and a server that wants one answers
// 401.
func Key(pc models.Provider, opts *Options) (k, source string, err error) {
	var keys KeyStore
	if opts != nil {
		keys = opts.Keys
	}
	return apikey.Find(pc.Name, pc.APIKeyEnv, opts.getenv, keys)
}

// New returns the model of a provider entry.
func New(pc models.Provider, opts *Options) (chat.Model, error) {
	if err := pc.Validate(); err != nil {
		return nil, err
	}
	k, _, err := Key(pc, opts)
	if err != nil {
		return nil, chat.NewModelError(fault.KindUsage, 0, err, "provider %s: its key could not be read", pc.Name)
	}
	var client *http.Client
	if opts != nil {
		client = opts.HTTPClient
	}
	switch pc.Kind {
	case models.OpenAI:
		return newOpenAI(pc, k, client), nil
	case models.Anthropic:
		return newAnthropic(pc, k, client), nil
	}
	return nil, errors.New("unreachable: Validate checks the kind")
}

// retries is the SDK retry count of a provider.
func retries(pc models.Provider) int {
	if pc.MaxRetries != nil {
		return *pc.MaxRetries
	}
	return 2
}
