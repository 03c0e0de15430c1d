package pack

// Annotations are a resource's or template's hints to the host: who the
// content is for, how much it matters, and how fresh it is. They are the
// host's memory policy: ranking and packing are decided from them.
type Annotations struct {
	// Audience lists "user" and/or "assistant". Empty means no audience was
	// given, which the host treats as "for both".
	Audience []string `json:"audience,omitempty"`
	// Priority is 0..1 (1: effectively required, 0: entirely optional), or
	// nil when the server gave none. go-sdk cannot tell an absent priority
	// from 0 (float64 with omitempty); the host reads the raw JSON to tell.
	Priority *float64 `json:"priority,omitempty"`
	// LastModified is the server's ISO 8601 timestamp, as given.
	LastModified string `json:"lastModified,omitempty"`
}

// Content is one entry of a resources/read result: text, or a blob decoded
// to bytes.
type Content struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	// Text is set for text entries.
	Text string `json:"text,omitempty"`
	// Blob is set for binary entries, already decoded from base64.
	Blob []byte `json:"blob,omitempty"`
	// IsBlob tells a blob entry from a text one, since either may be empty.
	IsBlob bool `json:"isBlob,omitempty"`
}

// Size is the entry's size in bytes (text length or decoded blob length).
func (c Content) Size() int {
	if c.IsBlob {
		return len(c.Blob)
	}
	return len(c.Text)
}
