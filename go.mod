module github.com/sponge-library/sponge

go 1.26.8

require (
	github.com/RoaringBitmap/roaring/v2 v2.14.5
	github.com/blevesearch/bleve/v2 v2.6.3
	github.com/blevesearch/bleve_index_api v1.4.1
	github.com/blevesearch/geo v0.2.8 // linked through bleve (document, mapping, search); a test imports it too
	github.com/blevesearch/go-porterstemmer v1.0.3
	github.com/blevesearch/scorch_segment_api/v2 v2.4.11
	github.com/blevesearch/vellum v1.2.1
	github.com/blevesearch/zapx/v17 v17.2.5
	github.com/go-pdf/fpdf v0.9.0 // the PDF extractor reads the standard 14 fonts' widths from it
	github.com/google/jsonschema-go v0.4.3
	github.com/jessevdk/go-flags v1.6.1
	github.com/klauspost/compress v1.20.4
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/ollama/ollama v0.17.4
	github.com/rivo/uniseg v0.4.7
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/wlynxg/chardet v1.0.5
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
	golang.org/x/text v0.44.0
)

require (
	github.com/bits-and-blooms/bitset v1.24.2 // indirect
	github.com/blevesearch/go-faiss v1.1.5 // indirect
	github.com/blevesearch/mmap-go v1.2.0 // indirect
	github.com/blevesearch/segment v0.9.1 // indirect
	github.com/blevesearch/snowballstem v0.9.0 // indirect
	github.com/blevesearch/upsidedown_store_api v1.0.2 // indirect
	github.com/blevesearch/zapx/v11 v11.4.3 // indirect
	github.com/blevesearch/zapx/v12 v12.4.3 // indirect
	github.com/blevesearch/zapx/v13 v13.4.3 // indirect
	github.com/blevesearch/zapx/v14 v14.4.3 // indirect
	github.com/blevesearch/zapx/v15 v15.4.3 // indirect
	github.com/blevesearch/zapx/v16 v16.3.4 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/mschoch/smat v0.2.0 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/ulikunitz/xz v0.5.15
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.etcd.io/bbolt v1.4.0 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

// Test dependencies.
require (
	github.com/blevesearch/gtreap v0.1.1 // indirect
	github.com/google/go-cmp v0.7.0
	github.com/ledongthuc/pdf v0.0.0-20260907135840-6c8c28e0e8a0
	github.com/rogpeppe/go-internal v1.16.0
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/tools v0.52.0 // indirect
	google.golang.org/protobuf v1.36.11 // indirect
)

// vellum with a cheaper automaton-builder hash: see internal/third_party/vellum/SPONGE.md.
replace github.com/blevesearch/vellum => ./internal/third_party/vellum

// json-iterator stood in for by encoding/json (its only importer is geojson, which sponge never uses): see internal/third_party/jsoniter/SPONGE.md.
replace github.com/json-iterator/go => ./internal/third_party/jsoniter

// zapx v17 with a cheaper segment build (same segments): see internal/third_party/zapx/SPONGE.md.
replace github.com/blevesearch/zapx/v17 => ./internal/third_party/zapx
