// Package apikey finds a model provider's API key: the environment variable
// its config entry names, else the keyring's entry for its name. It links
// no vendor SDK, so that a command which only says where a key comes from
// (attachectl providers) does not pay for the SDKs that use the key.
package apikey

import "fmt"

// Store holds API keys by provider name (the OS keyring, see
// internal/secretstore).
type Store interface {
	APIKey(provider string) (key string, ok bool, err error)
}

// Find returns the key of the provider named name: the environment
// variable envVar, if it is set and not empty, else keys' entry for name.
// A provider with neither has no key (a local server may need none); the
// request then goes without one, and a server that wants one answers 401.
// source says where the key came from, for people to see (never the key):
// "env NAME", "keyring", or "none". A nil getenv or keys is not asked.
func Find(name, envVar string, getenv func(string) string, keys Store) (key, source string, err error) {
	if envVar != "" && getenv != nil {
		if v := getenv(envVar); v != "" {
			return v, "env " + envVar, nil
		}
	}
	if keys != nil {
		v, ok, err := keys.APIKey(name)
		if err != nil {
			return "", "none", fmt.Errorf("reading the key of provider %s: %w", name, err)
		}
		if ok && v != "" {
			return v, "keyring", nil
		}
	}
	return "", "none", nil
}
