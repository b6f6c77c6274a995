//go:build !(js && wasm)

package bridge

import "encoding/json"

func init() { marshalFallback = json.Marshal }
