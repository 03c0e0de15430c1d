package pack

import (
	"bytes"
	"encoding/json"
	"mime"
	"strings"
	"time"
)

// A body reaches the model as text a person could read too. A threengram
// memory's body is JSON (content, memoryType, topic, scope, project,
// recordedAt), and sent as is a model reads escaped quotes and \n where the
// person wrote sentences; RenderBody turns it into one line of metadata
// and the content. Other JSON is made compact (the app issue's renderer:
// indentation costs tokens and tells a model nothing), other text is left
// as it is.

// RenderBody returns the text a model is given for a text entry of type
// mimeType. It is a pure function: the same input always renders the same.
//
//   - A threengram memory body becomes a heading line, such as
//     "fact · onboarding · project attache · scope team · recorded
//     2026-03-04", a blank line, and the content as written.
//   - Any other JSON (by its MIME type, or a body without a type that parses
//     as a JSON object or array) is made compact: no whitespace between
//     tokens, strings untouched.
//   - Everything else, including JSON that does not parse, is returned as
//     is: a body is never altered into something the server did not say.
func RenderBody(mimeType, text string) string {
	out, _ := renderBody(mimeType, text)
	return out
}

// ParseMemoryBody reads a text entry of type mimeType as a threengram
// memory: JSON (by its type, or untyped and an object) whose fields are all
// among a memory's, with a string content and a memoryType. ok is false
// for any other body, which RenderBody then does not render as a memory.
func ParseMemoryBody(mimeType, text string) (m MemoryBody, ok bool) {
	if !jsonBody(mimeType, text) {
		return MemoryBody{}, false
	}
	return parseMemoryBody(text)
}

// renderBody is RenderBody, and whether the body was a threengram memory.
func renderBody(mimeType, text string) (string, bool) {
	if !jsonBody(mimeType, text) {
		return text, false
	}
	if m, ok := parseMemoryBody(text); ok {
		return m.render(), true
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(text)); err != nil {
		return text, false
	}
	return b.String(), false
}

// jsonBody reports whether a body is JSON: by its MIME type, or, without
// one, by being a JSON object or array.
func jsonBody(mimeType, text string) bool {
	return isJSONType(mimeType) || mimeType == "" && looksLikeJSON(text)
}

// isJSONType reports whether a MIME type is JSON: application/json, text/json,
// or a +json suffix (application/ld+json), with any parameters.
func isJSONType(mimeType string) bool {
	t, _, err := mime.ParseMediaType(mimeType)
	if err != nil {
		t = strings.ToLower(strings.TrimSpace(mimeType))
	}
	return t == "application/json" || t == "text/json" || strings.HasSuffix(t, "+json")
}

// looksLikeJSON reports whether an untyped body is a JSON object or array.
func looksLikeJSON(text string) bool {
	s := strings.TrimSpace(text)
	return (strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")) && json.Valid([]byte(s))
}

// MemoryBody is a threengram memory's body as resources/read returns it,
// its fields as the server wrote them.
type MemoryBody struct {
	// Content is the memory as written.
	Content string `json:"content"`
	// MemoryType is its type ("fact", "decision", ...), never empty.
	MemoryType string `json:"memoryType"`
	// Topic, Scope and Project say what it is about and whom it is for.
	Topic   string `json:"topic"`
	Scope   string `json:"scope"`
	Project string `json:"project"`
	// RecordedAt is when it was recorded, RFC 3339 as given.
	RecordedAt string `json:"recordedAt"`
}

// memoryFields are the fields a threengram memory body may carry. A body
// with any other field is some other JSON, and is indented instead: the
// renderer never drops what it does not know.
var memoryFields = map[string]bool{
	"content": true, "contentLength": true, "memoryType": true, "topic": true,
	"scope": true, "project": true, "recordedAt": true,
}

// parseMemoryBody reads a threengram memory body: an object whose fields
// are among memoryFields, with a string content and memoryType.
func parseMemoryBody(text string) (MemoryBody, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &fields) != nil {
		return MemoryBody{}, false
	}
	for k := range fields {
		if !memoryFields[k] {
			return MemoryBody{}, false
		}
	}
	var m MemoryBody
	if json.Unmarshal([]byte(text), &m) != nil || m.MemoryType == "" {
		return MemoryBody{}, false
	}
	var content string
	if json.Unmarshal(fields["content"], &content) != nil {
		return MemoryBody{}, false
	}
	return m, true
}

// render writes the heading line and the content.
func (m MemoryBody) render() string {
	head := []string{OneLine(m.MemoryType)}
	if m.Topic != "" {
		head = append(head, OneLine(m.Topic))
	}
	if m.Project != "" {
		head = append(head, "project "+OneLine(m.Project))
	}
	if m.Scope != "" {
		head = append(head, "scope "+OneLine(m.Scope))
	}
	if m.RecordedAt != "" {
		head = append(head, "recorded "+OneLine(recordedDate(m.RecordedAt)))
	}
	return strings.Join(head, " · ") + "\n\n" + m.Content
}

// recordedDate shortens an RFC 3339 time to its date in UTC; anything else
// is kept as given.
func recordedDate(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format(time.DateOnly)
}
