package hostcore

import (
	"context"
	"fmt"
	"slices"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
)

// The model providers of the config are edited through the Host, as its
// servers are (servers.go): each edit is checked, applied and saved in one
// call, and a save that fails leaves the providers as they were. A
// provider's API key is not the Host's: it stays with the front end's key
// store.

// AddProvider adds a provider to the config and saves it. A provider of
// that name must not exist yet.
func (h *Host) AddProvider(ctx context.Context, pc models.Provider) error {
	if err := pc.Validate(); err != nil {
		return err
	}
	if h.hasProvider(pc.Name) {
		return newError(fault.KindUsage, nil, "a provider named %q already exists", pc.Name)
	}
	return h.editProviders(func() error { return h.cfg.UpsertProvider(pc) })
}

// ReplaceProvider stores a changed entry of an existing provider (by name),
// in its place, and saves the config.
func (h *Host) ReplaceProvider(ctx context.Context, pc models.Provider) error {
	if err := pc.Validate(); err != nil {
		return err
	}
	if !h.hasProvider(pc.Name) {
		return newError(fault.KindNotFound, nil, "no provider named %q to replace", pc.Name)
	}
	return h.editProviders(func() error { return h.cfg.UpsertProvider(pc) })
}

// RemoveProvider removes a provider from the config and saves it. Turns
// already sent with it keep its name.
func (h *Host) RemoveProvider(ctx context.Context, name string) error {
	if !h.hasProvider(name) {
		return newError(fault.KindNotFound, nil, "no provider named %q", name)
	}
	return h.editProviders(func() error {
		h.cfg.RemoveProvider(name)
		return nil
	})
}

func (h *Host) hasProvider(name string) bool {
	return slices.ContainsFunc(h.cfg.ProviderList(), func(p models.Provider) bool { return p.Name == name })
}

// editProviders applies edit and saves the config; if either fails, the
// providers are put back as they were.
func (h *Host) editProviders(edit func() error) error {
	before := h.cfg.ProviderList()
	err := edit()
	if err == nil {
		if err = h.cfg.Save(); err != nil {
			err = fmt.Errorf("saving the config: %w", err)
		}
	}
	if err != nil {
		h.cfg.RestoreProviders(before)
	}
	return err
}
