package thrown

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMessage(t *testing.T) {
	for _, c := range []struct{ name, message, want string }{
		{"TypeError", "x is not a function", "TypeError: x is not a function"},
		{"Error", "plain", "plain"},
		{"", "a string was thrown", "a string was thrown"},
		{"RangeError", "RangeError: already named", "RangeError: already named"},
		{"RangeError", "RangeErrors happen", "RangeError: RangeErrors happen"},
		{"AbortError", "", "AbortError: "},
	} {
		assert.Equal(t, c.want, Message(c.name, c.message), "%q %q", c.name, c.message)
	}
}
