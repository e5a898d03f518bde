package composite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/outfitter-go/vfsim/resolve"
)

// parseJSON decodes one JSON document into the value shapes of
// [resolve.Object]: nil, bool, float64, string, []any and *resolve.Object,
// with JavaScript's key order.
func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("unexpected end of JSON input")
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := resolve.NewObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.Set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, fmt.Errorf("unexpected delimiter %q", t)
	default:
		return t, nil
	}
}

// json2 is JSON.stringify(v, null, 2) followed by a newline.
func json2(v any) string { return string(resolve.Stringify(v, "  ")) + "\n" }

// compactJSON is JSON.stringify(v) without indentation.
func compactJSON(v any) string { return string(resolve.Stringify(v, "")) }

// stableJSON is JSON with object keys sorted, used for identities.
func stableJSON(v any) string { return resolve.StableJSON(v) }
