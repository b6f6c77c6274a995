package inputschema_test

import (
	"fmt"

	"github.com/webmcp-bridge/webmcp-bridge/bridge/inputschema"
)

// Arguments are checked against the tool's inputSchema before the tool runs.
func ExampleSchema_ValidateJSON() {
	s, _ := inputschema.CompileJSON([]byte(`{"type":"object","properties":{"age":{"type":"integer","minimum":0}},"required":["age"]}`))
	fmt.Println(s.ValidateJSON([]byte(`{"age":-1}`)))
	fmt.Println(s.ValidateJSON([]byte(`{"age":30}`)))
	// Output:
	// {"path":"/age","reason":"minimum","schemaPath":"/minimum","message":"-1 is less than 0"}
	// <nil>
}
