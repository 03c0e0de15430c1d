package models

import "github.com/attache/attache/hostcore/fault"

// Demo is the kind of the built-in demo model (see DemoProvider): it runs
// in the host's process, needs no network, no model and no key.
const Demo = "demo"

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
func DemoProvider() Provider {
	return Provider{Name: DemoProviderName, Kind: Demo, Model: DemoModelName}
}

// validateDemo refuses a demo entry's settings of a model over the
// network.
func (p Provider) validateDemo() error {
	if p.BaseURL != "" || p.APIKeyEnv != "" || p.MaxRetries != nil || p.NoStream || p.ImageDetail != "" {
		return fault.New(fault.KindUsage, nil, "provider %q: a demo provider runs in the app: it takes no baseURL, apiKeyEnv, "+
			"maxRetries, noStream or imageDetail", p.Name)
	}
	if p.Model != "" && p.Model != DemoModelName {
		return fault.New(fault.KindUsage, nil, "provider %q: a demo provider's model is %q (or leave it out)", p.Name, DemoModelName)
	}
	return nil
}

// ModelName is the model as people are shown it: the configured model, or
// DemoModelName for a demo provider.
func (p Provider) ModelName() string {
	if p.Kind == Demo {
		return DemoModelName
	}
	return p.Model
}

// Label names the provider for people: "name (model)", or for the demo
// provider its model's name alone, which says what it is.
func (p Provider) Label() string {
	if p.Kind == Demo && p.Name == DemoProviderName {
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
