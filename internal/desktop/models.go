package desktop

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/provider"
	"github.com/attache/attache/internal/secretstore"
	"github.com/attache/attache/ui"
)

// newChat is the model loop over the person's conversations, its turns
// kept in the state database beside them.
func newChat(cv *hostcore.Conversations, turns chat.TurnStore) *chat.Chat {
	return chat.New(cv, turns, nil)
}

// providerModels builds a provider's model through the vendor's SDK, its
// key from the environment variable the config names, else from the
// keyring (or the 0600 file beside the config, as attachectl keeps them);
// and returns the key store the provider editor writes keys to.
func providerModels(cfgPath string, logger *slog.Logger) (func(models.Provider) (chat.Model, error), ui.ProviderKeys) {
	keys := secretstore.Open(filepath.Dir(cfgPath), &secretstore.Options{
		File: os.Getenv("ATTACHE_TOKEN_STORE") == "file",
		Warn: func(msg string) { logger.Warn(msg) },
	})
	opts := &provider.Options{Keys: keys}
	return func(pc models.Provider) (chat.Model, error) { return provider.New(pc, opts) },
		providerKeys{keys, opts}
}

// providerKeys is the secret store as the provider editor sees it.
type providerKeys struct {
	*secretstore.Store
	opts *provider.Options
}

func (k providerKeys) Source(pc models.Provider) string {
	return provider.KeySource(pc, k.opts)
}
