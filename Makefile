# Livery's quick start: `make run` checks the sample tenants, `make test` runs the whole suite.
# Both install the Debian packages they need when run as root, and print the command otherwise.

SWIFT ?= swift
CONFIG ?= debug
# Release builds link Swift's runtime and Foundation statically (`--static-swift-stdlib`): dynamically,
# every launch resolves the symbols of some sixty shared libraries (about 5 ms of every command). It is a
# build option, not an unsafe flag in Package.swift, so other packages can still depend on Livery's libraries.
# They link with the toolchain's lld rather than gold, for three things that shrink every process (issue 18;
# docs/benchmarks.md): packed relative relocations (`-z pack-relative-relocs`, DT_RELR: 31 kB in place of
# 3.7 MB of relocations the loader reads at every start), no export of the executable's own 56,000 symbols
# (`--no-export-dynamic`: nothing loads the executable's symbols by name, and every shared library's symbol
# lookups searched them first), and with that 6 MB less resident memory per command.
RELEASE_FLAGS = -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic
BUILD_FLAGS ?= $(if $(filter release,$(CONFIG)),$(RELEASE_FLAGS),-c $(CONFIG))
LIVERY = .build/$(CONFIG)/livery

# Build needs: libarchive, libxml2, libyaml (headers) and pkg-config; libcurl's link library for the
# release build, which links Foundation (and FoundationNetworking's libcurl) statically; p11-kit's
# PKCS#11 header (the HSM signer loads the module a key URI names with dlopen at run time); libvips (app icons,
# a shared library even in release builds).
BUILD_PACKAGES = pkg-config libarchive-dev libdeflate-dev zlib1g-dev libxml2-dev libyaml-dev libsqlite3-dev libcurl4-openssl-dev libp11-kit-dev libvips-dev
# Tests also use independent implementations: bsdtar, unzip, xmllint (and the OASIS XLIFF schemas of
# php-symfony-translation), headless Chromium, tsc (node-typescript), nginx (a CDN-like server the
# tests start on 127.0.0.1 with a configuration of their own) and a PostgreSQL 15 server (started by
# the voucher tests in a temporary folder, never as a service) and strace (the durability tests watch the build's
# syncfs and fsync calls) from Debian; sarif-tools,
# jsonschema, PyYAML, babel (CLDR plurals), tinycss2, tree-sitter-kotlin, Pillow and cryptography (verifies
# the signatures HSM keys make) from PyPI;
# python-tuf, coloraide and boto3 in .venv-test; Ceph's RADOS Gateway (scripts/s3-server.sh); SoftHSM2
# (a software PKCS#11 token the HSM signing tests initialise in a temporary folder) and opensc's
# pkcs11-tool (makes the tests' keys on it and exports their public keys); aapt's aapt2 compiles the Android
# icon and splash resources (`aapt2 compile` needs no Android SDK; linking would need android.jar, which Debian lacks).
BABEL_VERSION = 2.18.0
TEST_PACKAGES = $(BUILD_PACKAGES) strace time libarchive-tools unzip curl faketime libxml2-utils php-symfony-translation chromium node-typescript nginx postgresql softhsm2 opensc ffmpeg aapt

.PHONY: run test conformance build deps test-deps test-venv generated docs cldr bench clean test-java conformance-java java-deps

# The main job needs `livery` alone: the commands that open connections or run a server are in livery-network
# (SwiftNIO, AsyncHTTPClient, Hummingbird, PostgresNIO), which `make build` and `make test` build as well.
run: deps
	$(SWIFT) build $(BUILD_FLAGS) --product livery
	$(LIVERY) validate Tenants
	$(LIVERY) build Tenants --output Output
	$(LIVERY) verify --output Output

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

test: test-deps
	$(SWIFT) build --build-tests
	@# Examples/ClientApp embeds LiveryClient as an app's package would (by path); ExampleConsumerTests runs it.
	cd Examples/ClientApp && $(SWIFT) build
	@# LIVERY_REQUIRE_TOOLS: a Debian tool missing here (chromium, tsc…) fails its tests instead of skipping them.
	LIVERY_REQUIRE_TOOLS=1 $(SWIFT) test --skip-build --disable-swift-testing
	./scripts/tuf-conformance.sh .build/debug/livery
	@$(MAKE) --no-print-directory test-java
	./scripts/tuf-conformance.sh --java

# The Android (JVM) client library in Android/: compiled with javac and tested with JUnit 5 (Android/build.sh), its
# vector test generating the client vectors with LIVERY (built first when missing) and its canonical JSON and key
# tests using python-tuf and cryptography from .venv-test; bsdtar (libarchive-tools) and zstd make the tar.zst test archives.
JAVA_PACKAGES = openjdk-17-jdk-headless junit5 libjackson2-core-java libzstd-jni-java faketime libarchive-tools zstd
java-deps:
	@./scripts/install-packages.sh $(JAVA_PACKAGES)

test-java: java-deps test-venv
	@# The object-store end-to-end test publishes to a real S3 store: Ceph's RADOS Gateway (scripts/s3-server.sh).
	@./scripts/s3-server.sh install
	@# Its end-to-end tests run `livery serve` and `livery publish`, which are livery-network's (after `make run` alone it is not built).
	@test -x $(LIVERY) -a -x $(LIVERY)-network || $(SWIFT) build
	LIVERY=$(abspath $(LIVERY)) ./Android/build.sh test

# The TUF conformance suite against the Java client alone (part of `make test`).
conformance-java: java-deps
	@./scripts/tuf-conformance.sh --install
	./scripts/tuf-conformance.sh --java

# The TUF project's client conformance suite alone, against the debug build (part of `make test`).
conformance: test-deps
	$(SWIFT) build
	./scripts/tuf-conformance.sh .build/debug/livery

deps:
	@./scripts/install-packages.sh $(BUILD_PACKAGES)

test-deps:
	@./scripts/install-packages.sh $(TEST_PACKAGES)
	@# babel is pinned: the plural-rule oracle test lists the CLDR changes between our table (CLDR 41) and babel 2.18's CLDR 47;
	@# babel 2.19 (CLDR 49) changed more rules, and an unpinned install made that test fail on a fresh machine.
	@command -v sarif >/dev/null && python3 -c "import jsonschema, referencing, yaml, babel, tinycss2, tree_sitter, tree_sitter_kotlin, PIL, cryptography; assert babel.__version__ == '$(BABEL_VERSION)'" 2>/dev/null || \
		python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore sarif-tools "jsonschema>=4.18" pyyaml "babel==$(BABEL_VERSION)" tinycss2 tree-sitter tree-sitter-kotlin pillow cryptography
	@$(MAKE) --no-print-directory test-venv
	@# A real S3-compatible store for the publishing tests: Ceph's RADOS Gateway (scripts/s3-server.sh).
	@./scripts/s3-server.sh install
	@# The TUF client conformance suite (not on PyPI: vendored beside the project, see its SOURCE.md), in its own
	@# environment because it pins its own python-tuf and pytest.
	@./scripts/tuf-conformance.sh --install

# python-tuf (with securesystemslib), the independent TUF client and canonical JSON oracle, coloraide
# (the colour-space and WCAG contrast oracle), boto3 (the S3 client and SigV4 oracle) and pytest-lsp (the LSP client),
# in a local virtual environment.
test-venv:
	@# cryptography: securesystemslib verifies ECDSA (HSM-held P-256 keys) only with it; Ed25519 works without.
	@# pytest-lsp (with pygls and lsprotocol): the real LSP client that drives `livery lsp` (LanguageServerClientTests).
	@test -x .venv-test/bin/python && .venv-test/bin/python -c "import tuf.ngclient, coloraide, boto3, cryptography, pytest_lsp" 2>/dev/null || \
		(python3 -m venv .venv-test && .venv-test/bin/pip install --quiet --disable-pip-version-check "tuf>=7,<8" coloraide boto3 cryptography "pytest-lsp>=1,<2")

# Regenerates the committed JSON Schemas, rule reference and command reference (tests check they are current).
generated: build docs
	$(LIVERY) schema --write schemas
	$(LIVERY) rules --markdown > docs/rules.md

# docs/cli.md's command reference, between its markers, from every command's --help (livery-network's too:
# `livery` hands `cli-reference` to it). CommandReferenceTests fails when the page holds another one.
docs: build
	$(LIVERY) cli-reference --update docs/cli.md

# Regenerates the CLDR plural rule table and its sample fixture from Debian's CLDR data
# (Sources/LiveryL10n/PluralRulesTable.swift, Tests/LiveryL10nTests/Fixtures/plural-samples.txt).
cldr: deps
	@./scripts/install-packages.sh unicode-cldr-core
	$(SWIFT) run $(BUILD_FLAGS) livery-cldr --cldr /usr/share/unicode/cldr/common/supplemental

# Benchmarks print ratios against a floor measured in the same run (release build); the client
# benchmark compares `livery fetch` and `livery tuf-client` with python-tuf (from .venv-test); the
# voucher benchmark runs its own PostgreSQL server (Debian `postgresql`). The scale table
# (scripts/bench-scale.sh) runs 200 and 2,000 tenants; BENCH_SCALE=full adds 10,000 (about 15 minutes).
# Each script also appends its targets' figures to BENCH_SUMMARY, listed together at the end.
bench: export BENCH_SUMMARY = $(CURDIR)/.build/bench-targets.txt
bench: deps test-venv
	@mkdir -p .build && rm -f $(BENCH_SUMMARY)
	@./scripts/install-packages.sh postgresql curl libarchive-tools time softhsm2 opensc
	@# python-tuf with nothing optional (no cryptography): the memory floor the client library is held to.
	@test -x .venv-tuf-minimal/bin/python && .venv-tuf-minimal/bin/python -c "import tuf.ngclient" 2>/dev/null || \
		(python3 -m venv .venv-tuf-minimal && .venv-tuf-minimal/bin/pip install --quiet --disable-pip-version-check "tuf>=7,<8")
	$(SWIFT) build $(RELEASE_FLAGS)
	@# The client library alone, as an app embeds it (Examples/ClientApp), for bench-client.sh's memory figures.
	cd Examples/ClientApp && $(SWIFT) build $(RELEASE_FLAGS)
	@# The scale table first: its builds create many files, which ext4 (without a journal, this machine's disk) makes
	@# several times slower for a minute or more after other benchmarks delete their corpora (docs/benchmarks.md).
	./scripts/bench-scale.sh .build/release/livery
	./scripts/bench-validate.sh .build/release/livery
	./scripts/bench-l10n.sh .build/release/livery
	./scripts/bench-lsp.sh .build/release/livery
	./scripts/bench-build.sh .build/release/livery
	./scripts/bench-watch.sh .build/release/livery
	./scripts/bench-media.sh .build/release/livery
	./scripts/bench-tokens.sh .build/release/livery
	./scripts/bench-client.sh .build/release/livery
	./scripts/bench-fetch.sh .build/release/livery
	./scripts/bench-delta.sh .build/release/livery
	@./scripts/install-packages.sh $(JAVA_PACKAGES)
	./scripts/bench-java-client.sh .build/release/livery
	./scripts/bench-keys.sh .build/release/livery
	./scripts/bench-release-json.sh .build/release/livery .build/release/livery-json-fuzz
	./scripts/bench-vouchers.sh .build/release/livery
	./scripts/s3-server.sh install
	./scripts/bench-publish.sh .build/release/livery .venv-test/bin/python
	@# Last, on a clean clone of HEAD (10 to 15 minutes): the first `make run` against its 6-minute target.
	./scripts/bench-first-run.sh .
	@echo; echo "targets measured in this run:"; cat $(BENCH_SUMMARY)

# Fuzzes the release format's JSON parser with libFuzzer for FUZZ_SECONDS (a sanitizer build of its own in
# .build-fuzz, seeded with a sample release's metadata; crashes land in .build-fuzz/crashes/), then the
# delivery half's parsers (S3 XML, AWS config files, redemption answer, download manifest, encrypted
# bundles, zip bundles) and the key file reader for FUZZ_SECONDS / 2 each.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz: deps
	./scripts/fuzz-release-json.sh $(FUZZ_SECONDS)
	./scripts/fuzz-delivery.sh $$(( $(FUZZ_SECONDS) / 2 ))

clean:
	rm -rf .build .build-fuzz .venv-test .venv-tuf-minimal .venv-conformance Examples/ClientApp/.build Android/build
