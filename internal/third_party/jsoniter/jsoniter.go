// Package jsoniter stands in for github.com/json-iterator/go in sponge's
// build (a replace in go.mod): the one importer, blevesearch/geo's geojson,
// asks for the configuration "compatible with the standard library", and
// this gives it the standard library itself. See SPONGE.md.
package jsoniter

import "encoding/json"

// API is what geojson calls of a configuration.
type API interface {
	Marshal(v any) ([]byte, error)
	Unmarshal(data []byte, v any) error
}

// ConfigCompatibleWithStandardLibrary encodes and decodes as encoding/json
// does, since it is encoding/json.
var ConfigCompatibleWithStandardLibrary API = standard{}

type standard struct{}

func (standard) Marshal(v any) ([]byte, error) { return json.Marshal(v) }

func (standard) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
