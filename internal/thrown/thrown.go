// Package thrown holds the one rule for how a thrown error reads as text, shared by the module
// (an error block that carries a name) and webmcp-mcp (a page's exception over DevTools or the
// extension), so both show a page's error the same way.
package thrown

import "strings"

// Message is the text of a thrown error whose constructor is name ("TypeError"; "" for a value
// that is not an Error): the name goes before the message only when it says more than "Error"
// and the message does not already start with it, as a browser's console shows it.
func Message(name, message string) string {
	if name != "" && name != "Error" && !strings.HasPrefix(message, name+":") {
		return name + ": " + message
	}
	return message
}
