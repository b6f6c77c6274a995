//go:build !js

package extension

import (
	"slices"
	"strconv"
	"strings"

	"github.com/webmcp-bridge/webmcp-bridge/internal/mcpserver"
)

// A page keeps its identity as it does under -open, where a tab is a page for as long as it
// lives: the extension stops listing a tab while it reloads or navigates, and while its origin
// is switched off in the panel, and a browser that restarts gives its tabs new ids. Here a tab
// that is listed again gets the page id it had, and a tab of a browser that came back gets the
// id of the page it had at the same URL before; the MCP side then gives the page's tools the
// names they had ([mcpserver.Server] names by page, origin and tool).

// extIdentity is which browser a host serves, as the extension says: a random id it keeps in the
// profile's storage (the same after a restart, another in another profile) and the browser's name.
type extIdentity struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// restartPage is a page of a browser that went, to be found again when the same profile is back.
type restartPage struct {
	profile, origin, url, id string
}

// Bounds of what is remembered of pages that are not listed.
const (
	maxUnlisted    = 256 // tabs not listed now whose page ids are kept
	maxRestart     = 256 // pages of browsers that went
	maxProfileChar = 100
)

// identify records which browser b is (s.mu held), once: its profile id, and its label, the
// browser's name numbered when another connected browser has the same. An extension that does
// not say gives no label to the first such browser ("browser 2" to the next).
func (s *Source) identify(b *extBrowser, id *extIdentity) {
	if b.identified {
		return
	}
	b.identified = true
	name := ""
	if id != nil {
		b.profile = mcpserver.Clip(id.ID, maxProfileChar)
		name = browserName(id.Name)
	}
	taken := func(label string) bool {
		for _, o := range s.browsers {
			if o != b && o.identified && o.label == label {
				return true
			}
		}
		return false
	}
	if name == "" {
		if !taken("") {
			return
		}
		name = "browser"
	}
	label := name
	for i := 2; taken(label); i++ {
		label = name + " " + strconv.Itoa(i)
	}
	b.label = label
}

// browserName keeps of the extension's name for its browser the letters, digits, spaces and
// ".-_()" (it is shown in descriptions), at most 40 characters.
func browserName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune(" .-_()", r):
			return r
		}
		return -1
	}, s)
	return mcpserver.Clip(strings.TrimSpace(s), 40)
}

// tabKey names a tab of browser b: by its profile when the extension said it, else by its host.
func tabKey(b *extBrowser, tab int) string {
	if b.profile != "" {
		return "profile " + b.profile + "|" + strconv.Itoa(tab)
	}
	return "socket " + b.path + "|" + strconv.Itoa(tab)
}

// pageID is the page id of tab p of browser b (s.mu held): the one it has, the one it had before
// it was unlisted, the one a page of the same profile had at the same URL before the browser
// went, or a new one.
func (s *Source) pageID(b *extBrowser, p extPage) string {
	key := tabKey(b, p.Tab)
	if id, ok := s.ids[key]; ok {
		s.relist(key, id)
		return id
	}
	if b.profile != "" {
		if i := slices.IndexFunc(s.restart, func(r restartPage) bool {
			return r.profile == b.profile && r.origin == p.Origin && r.url == p.URL && !s.idOpen(r.id)
		}); i >= 0 {
			id := s.restart[i].id
			s.restart = slices.Delete(s.restart, i, i+1)
			s.ids[key] = id
			s.relist(key, id)
			return id
		}
	}
	s.lastPage++
	id := "p" + strconv.Itoa(s.lastPage)
	s.ids[key] = id
	return id
}

// relist takes the page id back from the pages that closed, as its tab is listed again.
func (s *Source) relist(key, id string) {
	s.unlisted = slices.DeleteFunc(s.unlisted, func(k string) bool { return k == key })
	s.closed = slices.DeleteFunc(s.closed, func(p mcpserver.Page) bool { return p.ID == id })
}

// unlist keeps the page id of a tab that is no longer listed, for a while (maxUnlisted).
func (s *Source) unlist(key string) {
	s.unlisted = append(s.unlisted, key)
	if n := len(s.unlisted); n > maxUnlisted {
		for _, k := range s.unlisted[:n-maxUnlisted] {
			delete(s.ids, k)
		}
		s.unlisted = s.unlisted[n-maxUnlisted:]
	}
}

// idOpen reports whether a connected browser lists page id.
func (s *Source) idOpen(id string) bool {
	for _, b := range s.browsers {
		if _, ok := b.tabs[id]; ok {
			return true
		}
	}
	return false
}

// rememberForRestart keeps b's pages to be found again if its profile comes back (s.mu held).
func (s *Source) rememberForRestart(b *extBrowser) {
	if b.profile == "" {
		return
	}
	for _, p := range b.pages {
		s.restart = append(s.restart, restartPage{profile: b.profile, origin: p.Origin, url: p.URL, id: p.ID})
	}
	if n := len(s.restart); n > maxRestart {
		s.restart = s.restart[n-maxRestart:]
	}
}

// forgetTabs forgets the tab ids of b, which went: a browser that comes back numbers its tabs
// anew (s.mu held).
func (s *Source) forgetTabs(b *extBrowser) {
	prefix := strings.TrimSuffix(tabKey(b, 0), "0")
	for k := range s.ids {
		if strings.HasPrefix(k, prefix) {
			delete(s.ids, k)
		}
	}
	s.unlisted = slices.DeleteFunc(s.unlisted, func(k string) bool { return strings.HasPrefix(k, prefix) })
}

// MayReturn implements [mcpserver.Returner]: a page whose tab is unlisted, or whose browser
// went, may be listed again under its id.
func (s *Source) MayReturn(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.unlisted {
		if s.ids[k] == id {
			return true
		}
	}
	return slices.ContainsFunc(s.restart, func(r restartPage) bool { return r.id == id })
}
