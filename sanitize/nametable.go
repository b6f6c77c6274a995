package sanitize

import (
	"slices"
	"sync"
)

// A nameTable finds a name of a fixed list by a slot computed from the name's length and its
// first, middle and last bytes, then one comparison: cheaper than hashing the name into a map,
// above all in WebAssembly, where hashing a string has no hardware help. The writer looks up
// every tag it reads and the counts every tag and attribute name, so this runs per name.
type nameTable struct {
	names []string
	slots [512]uint8 // by nameSlot: 1 + the index in names of the name in that slot (0: none)
}

// newNameTable is the table of names (at most 255). It panics when two names share a slot,
// which every test would show at once.
func newNameTable(names ...string) *nameTable {
	t := &nameTable{names: names}
	for i, n := range names {
		s := nameSlot(n)
		if j := t.slots[s]; j != 0 {
			panic("sanitize: " + n + " and " + names[j-1] + " share a slot of a name table")
		}
		t.slots[s] = uint8(i + 1)
	}
	return t
}

// nameSlot is a name's slot in a nameTable.
func nameSlot[S string | []byte](name S) int {
	if len(name) == 0 {
		return 0
	}
	return (len(name)*5 + int(name[0])*31 + int(name[len(name)/2])*7 + int(name[len(name)-1])*11) & 511
}

// indexOf is name's index in t's names, or -1.
func indexOf[S string | []byte](t *nameTable, name S) int {
	i := int(t.slots[nameSlot(name)]) - 1
	if i < 0 || len(name) == 0 || t.names[i] != string(name) {
		return -1
	}
	return i
}

// withoutClashes is names less each that shares a slot with a name before it: a counter
// counts a name left out in its map.
func withoutClashes(names ...string) []string {
	var taken [512]bool
	kept := names[:0:0]
	for _, n := range names {
		if !taken[nameSlot(n)] {
			taken[nameSlot(n)] = true
			kept = append(kept, n)
		}
	}
	return kept
}

// keptElements is the table of htmlElements, by the same index.
var keptElements = sync.OnceValue(func() *nameTable { return newNameTable(htmlElements...) })

// keptElement reports whether name is one of htmlElements.
func keptElement(name string) bool { return indexOf(keptElements(), name) >= 0 }

// countedTags and countedAttrs are the names the removal counts hold without a map: the elements
// the policy keeps and those a page most often has that it drops; the attributes it keeps, those
// the writer reads and those a page most often has (less those whose slot an earlier one took).
// Any other name is counted in a map.
var (
	countedTags = sync.OnceValue(func() *nameTable {
		return newNameTable(withoutClashes(append(slices.Clone(htmlElements), "template", "script", "style", "iframe",
			"form", "input", "button", "svg", "link", "meta", "object", "embed", "font", "center", "select", "option",
			"textarea", "label")...)...)
	})
	countedAttrs = sync.OnceValue(func() *nameTable {
		var names []string
		for _, a := range htmlAttrs {
			if !slices.Contains(names, a.Name) {
				names = append(names, a.Name)
			}
		}
		return newNameTable(withoutClashes(append(names, "hidden", "style", "class", "id", "name", "type", "onclick",
			"onerror", "onload", "role", "tabindex", "srcset", "aria-label", "aria-hidden", "loading", "decoding")...)...)
	})
)
