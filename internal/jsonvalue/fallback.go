//go:build !(js && wasm)

package jsonvalue

import "encoding/json"

func init() { marshalFallback = json.Marshal }
