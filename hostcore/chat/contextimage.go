package chat

import "github.com/attache/attache/hostcore/pack"

// Images of the context reach the model as images. The system prompt is
// text in both APIs, so the assembled context's images go as image blocks
// at the head of the request's first message of the person's, each after
// a line with its uri; the system prompt's section of each says so. The
// budget counts each by the vendor's estimate (pack.Vision), which a Model
// names by implementing VisionModel.

// ContextImage is an image of the context a turn sent, as it was sent.
// The turn keeps its bytes, so that the turn can be inspected and replayed
// as it was.
type ContextImage struct {
	// URI is the entry's uri, MIMEType the type its bytes say (the API
	// refuses a declared type that is not the image's own).
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
	// Width and Height are its size in pixels, from its header; Tokens is
	// what the budget counted for it, under SentContext.Vision.
	Width  int `json:"width"`
	Height int `json:"height"`
	Tokens int `json:"tokens"`
	// Size is its length in bytes; Data the bytes (base64 in JSON).
	Size int    `json:"size"`
	Data []byte `json:"data"`
}

// VisionModel is a Model that says how its API takes images: the budget
// counts an image by the Vision's estimate, and an image past its limits
// is described in a line instead. A Model that does not say is counted
// with pack.EitherVision (the larger of the vendors' estimates, the
// stricter of their limits).
type VisionModel interface {
	Model
	Vision() pack.Vision
}

// visionOf is m's Vision, or pack.EitherVision.
func visionOf(m Model) pack.Vision {
	if vm, ok := m.(VisionModel); ok {
		return vm.Vision()
	}
	return pack.EitherVision()
}

// contextImages are a document's images, as a turn sends them.
func contextImages(doc pack.Document) []ContextImage {
	var out []ContextImage
	for _, p := range doc.Images() {
		out = append(out, ContextImage{URI: p.URI, MIMEType: p.MIMEType, Width: p.Width, Height: p.Height,
			Tokens: p.Tokens, Size: p.Size, Data: p.Data})
	}
	return out
}

// imageTokens is what a request's images cost.
func imageTokens(images []ContextImage) int {
	n := 0
	for _, im := range images {
		n += im.Tokens
	}
	return n
}

// The providers name pack's rules through chat, so that their own code
// depends on the model loop and never on the context engine.

// Vision is how a model's API takes images (pack.Vision).
type Vision = pack.Vision

// TokenCounter counts tokens as the host counts them (pack.TokenCounter).
type TokenCounter = pack.TokenCounter

var (
	// OpenAIVision is OpenAI's limits and tile estimate at a detail.
	OpenAIVision = pack.OpenAIVision
	// AnthropicVision is Anthropic's limits and width×height/750 estimate.
	AnthropicVision = pack.AnthropicVision
	// DefaultTokenCounter is the host's own tokenizer.
	DefaultTokenCounter = pack.DefaultTokenCounter
	// OneLine quotes a value that would break a line of a prompt.
	OneLine = pack.OneLine
)
