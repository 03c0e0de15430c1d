package pack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Document is the assembled context: what the model is sent, deterministic
// for a given packing. It shares the items' bytes (image data) rather than
// copying them; do not change either while the document is in use.
type Document struct {
	// Sections holds one section per included item, in rank order.
	Sections []Section `json:"sections"`
}

// Section is one included item: its header (server, account, uri,
// mimeType, lastModified) and its body, one part per entry of the read, in
// the order the server sent them.
type Section struct {
	// Server, Account and URI say where the item was read from.
	Server  string `json:"server,omitempty"`
	Account string `json:"account,omitempty"`
	URI     string `json:"uri"`
	// MIMEType is the entries' MIME type; when the entries of a read have
	// different types, their distinct types in order, joined by ", ".
	MIMEType string `json:"mimeType,omitempty"`
	// LastModified is the lastModified annotation, as the server gave it.
	LastModified string `json:"lastModified,omitempty"`
	// Parts holds the body, one part per entry.
	Parts []Part `json:"parts"`
}

// PartKind says how a part of a body is passed to the model.
type PartKind string

// The kinds of part.
const (
	// PartText is a text entry, passed as is.
	PartText PartKind = "text"
	// PartImage is a PNG, JPEG, GIF or WebP blob within the model's
	// limits (see Vision), passed as an image.
	PartImage PartKind = "image"
	// PartBinary is any other blob, passed as a one-line summary because a
	// model can do nothing with its bytes; so is an image the model's API
	// would refuse, the summary saying why.
	PartBinary PartKind = "binary"
)

// Part is one entry of a read, as the model gets it.
type Part struct {
	// Kind says how the entry is passed.
	Kind PartKind `json:"type"`
	// URI and MIMEType are the entry's own, as the server sent them.
	URI      string `json:"uri,omitempty"`
	MIMEType string `json:"mimeType,omitempty"`
	// Text is the text of a PartText.
	Text string `json:"text,omitempty"`
	// Data is the image of a PartImage (base64 in JSON).
	Data []byte `json:"data,omitempty"`
	// Width and Height are a PartImage's size in pixels, as its header
	// says, and Tokens what it costs under the packing's Vision.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	Tokens int `json:"tokens,omitempty"`
	// Summary describes a PartBinary: "binary, 12,345 bytes,
	// application/pdf", or an image that does not go as one and why.
	Summary string `json:"summary,omitempty"`
	// Size is the entry's size in bytes.
	Size int `json:"size"`
}

// Assemble builds the document of p's included items, in rank order. Each
// image is passed as one if the packing's Vision takes it (see Rank): the
// limits of one image decide for each, and the request's (how many images,
// their bytes together, Anthropic's smaller sides past 20 images) for the
// images in rank order, those past them being described instead.
func Assemble(p Packing) Document {
	v := p.vision()
	d := Document{Sections: []Section{}}
	for _, dec := range p.Decisions {
		if dec.Verdict == VerdictIncluded {
			d.Sections = append(d.Sections, sectionOf(dec.Item, &v))
		}
	}
	d.limitImages(&v)
	return d
}

// limitImages applies the request's limits on images to the document.
func (d Document) limitImages(v *Vision) {
	var images []*Part
	for i := range d.Sections {
		for j := range d.Sections[i].Parts {
			if pt := &d.Sections[i].Parts[j]; pt.Kind == PartImage {
				images = append(images, pt)
			}
		}
	}
	many := v.ManyImages > 0 && len(images) > v.ManyImages
	n, total := 0, 0
	for _, pt := range images {
		switch {
		case many && (pt.Width > v.ManySide || pt.Height > v.ManySide):
			pt.describe(fmt.Sprintf("over %s's limit of %d×%d pixels in a request of more than %d images",
				v.Name, v.ManySide, v.ManySide, v.ManyImages))
		case v.MaxImages > 0 && n >= v.MaxImages:
			pt.describe(fmt.Sprintf("past %s's limit of %d images a request", v.Name, v.MaxImages))
		case v.MaxTotalBytes > 0 && total+pt.Size > v.MaxTotalBytes:
			pt.describe(fmt.Sprintf("past %s's limit of %s of images a request", v.Name, Quantity(v.MaxTotalBytes, "byte")))
		default:
			n, total = n+1, total+pt.Size
		}
	}
}

// Images returns the document's image parts, in the order they appear.
func (d Document) Images() []Part {
	var out []Part
	for _, s := range d.Sections {
		for _, p := range s.Parts {
			if p.Kind == PartImage {
				out = append(out, p)
			}
		}
	}
	return out
}

// sectionOf builds an item's section, its images decided under v. Rank
// counts its tokens from the same section, so the meter matches what is
// sent.
func sectionOf(it *Item, v *Vision) Section {
	return sectionWith(it, partsOf(it.Contents, v))
}

// sectionWith builds an item's section of parts already decided.
func sectionWith(it *Item, parts []Part) Section {
	s := Section{
		Server:       it.Server,
		Account:      it.Account,
		URI:          it.URI,
		LastModified: it.Annotations.LastModified,
		Parts:        parts,
	}
	var types []string
	for _, c := range it.Contents {
		if c.MIMEType != "" && !slices.Contains(types, c.MIMEType) {
			types = append(types, c.MIMEType)
		}
	}
	s.MIMEType = strings.Join(types, ", ")
	return s
}

// partsOf decides how each entry reaches the model.
func partsOf(cs []Content, v *Vision) []Part {
	parts := make([]Part, len(cs))
	for i, c := range cs {
		parts[i] = partOf(c, v)
	}
	return parts
}

// partOf decides how one entry reaches the model: text as it is, an image
// the model takes as an image, anything else as a line.
func partOf(c Content, v *Vision) Part {
	p := Part{Kind: PartText, URI: c.URI, MIMEType: c.MIMEType, Size: c.Size()}
	if !c.IsBlob {
		p.Text = c.Text
		return p
	}
	p.Kind, p.Summary = PartBinary, "binary, "+Quantity(len(c.Blob), "byte")
	if c.MIMEType != "" {
		p.Summary += ", " + c.MIMEType
	}
	if !imageType(c.MIMEType) || len(c.Blob) == 0 {
		return p
	}
	h, err := ReadImageHeader(c.Blob)
	if err != nil {
		p.Summary = fmt.Sprintf("%s that is not an image a model can read (%v), %s; not sent as an image",
			c.MIMEType, err, Quantity(len(c.Blob), "byte"))
		return p
	}
	if why := v.refusal(h, len(c.Blob)); why != "" {
		p.Summary = fmt.Sprintf("image, %s, %d×%d, %s: %s, so not sent as an image", h.MIMEType(), h.Width, h.Height,
			Quantity(len(c.Blob), "byte"), why)
		return p
	}
	// The type the bytes say: an API refuses a declared type that is not
	// the image's own.
	p.Kind, p.Summary, p.MIMEType, p.Data = PartImage, "", h.MIMEType(), c.Blob
	p.Width, p.Height, p.Tokens = h.Width, h.Height, v.Tokens(h.Width, h.Height)
	return p
}

// describe turns an image part into a line saying why it is not sent.
func (p *Part) describe(why string) {
	p.Summary = fmt.Sprintf("image, %s, %d×%d, %s: %s, so not sent as an image", p.MIMEType, p.Width, p.Height,
		Quantity(p.Size, "byte"), why)
	p.Kind, p.Data, p.Tokens = PartBinary, nil, 0
}

// imageType reports whether a MIME type is one of the image types models
// take: PNG, JPEG, GIF or WebP, with any parameters.
func imageType(mimeType string) bool {
	t, _, _ := strings.Cut(mimeType, ";")
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return true
	}
	return false
}

// Markdown renders the document: its sections' Markdown, separated by blank
// lines. An empty document renders as "".
func (d Document) Markdown() string {
	md := make([]string, len(d.Sections))
	for i, s := range d.Sections {
		md[i] = s.Markdown()
	}
	return strings.Join(md, "\n")
}

// Markdown renders the section: a heading with the uri, the header as a
// list, then each part. Text is fenced with more backticks than the longest
// run of backticks in it, so a body containing Markdown or fences cannot
// end its block early; an image is a line such as "[image: image/png, 1,234
// bytes; ...]" (the image itself goes as an image part); another blob is
// its summary in brackets. Text goes through RenderBody first, so a threengram
// memory reads as a heading line and its content. Entries of a multi-entry
// read each get a sub-heading with their uri and mimeType. Header values containing control characters
// (a newline could forge a heading) are rendered as Go-quoted strings.
func (s Section) Markdown() string {
	var b strings.Builder
	s.writeMarkdown(&b)
	return b.String()
}

func (s Section) writeMarkdown(w *strings.Builder) {
	texts := make([]string, len(s.Parts))
	memory := false
	for i, p := range s.Parts {
		if p.Kind == PartText {
			// a memory as a person reads it, not escaped JSON
			texts[i], memory = renderBody(p.MIMEType, p.Text)
		}
	}
	write(w, "## ", OneLine(s.URI), "\n\n")
	writeField(w, "server", s.Server)
	writeField(w, "account", s.Account)
	if !memory || len(s.Parts) > 1 {
		// A memory is sent as its rendering, which is not the JSON its
		// type names; its heading line says what it is.
		writeField(w, "mimeType", s.MIMEType)
	}
	writeField(w, "lastModified", s.LastModified)
	for i, p := range s.Parts {
		w.WriteString("\n")
		if len(s.Parts) > 1 {
			write(w, "### entry ", strconv.Itoa(i+1), " of ", strconv.Itoa(len(s.Parts)), "\n\n")
			writeField(w, "uri", p.URI)
			writeField(w, "mimeType", p.MIMEType)
			w.WriteString("\n")
		}
		p.writeMarkdown(w, texts[i])
	}
}

func write(w *strings.Builder, texts ...string) {
	for _, t := range texts {
		w.WriteString(t)
	}
}

// writeField writes a "- name: value" line, unless value is empty.
func writeField(w *strings.Builder, name, value string) {
	if value != "" {
		write(w, "- ", name, ": ", OneLine(value), "\n")
	}
}

// OneLine returns v as it is, or Go-quoted when it holds a control
// character, so that a value a server gave (a uri, a name, a message)
// stays on the line it is shown on: a newline in it could forge a heading
// of the context or a line of a log.
func OneLine(v string) string {
	if hasControl(v) {
		return strconv.Quote(v)
	}
	return v
}

// hasControl reports whether s holds a control character, looking at runes
// only when a byte could start one.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return strings.ContainsFunc(s[i:], unicode.IsControl)
		}
	}
	return false
}

func (p Part) writeMarkdown(w *strings.Builder, text string) {
	switch p.Kind {
	case PartImage:
		write(w, "[image: ", OneLine(p.MIMEType), ", ", strconv.Itoa(p.Width), "×", strconv.Itoa(p.Height), ", ",
			Quantity(p.Size, "byte"), "; the image itself follows this prompt, after its uri]\n")
	case PartBinary:
		write(w, "[", OneLine(p.Summary), "]\n")
	default:
		fence := "```"
		if n := longestRun(text, '`') + 1; n > 3 {
			fence = strings.Repeat("`", n)
		}
		write(w, fence, "\n", text)
		if text != "" && !strings.HasSuffix(text, "\n") {
			w.WriteString("\n")
		}
		write(w, fence, "\n")
	}
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest := 0
	for {
		i := strings.IndexByte(s, c) // fast on bodies with few c
		if i < 0 {
			return longest
		}
		s = s[i:]
		run := 1
		for run < len(s) && s[run] == c {
			run++
		}
		longest, s = max(longest, run), s[run:]
	}
}

// JSON renders the document as indented JSON ending in a newline: stable
// field order, image data in base64, and no HTML escaping (the text is
// passed as is, "<" included).
func (d Document) JSON() ([]byte, error) {
	if d.Sections == nil {
		d.Sections = []Section{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
