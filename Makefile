# sponge: build, test, bench.
#   make demo    install what is needed, build, save the sample documents in a demo library, ask it
#   make test    run every test (what CI runs)
#   make bench   run the benchmarks and print their tables
# Every binary but sponge-draft builds without cgo.
GO      ?= go
BIN     := bin
DEMO    := .demo/library
STAGES  := sponge-search sponge-rank sponge-draft sponge-verify sponge-render
PURE    := sponge sponge-search sponge-rank sponge-verify sponge-render
# Debian packages the build needs (headers for the vendored llama.cpp).
APT_PKGS := nlohmann-json3-dev libstb-dev

# --- llama block: the cgo flags sponge-draft's llama.cpp needs (CGO_ENV) ---
# sponge-draft links llama.cpp through github.com/ollama/ollama/llama. Its Go
# module zip has no vendor/ folder, so the C++ build needs Debian's
# nlohmann-json3-dev and libstb-dev (APT_PKGS) and our stand-in for
# miniaudio.h (internal/llama/shim). Without -O3, -march and
# GGML_USE_CPU_REPACK llama.cpp runs 6-15x slower. LLAMA_MARCH=native suits
# this machine; make LLAMA_MARCH=x86-64-v3 for a binary to copy elsewhere.
# The flags are exported so that every go command here (test -race, vet)
# compiles llama.cpp the same way and shares one build cache entry (the cold
# build takes about 4 minutes on 2 cores).
LLAMA_MARCH ?= native
LLAMA_CFLAGS := -O3 -march=$(LLAMA_MARCH) -DGGML_USE_CPU_REPACK -I$(CURDIR)/internal/llama/shim
export CGO_CFLAGS := $(LLAMA_CFLAGS)
export CGO_CXXFLAGS := $(LLAMA_CFLAGS)
CGO_ENV := CGO_ENABLED=1
LLAMA_PKGS := ./internal/gguf/... ./internal/chat/... ./internal/llama/... ./stages/draft/...
# --- end of llama block ---

.PHONY: all deps build demo test lint bench bench-mcp clean

all: build

# deps installs the Debian packages the build needs, once (apt-get needs root).
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo apt-get update -qq && $$sudo apt-get install -y -qq $$missing; \
	fi
	$(GO) mod download

build: deps
	@mkdir -p $(BIN)
	for c in $(PURE); do [ ! -d cmd/$$c ] || CGO_ENABLED=0 $(GO) build -o $(BIN)/ ./cmd/$$c || exit 1; done
	[ ! -d cmd/sponge-draft ] || $(CGO_ENV) $(GO) build -o $(BIN)/ ./cmd/sponge-draft

# demo makes a library of the project's own sample documents and asks it a question.
demo: build
	rm -rf $(DEMO)
	$(BIN)/sponge add --library $(DEMO) testdata/docs
	$(BIN)/sponge list --library $(DEMO)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/sponge ask --library $(DEMO) "How hot should the water be for green tea?"

test: deps
	$(CGO_ENV) $(GO) test -race ./...

lint:
	$(GO) vet ./...

bench: build bench-extractive bench-mcp bench-draft
	$(GO) run ./internal/bench/retrieval -library .bench/scifact

# bench-mcp: 100 find_passages calls through an MCP client session on the SciFact library.
bench-mcp:
	$(GO) test -run '^$$' -bench FindPassagesSciFact -benchtime 100x ./internal/mcp

clean:
	rm -rf $(BIN) .demo .bench

# --- llama.cpp (cgo) block: targets of the model runtime (internal/llama) -----
.PHONY: test-llama bench-draft

# test-llama runs the tests of the model runtime and the model drafter.
test-llama: deps
	$(CGO_ENV) $(GO) test -race $(LLAMA_PKGS)

# bench-draft writes random-weight models with real shapes (Qwen2.5-0.5B Q8_0,
# Llama-3.2-1B Q4_0) into .bench/models and prints the drafter's speed table.
bench-draft: deps
	$(CGO_ENV) $(GO) run ./internal/bench/draft -models .bench/models
# --- end of the llama.cpp block ------------------------------------------------

# --- extractive block (issue 6): the drafter that quotes sentences -------------
.PHONY: bench-extractive

# bench-extractive saves the SciFact abstracts in .bench/scifact (once), asks
# the 505 training claims with evidence and the questions of
# internal/bench/extractive/unanswerable.txt, and prints the evidence hit rate, the
# refusals, the threshold sweep and the latency of `sponge ask --extractive`.
bench-extractive: build
	$(GO) run ./internal/bench/extractive -library .bench/scifact -bin $(BIN)
# --- end of the extractive block -----------------------------------------------

# --- meaning search block (issue 7): sponge-embed and its benchmark -----------
# sponge-embed runs the embedding model (llama.cpp, cgo) for sponge, which has
# no cgo; sponge-search embeds the question itself when built with cgo, else
# through sponge-embed. `make build` builds sponge-embed too.
.PHONY: build-embed test-embed bench-embed
EMBED_PKGS := ./internal/embed/... ./internal/vectors/... ./stages/search/... ./internal/gguf/...

build: build-embed

build-embed: deps
	@mkdir -p $(BIN)
	$(CGO_ENV) $(GO) build -o $(BIN)/ ./cmd/sponge-embed

# test-embed runs the meaning-search tests, with and without cgo.
test-embed: deps
	$(CGO_ENV) $(GO) test -race $(EMBED_PKGS)
	CGO_ENABLED=0 $(GO) test $(EMBED_PKGS)

# bench-embed writes a random-weight model of bge-small-en-v1.5's shape into
# .bench/models, builds the SciFact library in .bench/scifact-embed, and prints
# the table: paragraphs embedded per second, store size, sponge-search latency
# at 10k, 100k and 300k paragraphs (synthesized vectors).
bench-embed: build
	$(CGO_ENV) $(GO) run ./internal/bench/embed -bin $(BIN) -library .bench/scifact-embed -models .bench/models
# --- end of the meaning search block -------------------------------------------
