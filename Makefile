# sponge: build, test, bench.
#   make demo    install what is needed, build, save the sample documents in a demo library, ask it
#   make test    run every test (what CI runs)
#   make lint    go vet, staticcheck, go mod tidy -diff (CI runs it)
#   make bench   run every benchmark; each prints a table
GO      ?= go
BIN     := bin
DEMO    := .demo/library
# Binaries that build without cgo and start in milliseconds.
PURE    := sponge sponge-search sponge-rank sponge-verify sponge-render
# Binaries that load a model: they link llama.cpp through cgo.
MODEL   := sponge-draft sponge-embed
# Debian packages the build needs (headers for the vendored llama.cpp).
APT_PKGS := nlohmann-json3-dev libstb-dev

# llama.cpp comes in through github.com/ollama/ollama/llama. Its Go module zip
# has no vendor/ folder, so the C++ build needs Debian's nlohmann-json3-dev and
# libstb-dev (APT_PKGS) and our stand-in for miniaudio.h (internal/model/llama/shim).
# Without -O3, -march and GGML_USE_CPU_REPACK llama.cpp runs 6-15x slower.
# LLAMA_MARCH=native suits this machine; make LLAMA_MARCH=x86-64-v3 for
# binaries to copy elsewhere. The flags are exported so that every go command
# here (build, test -race, vet) compiles llama.cpp the same way and shares one
# build cache entry (the cold build takes about 4 minutes on 2 cores).
LLAMA_MARCH ?= native
LLAMA_CFLAGS := -O3 -march=$(LLAMA_MARCH) -DGGML_USE_CPU_REPACK -I$(CURDIR)/internal/model/llama/shim
export CGO_CFLAGS := $(LLAMA_CFLAGS)
export CGO_CXXFLAGS := $(LLAMA_CFLAGS)
CGO_ENV := CGO_ENABLED=1

.PHONY: all deps build man demo test lint clean bench bench-retrieval bench-library bench-latency bench-summary \
	bench-extractive bench-mcp bench-draft bench-embed

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

# -buildvcs=auto stamps the commit into the binaries (sponge --version) even
# when GOFLAGS says -buildvcs=false; outside a git checkout it stamps nothing.
# (Go does not find the commit in a git worktree, only in a clone.)
BUILDVCS := -buildvcs=auto

build: deps
	@mkdir -p $(BIN)
	for c in $(PURE); do CGO_ENABLED=0 $(GO) build $(BUILDVCS) -o $(BIN)/ ./cmd/$$c || exit 1; done
	for c in $(MODEL); do $(CGO_ENV) $(GO) build $(BUILDVCS) -o $(BIN)/ ./cmd/$$c || exit 1; done

# man writes the man page bin/sponge.1 (not committed) from the commands' help:
# man -l bin/sponge.1 reads it.
man:
	@mkdir -p $(BIN)
	CGO_ENABLED=0 $(GO) run ./cmd/sponge help --man > $(BIN)/sponge.1

# demo makes a library of the project's own sample documents and asks it a question.
demo: build
	rm -rf $(DEMO)
	$(BIN)/sponge add --library $(DEMO) testdata/docs
	$(BIN)/sponge list --library $(DEMO)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/sponge ask --library $(DEMO) "How hot should the water be for green tea?"

# test also checks that every package still builds without cgo (the pure binaries must).
test: deps
	CGO_ENABLED=0 $(GO) vet ./...
	$(CGO_ENV) $(GO) test -race ./...

# lint: go vet, staticcheck (installed into $(GOBIN_DIR) on first use, from the
# Go module proxy) and go mod tidy -diff. Run without cgo: the same code is
# checked and llama.cpp is not compiled again for it.
STATICCHECK_VERSION := v0.8.2
GOBIN_DIR := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN_DIR)/staticcheck

$(STATICCHECK):
	GOBIN=$(GOBIN_DIR) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

lint: $(STATICCHECK)
	CGO_ENABLED=0 $(GO) vet ./...
	CGO_ENABLED=0 $(STATICCHECK) ./...
	$(GO) mod tidy -diff

clean:
	rm -rf $(BIN) .demo .bench

# Benchmarks read ../shared/bench/scifact and fetch Debian packages into .bench/.
bench: bench-retrieval bench-library bench-latency bench-extractive bench-mcp bench-draft bench-embed bench-summary

# nDCG@10 of keyword search on SciFact's test claims, beside the published BM25 figures.
bench-retrieval: build
	$(GO) run ./internal/bench/retrieval -library .bench/scifact

# sponge add of linux-doc-6.1's HTML and texlive-latex-base-doc's PDFs: throughput, size, RSS.
bench-library: build
	$(GO) run ./internal/bench/library -bin $(BIN) -work .bench

# sponge ask --passages and sponge-search as whole processes (needs bench-library's linux-doc).
bench-latency: build bench-library
	$(GO) run ./internal/bench/latency -bin $(BIN) -work .bench

# The extractive drafter on SciFact's training claims and questions the library cannot answer.
bench-extractive: build
	$(GO) run ./internal/bench/extractive -library .bench/scifact -bin $(BIN)

# Summaries of texlive-latex-base-doc's PDFs and SciFact abstracts: quotes verified, pages touched,
# length, time per item extractive and with a random-weight Qwen2.5-0.5B-shaped model.
bench-summary: deps
	$(CGO_ENV) $(GO) run ./internal/bench/summary -work .bench -models .bench/models

# 100 find_passages calls through an MCP client session on the SciFact library.
bench-mcp:
	$(GO) test -run '^$$' -bench FindPassagesSciFact -benchtime 100x ./internal/front/mcp

# The model drafter on random-weight models of real shapes (Qwen2.5-0.5B Q8_0, Llama-3.2-1B Q4_0).
bench-draft: deps
	$(CGO_ENV) $(GO) run ./internal/bench/draft -models .bench/models

# Embedding speed, vector store size and meaning-search latency at 10k-300k paragraphs.
bench-embed: build
	$(CGO_ENV) $(GO) run ./internal/bench/embed -bin $(BIN) -library .bench/scifact-embed -models .bench/models
