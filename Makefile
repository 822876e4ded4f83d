# sponge: build, test, bench. Every binary but sponge-draft builds without cgo.
GO ?= go
BIN := bin
STAGES := sponge-search sponge-rank sponge-draft sponge-verify sponge-render

.PHONY: build test lint bench clean

build:
	CGO_ENABLED=0 $(GO) build -o $(BIN)/ ./cmd/sponge
	for s in $(STAGES); do if [ -d cmd/$$s ]; then CGO_ENABLED=0 $(GO) build -o $(BIN)/ ./cmd/$$s || exit 1; fi; done

test:
	$(GO) test ./...

lint:
	$(GO) vet ./...

clean:
	rm -rf $(BIN)
