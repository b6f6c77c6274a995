//go:build !js

package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// dataSegments is the name under which wasmFunctions counts the bytes of the data section.
const dataSegments = "(data)"

// wasmFunctions reads a WebAssembly module built without -s (its "name" section names every
// function) and returns the bytes of code of each function, by the name the Go linker gives it
// there ("golang.org_x_net_html.__Tokenizer_.Next"), and the data section's bytes under
// dataSegments. `go tool nm` does not read wasm files: this is its view of the module.
func wasmFunctions(path string) (map[string]int, error) {
	bodies, data, err := wasmBodies(path)
	if err != nil {
		return nil, err
	}
	sizes := map[string]int{dataSegments: data}
	for name, body := range bodies {
		sizes[name] += len(body)
	}
	return sizes, nil
}

// wasmBodies reads the code of each function, by name, and the size of the data section.
func wasmBodies(path string) (map[string][]byte, int, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	if len(raw) < 8 || !bytes.Equal(raw[:4], []byte("\x00asm")) {
		return nil, 0, fmt.Errorf("%s is not a WebAssembly module", path)
	}
	r := bytes.NewReader(raw[8:])
	var imported int
	var bodies [][]byte // the code of each defined function, in index order
	names := map[int]string{}
	data := 0
	for r.Len() > 0 {
		id, _ := r.ReadByte()
		n, err := binary.ReadUvarint(r)
		if err != nil || n > uint64(r.Len()) {
			return nil, 0, fmt.Errorf("%s: a section's size does not read", path)
		}
		sec := make([]byte, n)
		io.ReadFull(r, sec)
		s := bytes.NewReader(sec)
		switch id {
		case 2: // imports: functions imported take the first indexes
			count, _ := binary.ReadUvarint(s)
			for range count {
				skipName(s)
				skipName(s)
				kind, _ := s.ReadByte()
				switch kind {
				case 0:
					binary.ReadUvarint(s)
					imported++
				case 1:
					s.ReadByte()
					skipLimits(s)
				case 2:
					skipLimits(s)
				case 3:
					s.ReadByte()
					s.ReadByte()
				}
			}
		case 10: // code
			count, _ := binary.ReadUvarint(s)
			for range count {
				size, _ := binary.ReadUvarint(s)
				body := make([]byte, min(int(size), s.Len()))
				io.ReadFull(s, body)
				bodies = append(bodies, body)
			}
		case 11:
			data += len(sec)
		case 0:
			if readName(s) != "name" {
				continue
			}
			for s.Len() > 0 {
				sub, _ := s.ReadByte()
				size, _ := binary.ReadUvarint(s)
				if sub != 1 {
					s.Seek(int64(size), io.SeekCurrent)
					continue
				}
				count, _ := binary.ReadUvarint(s)
				for range count {
					idx, _ := binary.ReadUvarint(s)
					names[int(idx)] = readName(s)
				}
			}
		}
	}
	if len(names) == 0 {
		return nil, 0, errors.New(path + " has no name section (built with -ldflags=-s?)")
	}
	out := make(map[string][]byte, len(bodies))
	for i, body := range bodies {
		name := names[imported+i]
		out[name] = append(out[name], body...)
	}
	return out, data, nil
}

func readName(s *bytes.Reader) string {
	n, _ := binary.ReadUvarint(s)
	b := make([]byte, min(int(n), s.Len()))
	io.ReadFull(s, b)
	return string(b)
}

func skipName(s *bytes.Reader) { n, _ := binary.ReadUvarint(s); s.Seek(int64(n), io.SeekCurrent) }

func skipLimits(s *bytes.Reader) {
	flag, _ := s.ReadByte()
	binary.ReadUvarint(s)
	if flag&1 != 0 {
		binary.ReadUvarint(s)
	}
}

// goPackage is the package a function of the name section belongs to, as the Go linker writes
// it there (the import path's slashes and hyphens as underscores, its host's dots kept):
// "golang.org_x_net_html.__Tokenizer_.Next" → "golang.org_x_net_html".
func goPackage(sym string) string {
	if sym == "" {
		return "(unnamed)"
	}
	host := ""
	if h, rest, ok := strings.Cut(sym, "_"); ok && strings.Contains(h, ".") && !strings.HasSuffix(h, ".") &&
		strings.Trim(h, "abcdefghijklmnopqrstuvwxyz0123456789.-") == "" {
		host, sym = h+"_", rest // an import path under a host: github.com_…, golang.org_…
	}
	pkg, _, _ := strings.Cut(sym, ".")
	if i := strings.IndexByte(pkg, '['); i >= 0 {
		pkg = pkg[:i] // a generic function's shape
	}
	return host + pkg
}
