//go:build !js

package mcpserver

import (
	"regexp"
	"slices"
	"strconv"
	"time"
)

// toolKey is one tool of one page at one origin: what an MCP tool name stands for.
type toolKey struct{ page, origin, tool string }

// nameOwner is what a given MCP name stands for, and the page's URL when it was last seen.
type nameOwner struct {
	key    toolKey
	url    string
	gone   bool      // the page closed: the name answers that it is gone
	goneAt time.Time // when it went
}

// maxGoneNames bounds how many names of closed pages are remembered (to answer "gone");
// maxNamesPerPage how many names a page that is open keeps for tools it no longer lists, so a
// page that registers new names in a loop cannot grow the table without end.
const (
	maxGoneNames    = 4096
	maxNamesPerPage = 4 * MaxPageTools
)

// toolNames decides MCP names for page tools: a name is decided once, when the tool first
// appears, and stays while its page lives; it is never given to another tool of another page in
// the same server, so a client that holds a name never reaches a tool it did not mean.
//
// A tool gets its own name when no tool of any page had it and it does not look like a prefixed
// name or one of webmcp-mcp's ("p2_search", "webmcp_…"); else "<page>_<name>" (page ids have no
// "_", so a prefixed name's prefix is always the page it calls), with "_2", "_3" … appended if
// even that was taken (the same tool of the same page at another origin). Not safe for
// concurrent use: the [Server] holds syncMu.
type toolNames struct {
	names  map[toolKey]string
	owners map[string]nameOwner
	gone   []string           // names of closed pages, oldest first
	goneBy map[toolKey]string // the same, by what they stood for: a page that comes back gets them again
}

func newToolNames() *toolNames {
	n := &toolNames{names: map[toolKey]string{}, owners: map[string]nameOwner{}, goneBy: map[toolKey]string{}}
	for _, m := range managementTools {
		n.owners[m] = nameOwner{}
	}
	return n
}

// prefixed matches the names a page may not offer under its own name: those of the form of
// another page's prefixed names ("p2_search") and those of webmcp-mcp's own tools ("webmcp_…").
var prefixed = regexp.MustCompile(`(?i)^(p[0-9]+_|webmcp_)`)

// name is k's MCP name, decided now if k is new; "" when every candidate is over 128 characters.
// A page that closed and came back under the same id (a tab the extension stopped listing while
// it reloaded, or found again after the browser restarted) gets its names back: they stood for
// the same tool of the same page at the same origin, and no one else had them meanwhile.
func (n *toolNames) name(k toolKey, url string) string {
	if name, ok := n.names[k]; ok {
		o := n.owners[name]
		o.url = url
		n.owners[name] = o
		return name
	}
	if name, ok := n.goneBy[k]; ok {
		delete(n.goneBy, k)
		n.gone = slices.DeleteFunc(n.gone, func(g string) bool { return g == name })
		n.names[k] = name
		n.owners[name] = nameOwner{key: k, url: url}
		return name
	}
	var name string
	if _, taken := n.owners[k.tool]; !taken && !prefixed.MatchString(k.tool) {
		name = k.tool
	} else {
		base := k.page + "_" + k.tool
		name = base
		for i := 2; ; i++ {
			if _, taken := n.owners[name]; !taken {
				break
			}
			name = base + "_" + strconv.Itoa(i)
		}
	}
	if len(name) > 128 {
		return ""
	}
	n.names[k] = name
	n.owners[name] = nameOwner{key: k, url: url}
	return name
}

// closed marks as gone every name of a page that is no longer open, and, of a page that holds
// more than maxNamesPerPage, those of the tools it no longer lists; it forgets the oldest gone
// names past maxGoneNames.
func (n *toolNames) closed(open map[string]bool, listed map[toolKey]bool) {
	perPage := map[string]int{}
	for k := range n.names {
		perPage[k.page]++
	}
	for k, name := range n.names {
		if open[k.page] && (perPage[k.page] <= maxNamesPerPage || listed[k]) {
			continue
		}
		delete(n.names, k)
		o := n.owners[name]
		o.gone, o.goneAt = true, time.Now()
		n.owners[name] = o
		n.gone = append(n.gone, name)
		n.goneBy[k] = name
	}
	for len(n.gone) > maxGoneNames {
		delete(n.goneBy, n.owners[n.gone[0]].key)
		delete(n.owners, n.gone[0])
		n.gone = n.gone[1:]
	}
}

// goneOwner is the owner of name when name belonged to a page that closed.
func (n *toolNames) goneOwner(name string) (nameOwner, bool) {
	o, ok := n.owners[name]
	return o, ok && o.gone
}
