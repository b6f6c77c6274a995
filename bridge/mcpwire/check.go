package mcpwire

import (
	"fmt"
	"math"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/pagetext"
)

// Check reports the first way r breaks the MCP rules this package promises for every result it
// produces: every block of a known type with its required members, image and audio data not
// empty and with a MIME type, absolute URIs, link names, annotations within range, valid UTF-8,
// and nothing JSON cannot hold (NaN, infinities) in _meta or structuredContent.
// Results from Normalize and ParseToolOutput always pass; Go servers can check their own.
func (r *CallToolResult) Check() error {
	if r == nil {
		return fmt.Errorf("result is nil")
	}
	for i, c := range r.Content {
		if err := checkBlock(c); err != nil {
			return fmt.Errorf("content[%d] (%s): %w", i, typeName(c), err)
		}
	}
	if _, err := r.MarshalJSON(); err != nil { // NaN or infinities in _meta or structuredContent
		return fmt.Errorf("the result cannot be written as JSON: %w", err)
	}
	return nil
}

func typeName(c Content) string {
	if c == nil {
		return "nil"
	}
	return c.ContentType()
}

func checkBlock(c Content) error {
	if c == nil {
		return fmt.Errorf("nil block")
	}
	ann, _ := c.Common()
	if ann != nil {
		for _, a := range ann.Audience {
			if a != RoleUser && a != RoleAssistant {
				return fmt.Errorf("audience %s is not a role", pagetext.Quote(string(a)))
			}
		}
		if ann.Priority != nil && (*ann.Priority < 0 || *ann.Priority > 1 || math.IsNaN(*ann.Priority)) {
			return fmt.Errorf("priority %v is outside 0..1", *ann.Priority)
		}
		if ann.LastModified != "" {
			if err := CheckLastModified(ann.LastModified); err != nil {
				return err
			}
		}
	}
	switch b := c.(type) {
	case *TextContent:
		if !utf8.ValidString(b.Text) {
			return fmt.Errorf("text is not valid UTF-8")
		}
	case *ImageContent:
		if len(b.Data) == 0 || !strings.HasPrefix(b.MIMEType, "image/") {
			return fmt.Errorf("image needs data and an image/ MIME type, has %d bytes and %s",
				len(b.Data), pagetext.Quote(b.MIMEType))
		}
	case *AudioContent:
		if len(b.Data) == 0 || !strings.HasPrefix(b.MIMEType, "audio/") {
			return fmt.Errorf("audio needs data and an audio/ MIME type, has %d bytes and %s",
				len(b.Data), pagetext.Quote(b.MIMEType))
		}
	case *ResourceLink:
		if err := checkURI(b.URI); err != nil {
			return err
		}
		if b.Name == "" {
			return fmt.Errorf("resource_link has no name")
		}
		for _, f := range [...]string{b.Name, b.Title, b.Description, b.MIMEType} {
			if !utf8.ValidString(f) {
				return fmt.Errorf("resource_link text %q is not valid UTF-8", f)
			}
		}
		if b.Size != nil && *b.Size < 0 {
			return fmt.Errorf("size %d is negative", *b.Size)
		}
	case *EmbeddedResource:
		if err := checkURI(b.Resource.URI); err != nil {
			return err
		}
		if b.Resource.Blob == nil && !utf8.ValidString(b.Resource.Text) {
			return fmt.Errorf("resource text is not valid UTF-8")
		}
	default:
		return fmt.Errorf("unknown block type %T", c)
	}
	return nil
}

func checkURI(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		if ue, ok := err.(*url.Error); ok {
			err = ue.Err // without the uri, which is quoted once
		}
		return fmt.Errorf("uri %s does not parse: %s", pagetext.Quote(s), pagetext.Quote(err.Error()))
	}
	if !u.IsAbs() {
		return fmt.Errorf("uri %s is not absolute", pagetext.Quote(s))
	}
	return nil
}
