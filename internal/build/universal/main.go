// Command universal joins Mach-O executables for several CPUs (webmcp-mcp for darwin/amd64 and
// darwin/arm64) into one universal ("fat") binary, as Apple's lipo does: an MCP Bundle has one
// entry point per OS, not per CPU, so the bundle's macOS server must run on Intel and Apple
// silicon alike. Each slice is copied unchanged, its code signature with it.
//
//	go run ./internal/build/universal -o webmcp-mcp webmcp-mcp-amd64 webmcp-mcp-arm64
package main

import (
	"bytes"
	"debug/macho"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
)

// sliceAlign is the alignment of each slice in the file, as a power of two: 2^14, the page size
// of Apple silicon (and a multiple of Intel's).
const sliceAlign = 14

func main() {
	out := flag.String("o", "", "the universal binary to write")
	flag.Parse()
	err := errors.New("usage: universal -o OUT THIN...")
	if *out != "" && flag.NArg() > 0 {
		var slices [][]byte
		for _, p := range flag.Args() {
			b, rerr := os.ReadFile(p)
			if rerr != nil {
				err = rerr
				break
			}
			slices = append(slices, b)
		}
		if len(slices) == flag.NArg() {
			var fat []byte
			if fat, err = join(slices); err == nil {
				err = os.WriteFile(*out, fat, 0o755)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "universal:", err)
		os.Exit(1)
	}
}

// join is the universal binary of the thin Mach-O executables thins, one per CPU.
func join(thins [][]byte) ([]byte, error) {
	type arch struct {
		Cpu, SubCpu, Offset, Size, Align uint32
	}
	archs := make([]arch, len(thins))
	seen := map[macho.Cpu]bool{}
	offset := uint32(8 + 20*len(thins))
	for i, thin := range thins {
		f, err := macho.NewFile(bytes.NewReader(thin))
		if err != nil {
			return nil, fmt.Errorf("slice %d: %w", i+1, err)
		}
		if seen[f.Cpu] {
			return nil, fmt.Errorf("slice %d: a second %v slice", i+1, f.Cpu)
		}
		seen[f.Cpu] = true
		offset = (offset + 1<<sliceAlign - 1) &^ (1<<sliceAlign - 1)
		archs[i] = arch{uint32(f.Cpu), f.SubCpu, offset, uint32(len(thin)), sliceAlign}
		offset += uint32(len(thin))
	}
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, [2]uint32{macho.MagicFat, uint32(len(thins))})
	_ = binary.Write(&b, binary.BigEndian, archs)
	for i, thin := range thins {
		b.Write(make([]byte, int(archs[i].Offset)-b.Len()))
		b.Write(thin)
	}
	return b.Bytes(), nil
}
