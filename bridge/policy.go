package bridge

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/internal/jsonvalue"
	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// Policy holds the limits Normalize enforces. Start from DefaultPolicy and change what you need;
// pages pass the same settings as JSON (see PolicyFromJSON). A zero limit means "no limit";
// an empty type or scheme list allows nothing.
type Policy struct {
	MaxImageBytes     int64    `json:"maxImageBytes"`     // decoded image size (default 5 MiB: model APIs refuse more)
	MaxImageWidth     int      `json:"maxImageWidth"`     // pixels (default 8000)
	MaxImageHeight    int      `json:"maxImageHeight"`    // pixels (default 8000)
	MaxImagePixels    int64    `json:"maxImagePixels"`    // width × height (default 40,000,000)
	ImageTypes        []string `json:"imageTypes"`        // default png, jpeg, gif, webp; SVG is never an image
	MaxAudioBytes     int64    `json:"maxAudioBytes"`     // decoded audio size (default 10 MiB)
	AudioTypes        []string `json:"audioTypes"`        // default wav, mpeg, ogg, flac, webm, mp4, aac
	LinkSchemes       []string `json:"linkSchemes"`       // default https, http, mailto
	MaxURLLength      int      `json:"maxURLLength"`      // bytes (default 2048)
	MaxHTMLBytes      int      `json:"maxHTMLBytes"`      // HTML input per block (default 1 MiB)
	MaxTextChars      int      `json:"maxTextChars"`      // characters per text block (default 100,000)
	MaxResultBytes    int64    `json:"maxResultBytes"`    // the whole result as JSON (default 16 MiB)
	MaxTableRows      int      `json:"maxTableRows"`      // default 1,000
	MaxTableColumns   int      `json:"maxTableColumns"`   // default 50
	MaxTableCellChars int      `json:"maxTableCellChars"` // default 1,000
	// Strict turns any violation into an isError result that gives the reasons, instead of
	// replacing the offending block with a notice.
	Strict bool `json:"strict"`
	// PageURL is the URL of the page the result came from: a relative link ("/docs/page") is
	// resolved against it, as the page itself would. Empty, relative links are removed. It is
	// not a setting (PolicyFromJSON does not read it): the caller sets it per page.
	PageURL string `json:"-"`
}

// DefaultPolicy returns the documented defaults.
func DefaultPolicy() Policy {
	return Policy{
		MaxImageBytes:     5 << 20,
		MaxImageWidth:     8000,
		MaxImageHeight:    8000,
		MaxImagePixels:    40_000_000,
		ImageTypes:        []string{"image/png", "image/jpeg", "image/gif", "image/webp"},
		MaxAudioBytes:     10 << 20,
		AudioTypes:        []string{"audio/wav", "audio/mpeg", "audio/ogg", "audio/flac", "audio/webm", "audio/mp4", "audio/aac"},
		LinkSchemes:       []string{"https", "http", "mailto"},
		MaxURLLength:      2048,
		MaxHTMLBytes:      1 << 20,
		MaxTextChars:      100_000,
		MaxResultBytes:    16 << 20,
		MaxTableRows:      1000,
		MaxTableColumns:   50,
		MaxTableCellChars: 1000,
	}
}

// PolicyFromJSON reads a policy as JSON on top of DefaultPolicy: settings that are absent keep
// their defaults. Unknown settings, wrong types, negative limits, SVG or a type the bridge cannot
// check in imageTypes or audioTypes, and script schemes in linkSchemes are errors that name the
// setting. Type and scheme lists are returned in the names the checks use ("png" → "image/png").
func PolicyFromJSON(b []byte) (Policy, error) {
	p := DefaultPolicy()
	if len(bytes.TrimSpace(b)) == 0 || bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return p, nil
	}
	v, err := jsonvalue.Decode(b)
	if err != nil {
		return DefaultPolicy(), &PolicyError{Message: "policy: " + err.Error()}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return DefaultPolicy(), &PolicyError{Message: "policy: must be a JSON object"}
	}
	for k, val := range m {
		f, ok := p.fields()[k]
		if !ok {
			return DefaultPolicy(), &PolicyError{Setting: k, Message: fmt.Sprintf("policy: unknown setting %q", k)}
		}
		if err := f.set(val); err != nil {
			return DefaultPolicy(), &PolicyError{Setting: k, Message: fmt.Sprintf("policy: %s %v", k, err)}
		}
	}
	if err := p.Validate(); err != nil {
		return DefaultPolicy(), err
	}
	p.canonicalize()
	return p, nil
}

// PolicyError is a policy that cannot be used: Setting names the JSON setting at fault ("" when
// the document as a whole is wrong) and Message says what is wrong with it.
type PolicyError struct {
	Setting string
	Message string
}

func (e *PolicyError) Error() string { return e.Message }

// policyField is one setting, by its JSON name: how to read it and how to write it.
type policyField struct {
	set   func(v any) error
	write func(w *jsonvalue.Writer)
}

// fields maps each JSON setting name to the field of p, in the order they are written.
func (p *Policy) fields() map[string]policyField {
	return map[string]policyField{
		"maxImageBytes": int64Field(&p.MaxImageBytes), "maxImageWidth": intField(&p.MaxImageWidth),
		"maxImageHeight": intField(&p.MaxImageHeight), "maxImagePixels": int64Field(&p.MaxImagePixels),
		"imageTypes": listField(&p.ImageTypes), "maxAudioBytes": int64Field(&p.MaxAudioBytes),
		"audioTypes": listField(&p.AudioTypes), "linkSchemes": listField(&p.LinkSchemes),
		"maxURLLength": intField(&p.MaxURLLength), "maxHTMLBytes": intField(&p.MaxHTMLBytes),
		"maxTextChars": intField(&p.MaxTextChars), "maxResultBytes": int64Field(&p.MaxResultBytes),
		"maxTableRows": intField(&p.MaxTableRows), "maxTableColumns": intField(&p.MaxTableColumns),
		"maxTableCellChars": intField(&p.MaxTableCellChars), "strict": boolField(&p.Strict),
	}
}

// policyOrder is the order MarshalJSON writes the settings in.
var policyOrder = []string{"maxImageBytes", "maxImageWidth", "maxImageHeight", "maxImagePixels", "imageTypes",
	"maxAudioBytes", "audioTypes", "linkSchemes", "maxURLLength", "maxHTMLBytes", "maxTextChars", "maxResultBytes",
	"maxTableRows", "maxTableColumns", "maxTableCellChars", "strict"}

func wholeNumber(v any) (int64, error) {
	f, ok := jsonvalue.ToFloat(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("must be a whole number, not %s", jsonvalue.Compact(v))
	}
	return int64(f), nil
}

func int64Field(p *int64) policyField {
	return policyField{func(v any) error {
		n, err := wholeNumber(v)
		*p = n
		return err
	}, func(w *jsonvalue.Writer) { w.Value(*p) }}
}

func intField(p *int) policyField {
	return policyField{func(v any) error {
		n, err := wholeNumber(v)
		if err == nil && n > math.MaxInt32 {
			return fmt.Errorf("is %d; the largest allowed is %d", n, math.MaxInt32)
		}
		*p = int(n)
		return err
	}, func(w *jsonvalue.Writer) { w.Value(*p) }}
}

func boolField(p *bool) policyField {
	return policyField{func(v any) error {
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("must be true or false, not %s", jsonvalue.Compact(v))
		}
		*p = b
		return nil
	}, func(w *jsonvalue.Writer) { w.Value(*p) }}
}

func listField(p *[]string) policyField {
	return policyField{func(v any) error {
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("must be an array of strings, not %s", jsonvalue.Compact(v))
		}
		out := make([]string, 0, len(list))
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("must be an array of strings; %s is not a string", jsonvalue.Compact(e))
			}
			out = append(out, s)
		}
		*p = out
		return nil
	}, func(w *jsonvalue.Writer) {
		if *p == nil {
			w.Raw("[]")
			return
		}
		w.Value(*p)
	}}
}

// MarshalJSON writes every setting under its JSON name.
func (p Policy) MarshalJSON() ([]byte, error) { return jsonvalue.Marshal(p) }

// writeJSON writes every setting under its JSON name, in the documented order.
func (p Policy) writeJSON(w *jsonvalue.Writer) {
	fields := p.fields()
	w.Raw("{")
	first := true
	for _, k := range policyOrder {
		w.Key(&first, k)
		fields[k].write(w)
	}
	w.Raw("}")
}

// Validate reports the first setting that makes no sense, as a *PolicyError.
func (p Policy) Validate() error {
	ints := []struct {
		name string
		v    int64
	}{
		{"maxImageBytes", p.MaxImageBytes}, {"maxImageWidth", int64(p.MaxImageWidth)},
		{"maxImageHeight", int64(p.MaxImageHeight)}, {"maxImagePixels", p.MaxImagePixels},
		{"maxAudioBytes", p.MaxAudioBytes}, {"maxURLLength", int64(p.MaxURLLength)},
		{"maxHTMLBytes", int64(p.MaxHTMLBytes)}, {"maxTextChars", int64(p.MaxTextChars)},
		{"maxResultBytes", p.MaxResultBytes}, {"maxTableRows", int64(p.MaxTableRows)},
		{"maxTableColumns", int64(p.MaxTableColumns)}, {"maxTableCellChars", int64(p.MaxTableCellChars)},
	}
	for _, f := range ints {
		if f.v < 0 {
			return &PolicyError{Setting: f.name, Message: fmt.Sprintf("policy: %s is %d; limits are 0 (none) or more", f.name, f.v)}
		}
	}
	for i, t := range p.ImageTypes {
		switch c := canonicalType("image", t); {
		case c == "image/svg+xml":
			return &PolicyError{Setting: "imageTypes", Message: fmt.Sprintf("policy: imageTypes[%d] is %s; SVG can carry script and is never accepted as an image", i, t)}
		case !slices.Contains(checkableImageTypes, c):
			return &PolicyError{Setting: "imageTypes", Message: fmt.Sprintf("policy: imageTypes[%d] is %q, not a type the bridge can check (png, jpeg, gif, webp)", i, t)}
		}
	}
	for i, t := range p.AudioTypes {
		if !slices.Contains(checkableAudioTypes, canonicalType("audio", t)) {
			return &PolicyError{Setting: "audioTypes", Message: fmt.Sprintf("policy: audioTypes[%d] is %q, not a type the bridge can check (wav, mpeg, ogg, flac, webm, mp4, aac, aiff, midi)", i, t)}
		}
	}
	for i, s := range p.LinkSchemes {
		c := canonicalScheme(s)
		if !schemeName.MatchString(c) {
			return &PolicyError{Setting: "linkSchemes", Message: fmt.Sprintf("policy: linkSchemes[%d] is %q, not a URL scheme (such as https)", i, s)}
		}
		if sanitize.NeverAllowedScheme(c) {
			return &PolicyError{Setting: "linkSchemes", Message: fmt.Sprintf("policy: linkSchemes[%d] is %q; script and local schemes are never allowed", i, s)}
		}
	}
	return nil
}

// The one convention for imageTypes, audioTypes and linkSchemes: an entry may be written as a
// person would ("png", "image/JPG", "mp3", "HTTPS:"); it is read onto the name the checks use
// ("image/png", "image/jpeg", "audio/mpeg", "https"), and an entry that names nothing the
// bridge can check is an error naming the setting.

// checkableImageTypes are the image types CheckImage verifies (signature and header).
var checkableImageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// checkableAudioTypes are the audio containers CheckAudio sniffs.
var checkableAudioTypes = []string{"audio/wav", "audio/mpeg", "audio/ogg", "audio/flac", "audio/webm", "audio/mp4", "audio/aac", "audio/aiff", "audio/midi"}

var schemeName = regexp.MustCompile(`^[a-z][a-z0-9+.-]*$`)

// canonicalType reads one entry of imageTypes or audioTypes (kind "image" or "audio"): a MIME
// type or its short name.
func canonicalType(kind, t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	if t == "svg" {
		return "image/svg+xml"
	}
	if !strings.Contains(t, "/") {
		t = kind + "/" + t
	}
	return sanitize.CanonicalMIME(t)
}

// canonicalScheme reads one entry of linkSchemes: lower case, without a trailing colon.
func canonicalScheme(s string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ":")
}

// canonicalize rewrites the type and scheme lists onto the names the checks use, so the policy
// a page reads back says what is in force.
func (p *Policy) canonicalize() {
	p.ImageTypes = canonicalTypes("image", p.ImageTypes)
	p.AudioTypes = canonicalTypes("audio", p.AudioTypes)
	p.LinkSchemes = canonicalSchemes(p.LinkSchemes)
}

func canonicalSchemes(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = canonicalScheme(s)
	}
	return out
}

func (p Policy) imageLimits() sanitize.ImageLimits {
	return sanitize.ImageLimits{MaxBytes: p.MaxImageBytes, MaxWidth: p.MaxImageWidth, MaxHeight: p.MaxImageHeight,
		MaxPixels: p.MaxImagePixels, Types: canonicalTypes("image", p.ImageTypes)}
}

func (p Policy) audioLimits() sanitize.AudioLimits {
	return sanitize.AudioLimits{MaxBytes: p.MaxAudioBytes, Types: canonicalTypes("audio", p.AudioTypes)}
}

// canonicalTypes reads a whole imageTypes or audioTypes list (see canonicalType).
func canonicalTypes(kind string, types []string) []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = canonicalType(kind, t)
	}
	return out
}

func (p Policy) urlRules() sanitize.URLRules {
	return sanitize.URLRules{Schemes: canonicalSchemes(p.LinkSchemes), MaxLength: p.MaxURLLength}
}

// htmlRules hold the URLs inside html to the rules of the blocks: links follow linkSchemes
// and maxURLLength, images load over https only (as link targets they would need no more),
// and inline images get the image checks.
func (p Policy) htmlRules() sanitize.HTMLRules {
	return sanitize.HTMLRules{
		Links:        p.urlRules(),
		Images:       sanitize.URLRules{Schemes: []string{"https"}, MaxLength: p.MaxURLLength},
		InlineImages: p.imageLimits(),
	}
}
