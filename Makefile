# slurmspec — build, test and demo. `make demo` and `make test` are the two
# commands a fresh machine needs (README.md).

GO        ?= go
BIN       := bin/slurmspec
STATICCHECK_VERSION := v0.8.2
GOBIN     := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN)/staticcheck
DEMO_OUT  ?= out

.PHONY: all build test check demo generate docs bench fuzz clean

all: build

# Every binary: slurmspec and the helpers it hands over to (slurmspec-online
# for lint --online) so that the lint path never loads their dependencies.
build:
	$(GO) build -o bin/ ./cmd/...

# The whole test suite: formatting, vet, staticcheck and every Go test
# (unit, testscript goldens, generated-code freshness, real Slurm when the
# packages are installed — with CI=true a missing prerequisite fails).
test: check
	$(GO) test -race -count=1 ./...

check: $(STATICCHECK)
	@fmt=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$fmt" ]; then echo "gofmt needed on:"; echo "$$fmt"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# Lint and render the bundled examples.
demo: build
	@echo "== slurmspec lint examples/seed.jsonc examples/a4-training.yaml"
	@$(BIN) lint examples/seed.jsonc examples/a4-training.yaml
	@echo "== slurmspec render examples/seed.jsonc -o $(DEMO_OUT)/seed"
	@$(BIN) render examples/seed.jsonc -o $(DEMO_OUT)/seed 2>/dev/null
	@echo "== slurmspec render examples/a4-training.yaml -o $(DEMO_OUT)/a4-training"
	@$(BIN) render examples/a4-training.yaml -o $(DEMO_OUT)/a4-training
	@echo "== $(DEMO_OUT)/a4-training/slurm.conf"
	@cat $(DEMO_OUT)/a4-training/slurm.conf

# Regenerate generated code and docs (tests fail when they are stale).
generate:
	$(GO) generate ./...
	SLURMSPEC_UPDATE=1 $(GO) test ./lint/rules/ -run TestRulesDocIsCurrent

# A short run of every fuzz target (CI runs it after the tests). A crash
# leaves its input under the package's testdata/fuzz/: commit it with the fix.
FUZZTIME ?= 20s
fuzz:
	$(GO) test ./compiler/load/ -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME)
	$(GO) test ./render/ -run '^$$' -fuzz '^FuzzRender$$' -fuzztime $(FUZZTIME)
	$(GO) test ./render/slurmconf/ -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./compiler/importconf/ -run '^$$' -fuzz '^FuzzExpandHostlist$$' -fuzztime $(FUZZTIME)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin $(DEMO_OUT)
