package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/toolcall"
)

// A tool result's entries, as the tools panel and the conversation show
// them: a resource embedded in a result, or linked from it, is a resource
// like any other, which the person can read in the inspector and attach in
// one click (by its uri, on the tool's server and account: see
// hostcore.Conversations.AttachToolContent).

// contentTitle names an entry in a line: its kind and what it is.
func contentTitle(tc toolcall.Content) string {
	switch tc.Kind {
	case toolcall.ContentText:
		return "Text · " + byteSize(int64(len(tc.Text)))
	case toolcall.ContentImage, toolcall.ContentAudio:
		return kindWord(tc.Kind) + " · " + orNone(tc.MIMEType, "no mimeType") + " · " + byteSize(int64(entrySize(tc)))
	case toolcall.ContentResource:
		if tc.Resource == nil {
			return "Embedded resource (no contents)"
		}
		return "Embedded resource · " + tc.Resource.URI
	case toolcall.ContentLink:
		return "Resource link · " + tc.URI
	}
	return tc.Describe()
}

func kindWord(k toolcall.ContentKind) string {
	if k == toolcall.ContentAudio {
		return "Audio"
	}
	return "Image"
}

// entrySize is the size of an entry's body as the server sent it.
func entrySize(tc toolcall.Content) int {
	switch {
	case tc.Cut:
		return tc.Bytes
	case tc.Resource != nil:
		return tc.Resource.Size()
	case tc.Kind == toolcall.ContentText:
		return len(tc.Text)
	}
	return len(tc.Data)
}

// contentFacts says what else is known of an entry: a resource's type and
// size, a link's name and description, the annotations.
func contentFacts(tc toolcall.Content) string {
	var parts []string
	switch tc.Kind {
	case toolcall.ContentResource:
		if r := tc.Resource; r != nil {
			field := "text"
			if r.IsBlob {
				field = "blob"
			}
			parts = append(parts, orNone(r.MIMEType, "no mimeType"), field+", "+byteSize(int64(entrySize(tc))))
		}
	case toolcall.ContentLink:
		parts = append(parts, linkFacts(tc)...)
	}
	a := tc.Annotations
	if len(a.Audience) > 0 {
		parts = append(parts, "audience "+strings.Join(a.Audience, ", "))
	}
	if a.Priority != nil {
		parts = append(parts, "priority "+priorityText(*a.Priority))
	}
	if a.LastModified != "" {
		parts = append(parts, "modified "+a.LastModified)
	}
	if tc.Cut {
		parts = append(parts, "the body is over 64 KiB and was not kept with the turn")
	}
	return strings.Join(parts, " · ")
}

// linkFacts are what a resource link says of its resource.
func linkFacts(tc toolcall.Content) []string {
	var parts []string
	if name := firstNonEmpty(tc.Title, tc.Name); name != "" {
		parts = append(parts, name)
	}
	if tc.Description != "" {
		parts = append(parts, tc.Description)
	}
	if tc.MIMEType != "" {
		parts = append(parts, tc.MIMEType)
	}
	if tc.Size != nil {
		parts = append(parts, byteSize(*tc.Size))
	}
	return parts
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// contentBody is an entry as the body viewer shows it; ok is false for a
// link (it has no body: Read reads it) and a body that was not kept.
func contentBody(tc toolcall.Content) (pack.Content, bool) {
	switch {
	case tc.Cut:
		return pack.Content{}, false
	case tc.Kind == toolcall.ContentText:
		return pack.Content{MIMEType: "text/plain", Text: tc.Text}, true
	case tc.Kind == toolcall.ContentImage || tc.Kind == toolcall.ContentAudio:
		return pack.Content{MIMEType: tc.MIMEType, Blob: tc.Data, IsBlob: true}, true
	case tc.Kind == toolcall.ContentResource && tc.Resource != nil:
		return *tc.Resource, true
	}
	return pack.Content{}, false
}

// contentActions are what a screen does with a resource entry.
type contentActions struct {
	read   func(toolcall.Content)
	attach func(toolcall.Content)
}

// resourceButtons are Read and Attach for a resource entry (nil for an
// entry that is no resource).
func resourceButtons(tc toolcall.Content, act contentActions) *fyne.Container {
	if tc.ResourceURI() == "" {
		return nil
	}
	read := newButton("Read", theme.VisibilityIcon(), func() { act.read(tc) })
	attach := newButton("Attach", theme.ContentAddIcon(), func() { act.attach(tc) })
	return container.NewHBox(read, attach)
}

// resourceRows lists the resources of a result for the conversation: each
// with its facts, whether the model was sent it, Read and Attach.
func resourceRows(content []toolcall.Content, act contentActions) fyne.CanvasObject {
	box := container.NewVBox()
	for _, tc := range content {
		buttons := resourceButtons(tc, act)
		if buttons == nil {
			continue
		}
		title := widget.NewLabel(contentTitle(tc))
		title.Wrapping = fyne.TextWrapBreak
		rows := []fyne.CanvasObject{title}
		if f := contentFacts(tc); f != "" {
			rows = append(rows, caption(f))
		}
		if !tc.ForModel() {
			held := caption("Shown to you only: its audience is the user, so the model was not sent it.")
			held.Importance = widget.WarningImportance
			rows = append(rows, held)
		}
		box.Add(container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()), buttons, container.NewVBox(rows...)))
	}
	if len(box.Objects) == 0 {
		return nil
	}
	return box
}

// readToolContent reads the resource of tc from its tool's server and
// account, in the inspector.
func (s *shell) readToolContent(c *hostcore.Conn, tc toolcall.Content) {
	uri := tc.ResourceURI()
	s.read(readRequest{conn: c, uri: uri, title: firstNonEmpty(tc.Title, tc.Name, uri), annotations: tc.Annotations})
}

// attachToolContent attaches the resource of tc, by its uri, from its
// tool's server and account.
func (s *shell) attachToolContent(c *hostcore.Conn, tc toolcall.Content) {
	cv := s.cv
	what := fmt.Sprintf("from a result of %s", c.Server.Name)
	s.attach(what, func(ctx context.Context, conv int64, _ *hostcore.Conn) (hostcore.Attachment, error) {
		return cv.AttachToolContent(ctx, conv, c, tc)
	})
}
