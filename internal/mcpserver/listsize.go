//go:build !js

package mcpserver

import "encoding/json"

// ModelVisibleBytes is the JSON size of what clients give the model of a tools/list result:
// each tool's name, title, description and inputSchema (its _meta and annotations they keep to
// themselves). TestListBytes and `webmcp-bench -relay` measure tools/list with it.
func ModelVisibleBytes(result []byte) (int, error) {
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			Title       string          `json:"title,omitempty"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(result, &list); err != nil {
		return 0, err
	}
	n := 0
	for _, t := range list.Tools {
		b, err := json.Marshal(t)
		if err != nil {
			return 0, err
		}
		n += len(b)
	}
	return n, nil
}
