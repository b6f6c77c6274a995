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
	MaxImageBytes     int64    // decoded image size (default 5 MiB: model APIs refuse more)
	MaxImageWidth     int      // pixels (default 8000)
	MaxImageHeight    int      // pixels (default 8000)
	MaxImagePixels    int64    // width × height (default 40,000,000)
	ImageTypes        []string // default png, jpeg, gif, webp; SVG is never an image
	MaxAudioBytes     int64    // decoded audio size (default 10 MiB)
	AudioTypes        []string // default wav, mpeg, ogg, flac, webm, mp4, aac
	LinkSchemes       []string // default https, http, mailto
	MaxURLLength      int      // bytes (default 2048)
	MaxHTMLBytes      int      // HTML input per block (default 1 MiB)
	MaxTextChars      int      // characters per text block (default 100,000)
	MaxResultBytes    int64    // the whole result as JSON (default 16 MiB)
	MaxTableRows      int      // default 1,000
	MaxTableColumns   int      // default 50
	MaxTableCellChars int      // default 1,000
	// MaxArgumentBytes bounds a tool call's arguments as JSON (default 1 MiB): more are refused
	// before they are read or validated against the tool's inputSchema.
	MaxArgumentBytes int
	// MaxArgumentValues bounds the JSON values in a tool call's arguments (default 10,000): the
	// reading stops at one more and the call is refused. With MaxArgumentBytes it bounds what
	// one validation costs, which on the page's thread (data-worker="off") blocks the page.
	MaxArgumentValues int
	// Strict turns any violation into an isError result that gives the reasons, instead of
	// replacing the offending block with a notice.
	Strict bool
	// PageURL is the URL of the page the result came from: a relative link ("/docs/page") is
	// resolved against it, as the page itself would. Empty, relative links are removed. It is
	// not a setting (PolicyFromJSON does not read it): the caller sets it per page.
	PageURL string
}

// DefaultPolicy returns the documented defaults.
func DefaultPolicy() Policy {
	return Policy{
		MaxImageBytes:  5 << 20,
		MaxImageWidth:  8000,
		MaxImageHeight: 8000,
		MaxImagePixels: 40_000_000,
		ImageTypes:     []string{"image/png", "image/jpeg", "image/gif", "image/webp"},
		MaxAudioBytes:  10 << 20,
		AudioTypes: []string{"audio/wav", "audio/mpeg", "audio/ogg", "audio/flac", "audio/webm", "audio/mp4",
			"audio/aac"},
		LinkSchemes:       []string{"https", "http", "mailto"},
		MaxURLLength:      2048,
		MaxHTMLBytes:      1 << 20,
		MaxTextChars:      100_000,
		MaxResultBytes:    16 << 20,
		MaxTableRows:      1000,
		MaxTableColumns:   50,
		MaxTableCellChars: 1000,
		MaxArgumentBytes:  512 << 10,
		MaxArgumentValues: 10_000,
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
		setting, ok := policySetting(k)
		if !ok {
			return DefaultPolicy(), &PolicyError{Setting: k, Message: fmt.Sprintf("policy: unknown setting %q", k)}
		}
		if err := setting.set(&p, val); err != nil {
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

// PolicySetting is one setting a page passes to configure() (or PolicyFromJSON reads): its
// JSON name, its JSON type ("integer", "boolean" or "strings", an array of strings) and what it
// limits. The table of them, PolicySettings, is the one list of settings: reading, writing and
// checking a policy go through it, and the loader's typings are generated from it.
type PolicySetting struct {
	Name string
	Type string
	Doc  string
	// field points at the setting's field of p: *int, *int64, *bool or *[]string.
	field func(p *Policy) any
}

// policySettings is the table, in the order a policy is written.
var policySettings = []PolicySetting{
	{"maxImageBytes", "integer", "decoded image size in bytes (default 5 MiB: model APIs refuse more)",
		func(p *Policy) any { return &p.MaxImageBytes }},
	{"maxImageWidth", "integer", "image width in pixels", func(p *Policy) any { return &p.MaxImageWidth }},
	{"maxImageHeight", "integer", "image height in pixels", func(p *Policy) any { return &p.MaxImageHeight }},
	{"maxImagePixels", "integer", "image width × height", func(p *Policy) any { return &p.MaxImagePixels }},
	{"imageTypes", "strings", "image types accepted (png, jpeg, gif, webp; SVG never)",
		func(p *Policy) any { return &p.ImageTypes }},
	{"maxAudioBytes", "integer", "decoded audio size in bytes", func(p *Policy) any { return &p.MaxAudioBytes }},
	{"audioTypes", "strings", "audio types accepted", func(p *Policy) any { return &p.AudioTypes }},
	{"linkSchemes", "strings", "URL schemes a link may use", func(p *Policy) any { return &p.LinkSchemes }},
	{"maxURLLength", "integer", "URL length in bytes", func(p *Policy) any { return &p.MaxURLLength }},
	{"maxHTMLBytes", "integer", "HTML input per block in bytes", func(p *Policy) any { return &p.MaxHTMLBytes }},
	{"maxTextChars", "integer", "characters per text block", func(p *Policy) any { return &p.MaxTextChars }},
	{"maxResultBytes", "integer", "the whole result as JSON, in bytes", func(p *Policy) any { return &p.MaxResultBytes }},
	{"maxTableRows", "integer", "rows per table", func(p *Policy) any { return &p.MaxTableRows }},
	{"maxTableColumns", "integer", "columns per table", func(p *Policy) any { return &p.MaxTableColumns }},
	{"maxTableCellChars", "integer", "characters per table cell", func(p *Policy) any { return &p.MaxTableCellChars }},
	{"maxArgumentBytes", "integer", "a tool call's arguments as JSON, in bytes: more are refused before validation",
		func(p *Policy) any { return &p.MaxArgumentBytes }},
	{"maxArgumentValues", "integer", "JSON values in a tool call's arguments: more are refused before validation",
		func(p *Policy) any { return &p.MaxArgumentValues }},
	{"strict", "boolean", "any violation makes the result isError instead of a notice",
		func(p *Policy) any { return &p.Strict }},
}

// PolicySettings returns the table of settings, in the order a policy is written.
func PolicySettings() []PolicySetting { return slices.Clone(policySettings) }

// Value is the setting's value in p: an int64, a bool or a []string.
func (s PolicySetting) Value(p Policy) any {
	switch f := s.field(&p).(type) {
	case *int:
		return int64(*f)
	case *int64:
		return *f
	case *bool:
		return *f
	case *[]string:
		return slices.Clone(*f)
	}
	panic("bridge: policy setting " + s.Name + " has a field of no known type")
}

// set reads v, a decoded JSON value, into the setting's field of p.
func (s PolicySetting) set(p *Policy, v any) error {
	switch f := s.field(p).(type) {
	case *int:
		n, err := wholeNumber(v)
		if err == nil && n > math.MaxInt32 {
			return fmt.Errorf("is %d; the largest allowed is %d", n, math.MaxInt32)
		}
		*f = int(n)
		return err
	case *int64:
		n, err := wholeNumber(v)
		*f = n
		return err
	case *bool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("must be true or false, not %s", jsonvalue.Compact(v))
		}
		*f = b
		return nil
	case *[]string:
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("must be an array of strings, not %s", jsonvalue.Compact(v))
		}
		out := make([]string, 0, len(list))
		for _, e := range list {
			str, ok := e.(string)
			if !ok {
				return fmt.Errorf("must be an array of strings; %s is not a string", jsonvalue.Compact(e))
			}
			out = append(out, str)
		}
		*f = out
		return nil
	}
	panic("bridge: policy setting " + s.Name + " has a field of no known type")
}

// policySetting finds a setting by its JSON name.
func policySetting(name string) (PolicySetting, bool) {
	i := slices.IndexFunc(policySettings, func(s PolicySetting) bool { return s.Name == name })
	if i < 0 {
		return PolicySetting{}, false
	}
	return policySettings[i], true
}

func wholeNumber(v any) (int64, error) {
	f, ok := jsonvalue.ToFloat(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("must be a whole number, not %s", jsonvalue.Compact(v))
	}
	return int64(f), nil
}

// MarshalJSON writes every setting under its JSON name, in the order of PolicySettings.
func (p Policy) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil) }

// writeJSON writes every setting under its JSON name, in the order of PolicySettings.
func (p Policy) writeJSON(w *jsonvalue.Writer) {
	w.Raw("{")
	first := true
	for _, s := range policySettings {
		w.Key(&first, s.Name)
		if list, ok := s.Value(p).([]string); ok && list == nil {
			w.Raw("[]")
		} else {
			w.Value(s.Value(p))
		}
	}
	w.Raw("}")
}

// Validate reports the first setting that makes no sense, as a *PolicyError.
func (p Policy) Validate() error {
	for _, s := range policySettings {
		if n, ok := s.Value(p).(int64); ok && n < 0 {
			return &PolicyError{
				Setting: s.Name,
				Message: fmt.Sprintf("policy: %s is %d; limits are 0 (none) or more", s.Name, n),
			}
		}
	}
	for i, t := range p.ImageTypes {
		switch c := canonicalType("image", t); {
		case c == "image/svg+xml":
			return &PolicyError{
				Setting: "imageTypes",
				Message: fmt.Sprintf(
					"policy: imageTypes[%d] is %s; SVG can carry script and is never accepted as an image", i, t),
			}
		case !slices.Contains(checkableImageTypes, c):
			return &PolicyError{
				Setting: "imageTypes",
				Message: fmt.Sprintf(
					"policy: imageTypes[%d] is %q, not a type the bridge can check (png, jpeg, gif, webp)", i, t),
			}
		}
	}
	for i, t := range p.AudioTypes {
		if !slices.Contains(checkableAudioTypes, canonicalType("audio", t)) {
			return &PolicyError{
				Setting: "audioTypes",
				Message: fmt.Sprintf("policy: audioTypes[%d] is %q, not a type the bridge can check "+
					"(wav, mpeg, ogg, flac, webm, mp4, aac, aiff, midi)", i, t),
			}
		}
	}
	for i, s := range p.LinkSchemes {
		c := canonicalScheme(s)
		if !schemeName.MatchString(c) {
			return &PolicyError{
				Setting: "linkSchemes",
				Message: fmt.Sprintf("policy: linkSchemes[%d] is %q, not a URL scheme (such as https)", i, s),
			}
		}
		if sanitize.NeverAllowedScheme(c) {
			return &PolicyError{
				Setting: "linkSchemes",
				Message: fmt.Sprintf("policy: linkSchemes[%d] is %q; script and local schemes are never allowed", i, s),
			}
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
var checkableAudioTypes = []string{"audio/wav", "audio/mpeg", "audio/ogg", "audio/flac", "audio/webm", "audio/mp4",
	"audio/aac", "audio/aiff", "audio/midi"}

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
