package bridge

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/sanitize"
)

// binaryData is an image's or audio's data: bytes as they are (a Go caller's, or a binary the
// page handed over), or a string read by decodeBinary. Bytes over maxBytes are refused.
func binaryData(data any, maxBytes int64, limit string) ([]byte, string, error) {
	if b, ok := data.([]byte); ok {
		if maxBytes > 0 && int64(len(b)) > maxBytes {
			return nil, "", sizeErr(int64(len(b)), maxBytes, limit)
		}
		return b, "", nil
	}
	s, _ := data.(string)
	return decodeBinary(s, maxBytes, limit)
}

// decodeBinary reads base64 (standard or URL alphabet, padded or not, white space ignored) or a
// data: URL, and returns the bytes and the data URL's MIME type. It refuses early when the
// encoded length alone shows the decoded bytes would exceed maxBytes.
func decodeBinary(s string, maxBytes int64, limit string) ([]byte, string, error) {
	mime := ""
	if len(s) > 5 && strings.EqualFold(s[:5], "data:") {
		comma := strings.IndexByte(s, ',')
		if comma < 0 {
			return nil, "", &sanitize.LimitError{Limit: "imageTypes", Reason: "the data: URL has no comma"}
		}
		header := s[5:comma]
		params := strings.Split(header, ";")
		mime = strings.TrimSpace(params[0])
		isBase64 := false
		for _, p := range params[1:] {
			if strings.EqualFold(strings.TrimSpace(p), "base64") {
				isBase64 = true
			}
		}
		s = s[comma+1:]
		if !isBase64 {
			dec, err := url.PathUnescape(s)
			if err != nil {
				return nil, "", &sanitize.LimitError{Limit: "imageTypes", Reason: "the data: URL is not valid percent-encoding"}
			}
			if maxBytes > 0 && int64(len(dec)) > maxBytes {
				return nil, "", sizeErr(int64(len(dec)), maxBytes, limit)
			}
			return []byte(dec), mime, nil
		}
	}
	if maxBytes > 0 {
		if est := int64(len(s)) / 4 * 3; est > maxBytes+3 {
			return nil, "", sizeErr(est, maxBytes, limit)
		}
	}
	// Standard padded base64 first, as nearly everyone sends; white space only when that fails.
	for attempt := 0; attempt < 2; attempt++ {
		text := s
		if attempt == 1 {
			text = stripBase64Space(s)
		}
		for _, enc := range []*base64.Encoding{
			base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding,
		} {
			if b, err := enc.DecodeString(text); err == nil {
				if maxBytes > 0 && int64(len(b)) > maxBytes {
					return nil, "", sizeErr(int64(len(b)), maxBytes, limit)
				}
				return b, mime, nil
			}
		}
	}
	return nil, "", &sanitize.LimitError{Limit: "imageTypes", Reason: "the data is neither base64 nor a data: URL"}
}

func sizeErr(n, max int64, limit string) error {
	return &sanitize.LimitError{Limit: limit, Reason: fmt.Sprintf("%s exceeds the %s limit",
		sanitize.FormatBytes(n), sanitize.FormatBytes(max))}
}

func stripBase64Space(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
}
