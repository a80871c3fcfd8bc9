# slurmspec — build, test and demo. `make demo` and `make test` are the two
# commands a fresh machine needs (README.md).

GO        ?= go
BIN       := bin/slurmspec
STATICCHECK_VERSION := v0.8.2
# Where staticcheck and cue are installed (not GOBIN: make would export
# this value as GOBIN to every recipe, make install's too).
TOOLBIN   := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(TOOLBIN)/staticcheck
DEMO_OUT  ?= out

# The Go modules: the root (slurmspec, everything lint and render need:
# what pre-commit's `go install ./...` builds) and the helpers' nested
# modules, which link gRPC, the Filestore client and the Pulumi SDK
# (README.md, Install). Every target that runs the go command on the
# whole repository runs it in each.
MODULES   := $(sort $(dir $(shell find . -name go.mod -not -path './.git/*' -not -path '*/testdata/*')))
HELPERS   := cmd/slurmspec-online cmd/slurmspec-deploy

.PHONY: all build install test test-fast test-report check tidy demo generate docs bench fuzz pulumi-cli rootfs fidelity release clean

all: build

# Every binary: slurmspec and the helpers it hands over to (slurmspec-online
# for lint --online, slurmspec-deploy for deploy) so that the lint path never
# loads their dependencies (gRPC, the Filestore client, the Pulumi SDK).
build:
	$(GO) build -o bin/ ./cmd/slurmspec
	@for h in $(HELPERS); do echo "$(GO) -C $$h build -o $(CURDIR)/bin/ ."; $(GO) -C $$h build -o $(CURDIR)/bin/ . || exit 1; done

# The three binaries into $$(go env GOBIN) (or GOPATH/bin), from this
# checkout: the helpers' modules build against it (replace directives), so
# `go install …@version` installs slurmspec only.
install:
	$(GO) install ./cmd/slurmspec
	@for h in $(HELPERS); do echo "$(GO) -C $$h install ."; $(GO) -C $$h install . || exit 1; done

# A release (docs/releasing.md): at the commit tagged VERSION, the three
# binaries for linux, amd64 and arm64 (not darwin yet: docs/releasing.md),
# with VERSION stamped into each (even under -buildvcs=false), packed into dist/VERSION/ with
# SHA256SUMS. PLATFORMS="linux/amd64" builds fewer; DIST=DIR writes elsewhere.
release:
	@test -n "$(VERSION)" || { echo "make release VERSION=vX.Y.Z (docs/releasing.md)"; exit 2; }
	PLATFORMS="$(PLATFORMS)" DIST="$(DIST)" bash .ci/release.sh $(VERSION)

# go mod tidy in every module.
tidy:
	@for m in $(MODULES); do echo "== $$m"; (cd $$m && $(GO) mod tidy) || exit 1; done

# The Pulumi CLI v3.274.1 and pulumi-language-yaml for the deploy end-to-end
# test, built once into $$HOME/.cache/slurmspec (12-30 minutes cold).
pulumi-cli:
	bash .ci/build-pulumi.sh

# Debian trixie (Slurm 24.11) and forky (26.05) root file systems for the
# real-Slurm tests, built once into $$HOME/.cache/slurmspec (root,
# debootstrap; about 2 minutes and 200-300 MB each).
rootfs:
	bash .ci/build-rootfs.sh all

# The differential oracle (docs/fidelity.md): FIDELITY_N generated specs per
# Slurm release through lint, and through a real slurmctld of that release;
# rewrites the table and findings in docs/fidelity.md. About 2 s per spec.
# FIDELITY_MODE=related draws each case's keys from one family of related keys;
# FIDELITY_MODE=doubled writes every value of a list key twice.
# FIDELITY_MODE=workload generates scheduling settings and runs each spec's
# job mix (lab/jobmix) on real Slurm. Each mode rewrites its own block.
# FIDELITY_PARALLEL=true runs the releases side by side.
FIDELITY_N        ?= 300
FIDELITY_SEED     ?= 1
FIDELITY_DOC      ?= docs/fidelity.md
FIDELITY_MODE     ?= random
FIDELITY_PARALLEL ?= false
fidelity:
	$(GO) run ./lab/fidelity/cmd/fidelity -n $(FIDELITY_N) -seed $(FIDELITY_SEED) -mode $(FIDELITY_MODE) -parallel=$(FIDELITY_PARALLEL) -doc $(FIDELITY_DOC)

# The whole test suite: formatting, vet, staticcheck and every Go test of
# every module (unit, testscript goldens, generated-code freshness) with
# -race, and the real-Slurm tests (SLURMSPEC_REAL_SLURM=1: a missing
# prerequisite fails), their releases side by side. Two packages run
# without -race, alongside the rest: .ci/test.sh says which and why.
test: check
	bash .ci/test.sh full

# The inner loop: every Go test but the real-Slurm ones
# (SLURMSPEC_REAL_SLURM=0), without -race, keeping go test's cache
# (TEST_FLAGS=-count=1 for a cold run; docs/performance.md, "Test suite").
test-fast:
	bash .ci/test.sh fast

# make test's Go tests with go test -json into bin/test-json/, then a table
# per package (wall time of each top-level test, slowest first) into
# bin/test-report.md: where the suite's time goes (docs/performance.md).
TEST_JSON := bin/test-json
test-report:
	rm -rf $(TEST_JSON)
	start=$$(date +%s); bash .ci/test.sh full $(TEST_JSON); status=$$?; \
		echo "wall $$(( $$(date +%s) - start )) s"; \
		$(GO) run ./tools/testreport -wall $$(( $$(date +%s) - start )) $(TEST_JSON)/*.json > bin/test-report.md; \
		cat bin/test-report.md; exit $$status

# gofmt, then in every module: go mod tidy leaves go.mod and go.sum alone,
# go vet, staticcheck.
check: $(STATICCHECK)
	@fmt=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$fmt" ]; then echo "gofmt needed on:"; echo "$$fmt"; exit 1; fi
	@for m in $(MODULES); do echo "== $$m"; \
		(cd $$m && $(GO) mod tidy -diff && $(GO) vet ./... && $(STATICCHECK) ./...) || exit 1; done

$(STATICCHECK):
	GOBIN=$(TOOLBIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# Lint and render the bundled examples. Builds slurmspec alone: the demo
# runs neither helper, and slurmspec-deploy links the Pulumi SDK (minutes of
# compiling on a cold cache).
demo:
	$(GO) build -o $(BIN) ./cmd/slurmspec
	@echo "== slurmspec lint examples/seed.jsonc examples/a4-training.yaml"
	@$(BIN) lint examples/seed.jsonc examples/a4-training.yaml
	@echo "== slurmspec render examples/seed.jsonc -o $(DEMO_OUT)/seed"
	@$(BIN) render examples/seed.jsonc -o $(DEMO_OUT)/seed 2>/dev/null
	@echo "== slurmspec render examples/a4-training.yaml -o $(DEMO_OUT)/a4-training"
	@$(BIN) render examples/a4-training.yaml -o $(DEMO_OUT)/a4-training
	@echo "== $(DEMO_OUT)/a4-training/slurm.conf"
	@cat $(DEMO_OUT)/a4-training/slurm.conf

# Regenerate generated code and docs (tests fail when they are stale): the
# Slurm catalog (go generate), the schema's Go shape and docs/rules.md. A
# test (cmd/slurmspec TestMakeGenerate) checks that the tests named here
# exist.
generate:
	$(GO) generate ./...
	SLURMSPEC_UPDATE=1 $(GO) test ./schema/ -run '^TestShapeIsCurrent$$'
	SLURMSPEC_UPDATE=1 $(GO) test ./lint/pipeline/ -run '^TestRulesDocIsCurrent$$'

# A short run of every fuzz target (CI runs it after the tests). A crash
# leaves its input under the package's testdata/fuzz/: commit it with the fix.
# Minimising a new interesting input is capped at 5 s: the pipeline's inputs
# are whole specs, and the default 60 s would spend the run minimising.
# Thirteen targets at 18 s: about four minutes, as twelve at 20 s were.
FUZZTIME ?= 18s
fuzz:
	bash .ci/fuzz.sh ./compiler/load/ FuzzLoad $(FUZZTIME)
	bash .ci/fuzz.sh ./compiler/load/ FuzzYAMLRanges $(FUZZTIME)
	bash .ci/fuzz.sh ./render/ FuzzRender $(FUZZTIME)
	bash .ci/fuzz.sh ./render/slurmconf/ FuzzParse $(FUZZTIME)
	bash .ci/fuzz.sh ./compiler/hostlist/ FuzzExpand $(FUZZTIME)
	bash .ci/fuzz.sh ./compiler/yamlwrite/ FuzzStr $(FUZZTIME)
	bash .ci/fuzz.sh ./render/ FuzzPulumiYAML $(FUZZTIME)
	bash .ci/fuzz.sh ./render/importconf/ FuzzImport $(FUZZTIME)
	bash .ci/fuzz.sh ./lint/suppress/ FuzzApply $(FUZZTIME)
	bash .ci/fuzz.sh ./compiler/load/discover/ FuzzLooksLikeSpec $(FUZZTIME)
	bash .ci/fuzz.sh ./compiler/shellquote/ FuzzWord $(FUZZTIME)
	bash .ci/fuzz.sh ./compiler/shellquote/ FuzzCommand $(FUZZTIME)
	bash .ci/fuzz.sh ./render/sacctmgr/ FuzzCapture $(FUZZTIME)

# Benchmarks (docs/performance.md): the Go benchmarks of load, schema,
# compile, lint and render, then the whole-process comparison of
# `slurmspec lint` with `cue vet` (tools/benchcmp), which
# checks the targets and rewrites the results block of docs/performance.md.
# BENCH_WAIT=10m waits up to that long for a load average below 1.5.
CUE_VERSION := v0.17.1
CUE         := $(TOOLBIN)/cue
BENCH_PKGS  ?= ./compiler/load/ ./schema/... ./compiler/ ./lint/ ./lint/rules/ ./lint/format/ ./render/ ./cmd/slurmspec/cli/
BENCHTIME   ?= 1s
BENCH_WAIT  ?= 0
BENCH_OUT   := bin/bench.txt

bench: bench-tools
	$(GO) build -o $(BIN) ./cmd/slurmspec
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(BENCH_PKGS) 2>&1 | tee $(BENCH_OUT); \
		! grep -q '^FAIL' $(BENCH_OUT)
	$(GO) run ./tools/benchcmp -slurmspec $(BIN) -cue $(CUE) \
		-gobench $(BENCH_OUT) -doc docs/performance.md -wait-max $(BENCH_WAIT)

# cue v0.17.1 for the comparison (about 2 minutes to build, then cached).
bench-tools: $(CUE)

$(CUE):
	GOBIN=$(TOOLBIN) $(GO) install cuelang.org/go/cmd/cue@$(CUE_VERSION)

clean:
	rm -rf bin dist $(DEMO_OUT)
