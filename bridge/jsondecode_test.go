package bridge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stdDecode is what decodeJSON must agree with: encoding/json with UseNumber.
func stdDecode(b []byte) (any, error) {
	if !json.Valid(b) {
		return nil, assert.AnError
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func TestDecodeJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`"plain"`, `"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00"`, `"lone \ud800 x"`, "\"bad \xff utf8\"", `"é日本"`,
		`{"a":[1,-2.5e+3,0,true,false,null,{}],"b":{"c":[]}}`, ` [ 1 , 2 ] `, `-0.0E-1`, `12345678901234567890`,
	} {
		want, err := stdDecode([]byte(s))
		require.NoError(t, err, s)
		got, err := decodeJSON([]byte(s))
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	for _, s := range []string{``, `{`, `[1,]`, `{"a" 1}`, `01`, `1.`, `"\x01"`, `"\q"`, `tru`, `1 2`, `{"a":1,}`, `"\u12"`} {
		_, err := decodeJSON([]byte(s))
		assert.Error(t, err, "%q", s)
		_, stdErr := stdDecode([]byte(s))
		assert.Error(t, stdErr, "encoding/json also refuses %q", s)
	}
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"a":[1,"\u00e9\ud800"]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		want, wantErr := stdDecode(b)
		got, err := decodeJSON(b)
		if (wantErr == nil) != (err == nil) {
			t.Fatalf("%q: encoding/json error %v, decodeJSON error %v", b, wantErr, err)
		}
		if err == nil {
			assert.Equal(t, want, got)
		}
	})
}
