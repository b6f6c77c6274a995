package jsonvalue

import (
	"encoding/json"
	"unsafe"
)

// boxes makes the interface values (any) of decoded strings, numbers and arrays without one
// allocation each. Converting a string to any allocates its 16-byte header on its own (an
// array's, 24 bytes); a document of many small values (an array of 500,000 numbers) spent most
// of its decoding, and of the garbage collector's time, on those. boxes writes the headers into shared slabs instead and points
// each interface value at its header, as the conversion would at its own copy. A slab is
// written once per header and never again, so the values stay immutable; it is freed when no
// value points into it.
type boxes struct {
	slab   []string
	arrays [][]any // the same for arrays: a slice header is 24 bytes of its own
}

// eface is the layout of an interface value of type any: its dynamic type and a pointer to
// the value.
type eface struct {
	typ, data unsafe.Pointer
}

var (
	stringType = typeOf("")
	numberType = typeOf(json.Number(""))
	arrayType  = typeOf([]any(nil))
)

func typeOf(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

// maxSlab is the most headers one slab holds; the first slabs are smaller, so that a small
// document allocates little.
const maxSlab = 512

func (b *boxes) string(s string) any { return b.box(s, stringType) }

func (b *boxes) number(n json.Number) any { return b.box(string(n), numberType) }

// box returns s as an interface value of type typ, whose underlying type is string.
func (b *boxes) box(s string, typ unsafe.Pointer) any { return boxIn(&b.slab, s, typ) }

// array returns a as an interface value.
func (b *boxes) array(a []any) any { return boxIn(&b.arrays, a, arrayType) }

// boxIn writes x into the slab and returns an interface value of type typ (x's type, or one of
// the same underlying type) that points at it.
func boxIn[T any](slab *[]T, x T, typ unsafe.Pointer) any {
	if len(*slab) == cap(*slab) {
		*slab = make([]T, 0, min(max(2*cap(*slab), 8), maxSlab))
	}
	*slab = append(*slab, x)
	var v any
	*(*eface)(unsafe.Pointer(&v)) = eface{typ: typ, data: unsafe.Pointer(&(*slab)[len(*slab)-1])}
	return v
}
