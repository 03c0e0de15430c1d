package pack

import (
	"fmt"
	"math"
)

// Vision is how a model's API takes images: what one costs in tokens, and
// the limits past which the API refuses it. The budget counts an image by
// its vendor's documented estimate, and an image past a limit is not sent
// as an image: it gets the one-line description other blobs get, saying
// which limit it is past. The figures are the vendors' documentation's
// (see AnthropicVision, OpenAIVision); the zero value is not usable, take
// one of the constructors.
type Vision struct {
	// Name says whose rules these are, for people: "Anthropic",
	// "OpenAI (detail high)".
	Name string
	// Estimate is how tokens are worked out from the size.
	Estimate ImageEstimate
	// MaxBytes bounds one image's bytes; MaxSide its width and height.
	MaxBytes, MaxSide int
	// MaxImages bounds the images of one request, and MaxTotalBytes their
	// bytes together; the images past them (in rank order) are described
	// instead.
	MaxImages, MaxTotalBytes int
	// ManyImages and ManySide: a request of more than ManyImages images
	// takes none wider or taller than ManySide (Anthropic's rule); 0 for
	// none.
	ManyImages, ManySide int
	// StillGIF refuses an animated GIF (OpenAI takes still ones only;
	// Anthropic reads the first frame).
	StillGIF bool
}

// ImageEstimate names a vendor's formula for an image's tokens.
type ImageEstimate string

// The estimates.
const (
	// EstimateAnthropic is width×height/750, after the API's own scaling
	// (see AnthropicImageTokens).
	EstimateAnthropic ImageEstimate = "anthropic"
	// EstimateOpenAIHigh is OpenAI's tile count at detail "high" (see
	// OpenAIImageTokens); EstimateOpenAILow its fixed cost at "low".
	EstimateOpenAIHigh ImageEstimate = "openai-high"
	EstimateOpenAILow  ImageEstimate = "openai-low"
	// EstimateLarger is the larger of Anthropic's and OpenAI's "high", for
	// a context whose model is not chosen yet.
	EstimateLarger ImageEstimate = "larger"
)

// AnthropicVision is Anthropic's Messages API, from its vision guide: PNG,
// JPEG, GIF or WebP; at most 8000×8000 pixels (2000×2000 in a request of
// more than 20 images); at most 100 images a request (models with a
// 200k-token window); 5 MB an image, which the API measures on the base64
// text, so 3.75 MiB of image; and a request of at most 32 MB, of which the
// images are kept to 24 MB before base64.
func AnthropicVision() Vision {
	return Vision{Name: "Anthropic", Estimate: EstimateAnthropic, MaxBytes: 5 << 20 * 3 / 4, MaxSide: 8000,
		MaxImages: 100, MaxTotalBytes: 24_000_000, ManyImages: 20, ManySide: 2000}
}

// OpenAIVision is OpenAI's Chat Completions at the given detail ("low";
// anything else is "high"), from its images and vision guide: PNG, JPEG,
// WebP or a GIF that is not animated; at most 20 MB an image, 500 images
// and 50 MB of images a request. A large image is scaled down by the API,
// not refused, so there is no bound on its sides.
func OpenAIVision(detail string) Vision {
	v := Vision{Name: "OpenAI (detail high)", Estimate: EstimateOpenAIHigh, MaxBytes: 20_000_000,
		MaxImages: 500, MaxTotalBytes: 50_000_000, StillGIF: true}
	if detail == "low" {
		v.Name, v.Estimate = "OpenAI (detail low)", EstimateOpenAILow
	}
	return v
}

// EitherVision is what a context is counted with before a model is
// chosen (the attachments screen, rank, export): the larger of the two
// vendors' estimates, and the stricter of their limits.
func EitherVision() Vision {
	a, o := AnthropicVision(), OpenAIVision("high")
	return Vision{Name: "Anthropic or OpenAI, the larger estimate", Estimate: EstimateLarger,
		MaxBytes: min(a.MaxBytes, o.MaxBytes), MaxSide: a.MaxSide, MaxImages: min(a.MaxImages, o.MaxImages),
		MaxTotalBytes: min(a.MaxTotalBytes, o.MaxTotalBytes), ManyImages: a.ManyImages, ManySide: a.ManySide,
		StillGIF: true}
}

// Tokens is what an image of w×h pixels costs under v.
func (v Vision) Tokens(w, h int) int {
	switch v.Estimate {
	case EstimateAnthropic:
		return AnthropicImageTokens(w, h)
	case EstimateOpenAILow:
		return OpenAIImageTokens(w, h, "low")
	case EstimateOpenAIHigh:
		return OpenAIImageTokens(w, h, "high")
	}
	return max(AnthropicImageTokens(w, h), OpenAIImageTokens(w, h, "high"))
}

// AnthropicImageTokens is Anthropic's estimate of an image's tokens,
// width×height/750 (rounded up), after the scaling its vision guide
// describes: an image whose long edge is over 1568 pixels, or that would
// cost over about 1,600 tokens, is first scaled down, keeping its aspect
// ratio, until it is within both.
func AnthropicImageTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		return 0
	}
	fw, fh := float64(w), float64(h)
	if long := max(fw, fh); long > 1568 {
		fw, fh = fw*1568/long, fh*1568/long
	}
	if px := fw * fh; px > 1600*750 {
		s := math.Sqrt(1600 * 750 / px)
		fw, fh = fw*s, fh*s
	}
	return int(math.Ceil(math.Floor(fw) * math.Floor(fh) / 750))
}

// OpenAIImageTokens is OpenAI's cost of an image at detail "low" (85
// tokens, whatever its size) or "high": scaled to fit in 2048×2048, then
// so that its short side is at most 768 pixels, then 170 tokens per
// 512-pixel tile it covers, plus 85. (This is the GPT-4o and GPT-4.1
// family's formula; OpenAI's mini models bill by 32-pixel patches
// instead.)
func OpenAIImageTokens(w, h int, detail string) int {
	if w <= 0 || h <= 0 {
		return 0
	}
	if detail == "low" {
		return 85
	}
	fw, fh := float64(w), float64(h)
	if long := max(fw, fh); long > 2048 {
		fw, fh = fw*2048/long, fh*2048/long
	}
	if short := min(fw, fh); short > 768 {
		fw, fh = fw*768/short, fh*768/short
	}
	tiles := math.Ceil(math.Floor(fw)/512) * math.Ceil(math.Floor(fh)/512)
	return 170*int(tiles) + 85
}

// refusal says why an image cannot go to the model as an image under v, or
// "" when it can (the request's own limits are checked in Assemble).
func (v Vision) refusal(h ImageHeader, size int) string {
	switch {
	case v.MaxBytes > 0 && size > v.MaxBytes:
		return fmt.Sprintf("over %s's limit of %s an image", v.Name, Quantity(v.MaxBytes, "byte"))
	case v.MaxSide > 0 && (h.Width > v.MaxSide || h.Height > v.MaxSide):
		return fmt.Sprintf("over %s's limit of %d×%d pixels", v.Name, v.MaxSide, v.MaxSide)
	case v.StillGIF && h.Format == "gif" && h.Animated:
		return fmt.Sprintf("an animated GIF, which %s does not take", v.Name)
	}
	return ""
}
