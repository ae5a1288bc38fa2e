# Livery's quick start: `make run` checks the sample tenants, `make test` runs the whole suite.
# Both install the Debian packages they need when run as root, and print the command otherwise.

SWIFT ?= swift
CONFIG ?= debug
BUILD_FLAGS ?= -c $(CONFIG)
LIVERY = .build/$(CONFIG)/livery

# Build needs: libarchive, libxml2, libyaml (headers) and pkg-config.
BUILD_PACKAGES = pkg-config libarchive-dev libxml2-dev libyaml-dev
# Tests also use independent tools: xmllint, bsdtar, python3 with jsonschema.
TEST_PACKAGES = $(BUILD_PACKAGES) libxml2-utils libarchive-tools python3-jsonschema

.PHONY: run test build deps test-deps schemas bench clean

run: deps build
	$(LIVERY) validate Tenants

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing

deps:
	@./scripts/install-packages.sh $(BUILD_PACKAGES)

test-deps:
	@./scripts/install-packages.sh $(TEST_PACKAGES)

# Regenerates the committed JSON Schemas (a test checks they are current).
schemas: build
	$(LIVERY) schema --write schemas

clean:
	rm -rf .build
