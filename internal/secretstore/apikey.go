package secretstore

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/zalando/go-keyring"
)

// Model providers' API keys are kept beside the grants, by provider name,
// under a keyring service of their own, or, where no keyring answers, in a
// 0600 file of their own (the same probe decides for both). They never go
// into the config: it names the provider and, at most, the environment
// variable that holds the key.

// apiKeyService is the keyring service the API keys are kept under.
const apiKeyService = "attache-provider"

// KeyFilePath is the fallback file of the API keys.
func (s *Store) KeyFilePath() string { return filepath.Join(s.dir, "provider-keys.json") }

func (s *Store) keyIndexPath() string { return filepath.Join(s.dir, "provider-keys-index.json") }

// APIKey returns the key kept for provider, if any. It implements
// provider.KeyStore.
func (s *Store) APIKey(provider string) (string, bool, error) {
	s.decide()
	if s.useFile {
		var key string
		var ok bool
		err := s.withKeys(false, func(all map[string]string) bool {
			key, ok = all[provider]
			return false
		})
		return key, ok, err
	}
	v, err := keyring.Get(apiKeyService, provider)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("reading the keyring: %w", err)
	}
	return v, true, nil
}

// SetAPIKey keeps key for provider, replacing any.
func (s *Store) SetAPIKey(provider, key string) error {
	if provider == "" || key == "" {
		return errors.New("a provider name and a key are needed")
	}
	s.decide()
	if s.useFile {
		s.warnKeys()
		return s.withKeys(true, func(all map[string]string) bool { all[provider] = key; return true })
	}
	if err := keyring.Set(apiKeyService, provider, key); err != nil {
		return fmt.Errorf("writing the keyring: %w", err)
	}
	return s.withKeyIndex(func(idx map[string]bool) { idx[provider] = true })
}

// DeleteAPIKey forgets the key of provider; it reports whether there was
// one.
func (s *Store) DeleteAPIKey(provider string) (bool, error) {
	s.decide()
	if s.useFile {
		var had bool
		err := s.withKeys(true, func(all map[string]string) bool {
			_, had = all[provider]
			delete(all, provider)
			return had
		})
		return had, err
	}
	err := keyring.Delete(apiKeyService, provider)
	if errors.Is(err, keyring.ErrNotFound) {
		return false, s.withKeyIndex(func(idx map[string]bool) { delete(idx, provider) })
	}
	if err != nil {
		return false, fmt.Errorf("deleting from the keyring: %w", err)
	}
	return true, s.withKeyIndex(func(idx map[string]bool) { delete(idx, provider) })
}

// APIKeyProviders names the providers that have a key kept, sorted.
func (s *Store) APIKeyProviders() ([]string, error) {
	s.decide()
	var names []string
	var err error
	if s.useFile {
		err = s.withKeys(false, func(all map[string]string) bool {
			for k := range all {
				names = append(names, k)
			}
			return false
		})
	} else {
		idx := map[string]bool{}
		err = s.locked(s.keyIndexPath(), false, &idx, func() bool { return false })
		for k := range idx {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names, err
}

// warnKeys says, once, where a key is written when no keyring answered.
func (s *Store) warnKeys() {
	if s.why == nil || s.opts.Warn == nil {
		return
	}
	s.keysWarned.Do(func() {
		s.opts.Warn(fmt.Sprintf("no OS keyring (%v): API keys are kept in %s (mode 0600)", s.why, s.KeyFilePath()))
	})
}

func (s *Store) withKeys(write bool, f func(map[string]string) bool) error {
	all := map[string]string{}
	return s.locked(s.KeyFilePath(), write, &all, func() bool { return f(all) })
}

func (s *Store) withKeyIndex(f func(map[string]bool)) error {
	idx := map[string]bool{}
	return s.locked(s.keyIndexPath(), true, &idx, func() bool { f(idx); return true })
}
