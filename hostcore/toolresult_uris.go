package hostcore

// What of a tool result's resources reaches the model, by uri: the lab
// counts an embedded resource the model is sent whole as delivered, like
// an attached body, and names the ones held back for the person.

// SentResources lists the uris of the resources embedded whole, as text,
// whose audience includes the model: ModelText carries their bodies. A
// resource link, a blob and a body cut short carry no data, so they are
// not among them.
func (r *ToolResult) SentResources() []string {
	var out []string
	for _, tc := range r.Content {
		if tc.Kind == ContentResource && tc.ForModel() && tc.Resource != nil && !tc.Resource.IsBlob && !tc.Cut && tc.Resource.Text != "" {
			out = append(out, tc.Resource.URI)
		}
	}
	return out
}

// HeldResources lists the uris of the resources, embedded or linked,
// that ModelText holds back because their audience leaves the model out.
func (r *ToolResult) HeldResources() []string {
	var out []string
	for _, tc := range r.Content {
		if uri := tc.ResourceURI(); uri != "" && !tc.ForModel() {
			out = append(out, uri)
		}
	}
	return out
}
