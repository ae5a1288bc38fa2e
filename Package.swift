// swift-tools-version:6.0
import PackageDescription

// The folders read like the pipeline: load → resolve → check → assets → render → pack → sign/publish.
// Each library module depends only on the stages before it; `livery` is a thin command-line front end.
let package = Package(
    name: "Livery",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "livery", targets: ["livery"]),
        .executable(name: "livery-network", targets: ["livery-network"]),
        .library(name: "LiveryCheck", targets: ["LiveryCheck"]),
        .library(name: "LiveryClient", targets: ["LiveryClient"]),
        // The client without a network stack of its own, for an app that brings its `HTTPTransport`.
        .library(name: "LiveryClientCore", targets: ["LiveryClientCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // Already in the graph through the packages above; named because Livery's own targets import them
        // (the graph test holds every import to a declared dependency: Tests/LiveryTests/ModuleGraphTests.swift).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // System libraries, installed from Debian by the Makefile.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        // libdeflate deflates zip entries (1.7 to 2.2 times zlib's speed at the same level, output as small); zlib streams
        // files too large to hold in memory (Sources/LiveryPack/ZipContainer.swift).
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev", "zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libvips (with libpng and librsvg) resizes app icons: fast, low-memory and the usual choice for server-side
        // image work. CVips loads it with dlopen on first use (Debian's libvips42, brew's vips), so that the
        // commands that make no image (fetch, serve, validate without icons, …) do not load it and the hundred
        // libraries it needs at start-up: see Sources/CVips/include/livery_vips.h.
        .target(name: "CVips", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // PKCS#11 types from p11-kit's header: the module a key URI names is loaded with dlopen and no p11-kit function is
        // called (SwiftPM still passes pkg-config's -lp11-kit to the linker, so binaries list libp11-kit.so.0 as needed).
        .systemLibrary(name: "CPKCS11", pkgConfig: "p11-kit-1", providers: [.apt(["libp11-kit-dev"]), .brew(["p11-kit"])]),

        // The one Linux system call Foundation does not offer: an atomic exchange of two folders.
        .target(name: "CLiverySystem"),
        .target(name: "LiveryDiagnostics"),
        // The text forms of bytes and strings every stage writes: hex (digests, key ids, secrets) and JSON string literals.
        .target(name: "LiveryEncoding"),
        // The bottom of the write side: `WriteFailure` (no space, quota, I/O error, with the file being written), raised by the
        // SQLite wrapper and every file writer of the build and publish side, the helpers that write whole buffers, and the
        // helpers that write files whole (`AtomicFile`: write, optionally flush, then rename) and stream them
        // through SHA-256 (`FileDigest`): one home each, used by the build side and the client alike.
        .target(name: "LiveryStorage", dependencies: ["LiveryEncoding", .product(name: "Crypto", package: "swift-crypto")]),
        // The one wrapper over libvips: decode PNG and SVG, resize, flatten, compose, write deterministic PNG.
        .target(name: "LiveryImage", dependencies: ["CVips"]),
        .target(name: "LiverySQLite", dependencies: ["CSQLite", "LiveryStorage"]),
        // The one reader of XML documents over libxml2 (`XMLTree`: from memory, no network, no DTD, a DOCTYPE refused):
        // SVG and GPX assets, S3's answers. A foundation module so that the object store need not link the loader for it.
        .target(name: "LiveryXML", dependencies: ["LiveryDiagnostics", "CXML2"]),
        // `ParallelMap`: every stage's maps over tenants, bundles and files, on the threads `--jobs` allows, in input order.
        .target(name: "LiveryParallel"),
        .target(name: "LiveryLoad", dependencies: ["LiveryDiagnostics", "LiveryEncoding", "CYAML"]),
        // What the asset files a manifest names hold, read from their headers without decoding: audio and video
        // (MP3, WAV, MP4), images, subtitles, GPX routes, MBTiles packs (LiverySQLite, read-only) and the probe cache.
        .target(name: "LiveryMedia", dependencies: ["LiveryLoad", "LiveryXML", "LiveryDiagnostics", "LiveryParallel", "LiverySQLite"]),
        // Crypto: `--shard` places a lineage by the SHA-256 of its root tenant id (TenantShard).
        .target(name: "LiveryResolve", dependencies: ["LiveryLoad", "LiveryL10n", "LiveryDiagnostics", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "LiveryCheck", dependencies: ["LiveryResolve", "LiveryLoad", "LiveryMedia", "LiveryXML", "LiveryParallel", "LiveryDiagnostics", "LiveryL10n", "LiverySQLite", "CLiverySystem"]),
        .target(name: "LiveryAssets", dependencies: ["LiveryLoad", "LiverySQLite", "LiveryStorage", .product(name: "Crypto", package: "swift-crypto")]),
        // Localization: ICU MessageFormat and CLDR plural rules (generated table, see `make cldr`).
        .target(name: "LiveryL10n", dependencies: ["LiveryDiagnostics"]),
        // `livery l10n`: XLIFF 2.0, String Catalogs and Android resources to and from locale bundles (libxml2, libyaml for in-place edits).
        .target(name: "LiveryInterchange", dependencies: ["LiveryLoad", "LiveryEncoding", "LiveryL10n", "LiveryDiagnostics", "CXML2", "CYAML"]),
        .target(name: "LiveryRender", dependencies: ["LiveryDiagnostics", "LiveryEncoding", "LiveryStorage", "LiveryLoad", "LiveryMedia", "LiveryXML", "LiveryResolve", "LiveryL10n", "LiveryInterchange", "LiveryImage", .product(name: "Mustache", package: "swift-mustache")]),
        .target(name: "LiveryPack", dependencies: ["LiveryDiagnostics", "LiveryLoad", "LiveryMedia", "LiveryResolve", "LiveryRender", "LiveryInterchange", "LiveryAssets", "LiverySQLite", "LiveryStorage", "LiveryReleaseFormat", "CArchive", "CDeflate", .product(name: "Crypto", package: "swift-crypto")]),
        // The release format (stage "format", just above the foundation): TUF metadata and its verification, canonical
        // JSON, the download manifest's types, channels, vouchers' subjects, content encryption. Written by pack, sign and
        // publish, served by serve, read by the client, which links it: no signer-only code here (that is LiverySign's).
        .target(name: "LiveryReleaseFormat", dependencies: ["LiveryStorage", "LiveryEncoding", .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")]),
        // Signing: metadata signers and the builders of each role's document (TUFDocument), key files (encrypted at rest
        // with scrypt and AES-GCM from swift-crypto's extras), PKCS#11 tokens
        // (CPKCS11), key stores' keys.yaml read through LiveryLoad's located YAML.
        .target(name: "LiverySign", dependencies: ["LiveryReleaseFormat", "LiveryEncoding", "LiveryDiagnostics", "LiveryLoad", "LiveryStorage", "CPKCS11", "CLiverySystem", .product(name: "Crypto", package: "swift-crypto"),
                                                   .product(name: "_CryptoExtras", package: "swift-crypto")]),
        // `livery vectors`: static TUF repositories with the outcome a conforming client must reach (docs/client-vectors.md).
        // Its metadata is built by hand (hostile vectors must be exactly as hostile as needed), its zips by a small stored writer.
        .target(name: "LiveryVectors", dependencies: ["LiveryReleaseFormat", "LiveryEncoding", .product(name: "Crypto", package: "swift-crypto")]),
        // `livery publish`: releases to S3-compatible object storage (SigV4 by hand with swift-crypto: no maintained S3
        // client resolves here; see SigV4.swift), and presigned URLs for protected content.
        .target(name: "LiveryObjectStore", dependencies: ["LiveryReleaseFormat", "LiveryEncoding", "LiveryXML", "LiveryStorage", .product(name: "Crypto", package: "swift-crypto"),
                                                        .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                        .product(name: "_NIOFileSystem", package: "swift-nio"), .product(name: "NIOFoundationCompat", package: "swift-nio"),
                                                        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                                                        .product(name: "NIOPosix", package: "swift-nio")]),
        .target(name: "LiveryPublish", dependencies: ["LiveryLoad", "LiveryResolve", "LiveryReleaseFormat", "LiveryPack", "LiveryRender", "LiveryAssets", "LiverySQLite", "LiveryStorage", "LiverySign", "CLiverySystem"]),
        // `livery serve`: Output/ over HTTP (Hummingbird), and vouchers (SQLite via LiveryAssets' wrapper, or PostgreSQL via
        // PostgresNIO for several instances sharing one database; HMAC tokens).
        // Which targets are protected it reads from the release as published, through the signer's typed metadata chain (LiverySign).
        .target(name: "LiveryServe", dependencies: ["LiveryEncoding", "LiverySQLite", "LiveryStorage", "LiverySign", "LiveryReleaseFormat", "LiveryObjectStore", .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Crypto", package: "swift-crypto"),
                                                  .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
                                                  .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                                                  .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        // The client side, the library apps embed (docs/client.md#embedding-liveryclient): TUF verification, download and
        // install. No libxml2, no pipeline, no Linux-only module. Zip bundles are read with ZIPFoundation on every platform
        // (libarchive is not a public library on iOS); tar.zst bundles with libarchive where it exists, on Linux.
        // LiveryClientCore has no network stack: HTTP goes through the `HTTPTransport` it is given.
        // CArchiveReader: the few libarchive functions the client reads tar.zst with, loaded with dlopen on the first
        // such bundle, so an app does not load libarchive (and libxml2, ICU…) at start (Sources/CArchiveReader).
        .target(name: "CArchiveReader", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "LiveryClientCore", dependencies: ["LiveryReleaseFormat", "LiveryStorage", .target(name: "CArchiveReader", condition: .when(platforms: [.linux])),
                                                        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                                                        .product(name: "Crypto", package: "swift-crypto")]),
        // LiveryClient: LiveryClientCore (re-exported) and its default transport, HTTP with back-pressure, no content
        // decoding and no redirects of its own on AsyncHTTPClient (AsyncHTTPTransport.swift).
        .target(name: "LiveryClient", dependencies: ["LiveryClientCore",
                                                    .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                    .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                                                    .product(name: "NIOFoundationCompat", package: "swift-nio")]),
        // The composition layer: what spans stages. Every stage's rules in one registry (`RuleSet.all`), the build as one
        // step per stage (`ReleaseBuilder`), grouped validation, the watch session and its file watcher; commands and the
        // language server call it. No SwiftNIO: `livery` links it.
        .target(name: "LiveryWorkflow", dependencies: ["LiveryCheck", "LiveryDiagnostics", "LiveryLoad", "LiveryMedia", "LiveryParallel", "LiveryResolve", "LiveryRender", "LiveryInterchange",
                                                     "LiveryImage", "LiveryAssets", "LiveryPack", "LiveryPublish", "LiverySign", "LiveryStorage", "LiveryReleaseFormat", "CLiverySystem"]),
        // The composition layer's network side: what spans stages and reaches a store, so links SwiftNIO (livery-network
        // does; `livery` does not). The multi-tenant publish fan-out of `publish` and `build --publish` (`StorePublication`).
        .target(name: "LiveryRemoteWorkflow", dependencies: ["LiveryObjectStore", "LiveryPublish"]),
        // `livery lsp`: the Language Server Protocol's framing and JSON-RPC messages (sans-I/O, no dependencies: the fuzz
        // target takes it alone), and the server on top, which validates editors' unsaved texts through the pipeline.
        .target(name: "LiveryJSONRPC"),
        .target(name: "LiveryLanguageServer", dependencies: ["LiveryJSONRPC", "LiveryCheck", "LiveryWorkflow", "LiveryLoad", "LiveryMedia", "LiveryResolve", "LiveryDiagnostics", "LiveryInterchange"]),
        // The command line: every command's arguments and output, over the libraries above (SwiftNIO-free: see below).
        .target(name: "LiveryCommands", dependencies: [
            "LiveryCheck", "LiveryWorkflow", "LiveryRender", "LiveryPublish", "LiveryPack", "LiverySign", "LiveryStorage", "LiveryClientCore", "LiveryInterchange", "LiveryVectors",
            "LiveryLanguageServer", "LiveryLoad", "LiveryMedia", "LiveryParallel", "LiveryResolve", "LiveryDiagnostics", "LiveryReleaseFormat", "LiveryAssets", "CArchive", "CXML2",
            .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // Two executables, one command line. `livery` (what `make run` builds) has every command but those that open
        // connections or run a server, which are in livery-network with SwiftNIO, AsyncHTTPClient, Hummingbird and
        // PostgresNIO; `livery` runs it in its place for them (Sources/LiveryCommands/NetworkCommand.swift).
        .executableTarget(name: "livery", dependencies: ["LiveryCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "livery-network", dependencies: [
            "LiveryCommands", "LiveryRemoteWorkflow", "LiveryClient", "LiveryServe", "LiveryObjectStore", "LiveryPublish", "LiveryStorage", "LiveryReleaseFormat", "LiveryDiagnostics",
            .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // Regenerates LiveryL10n's plural rule table from CLDR's XML (`make cldr`).
        .executableTarget(name: "livery-cldr", dependencies: ["LiveryL10n", "LiveryStorage", "CXML2"]),
        // The tests, one target per stage module for what runs in process (each may import only its stage, earlier ones and
        // LiveryTestSupport: ModuleGraphTests), and LiveryTests for the rest: the end-to-end journeys through the built binaries
        // and the tests not moved yet (docs/development.md#tests).
        // The shared fixtures: the sample workspace, the built binaries, Debian tools, `livery serve`, python-tuf, the S3,
        // PostgreSQL and port-line servers. Foundation and XCTest only; no product links it.
        .target(name: "LiveryTestSupport", path: "Tests/LiveryTestSupport"),
        .testTarget(name: "LiveryEncodingTests", dependencies: ["LiveryEncoding"]),
        .testTarget(name: "LiveryPackTests", dependencies: ["LiveryPack", "LiveryReleaseFormat", "LiveryStorage", "LiveryTestSupport"]),
        .testTarget(name: "LiveryStorageTests", dependencies: ["LiveryStorage", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "LiveryReleaseFormatTests", dependencies: ["LiveryReleaseFormat", "LiveryEncoding"]),
        .testTarget(name: "LiveryLoadTests", dependencies: ["LiveryLoad", "LiveryDiagnostics"]),
        .testTarget(name: "LiveryParallelTests", dependencies: ["LiveryParallel"]),
        .testTarget(name: "LiveryMediaTests", dependencies: ["LiveryMedia", "LiveryLoad", "LiveryTestSupport"]),
        .testTarget(name: "LiveryL10nTests", dependencies: ["LiveryL10n", "LiveryDiagnostics"], exclude: ["Fixtures"]),
        .testTarget(name: "LiveryResolveTests", dependencies: ["LiveryResolve", "LiveryTestSupport"]),
        .testTarget(name: "LiveryAssetsTests", dependencies: ["LiveryAssets", "LiveryLoad", "LiveryStorage", "LiveryTestSupport"]),
        .testTarget(name: "LiveryCheckTests", dependencies: ["LiveryCheck", "LiveryLoad", "LiveryDiagnostics", "LiveryTestSupport"]),
        .testTarget(name: "LiveryInterchangeTests", dependencies: ["LiveryInterchange", "LiveryLoad", "LiveryDiagnostics", "LiveryEncoding", "LiveryTestSupport"]),
        .testTarget(name: "LiverySignTests", dependencies: ["LiverySign", "LiveryReleaseFormat", "LiveryTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "LiveryObjectStoreTests", dependencies: ["LiveryEncoding", "LiveryObjectStore", "LiveryTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "LiveryServeTests", dependencies: ["LiveryServe", "LiveryPublish", "LiverySign", "LiveryReleaseFormat", "LiveryTestSupport",
                                                            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
                                                            // `livery serve` driven in process, without a socket (ServeInProcessTests).
                                                            .product(name: "HummingbirdTesting", package: "hummingbird")]),
        .testTarget(name: "LiveryPublishTests", dependencies: ["LiveryPublish", "LiverySign", "LiveryReleaseFormat"]),
        .testTarget(name: "LiveryWorkflowTests", dependencies: ["LiveryWorkflow", "LiveryCheck", "LiveryResolve", "LiveryInterchange", "LiveryL10n", "LiveryLoad", "LiveryDiagnostics", "LiveryTestSupport"]),
        .testTarget(name: "LiveryLanguageServerTests", dependencies: ["LiveryLanguageServer", "LiveryJSONRPC", "LiveryWorkflow", "LiveryCheck", "LiveryLoad", "LiveryDiagnostics", "LiveryTestSupport"]),
        .testTarget(name: "LiveryRemoteWorkflowTests", dependencies: ["LiveryRemoteWorkflow", "LiveryObjectStore", "LiveryWorkflow", "LiverySign", "LiveryTestSupport"]),
        .testTarget(name: "LiveryClientTests", dependencies: ["LiveryClient", "LiveryClientCore", "LiveryReleaseFormat", "LiveryStorage", "LiverySign", "LiveryTestSupport",
                                                             .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")]),
        .testTarget(
            name: "LiveryTests",
            dependencies: ["LiveryCheck", "LiveryLoad", "LiveryMedia", "LiveryResolve", "LiveryDiagnostics", "LiveryRender", "LiveryAssets", "LiverySQLite", "LiveryStorage", "LiveryEncoding", "LiveryPack", "LiveryPublish", "LiveryReleaseFormat", "LiverySign", "LiveryClient", "LiveryClientCore", "LiveryServe", "LiveryInterchange", "LiveryVectors", "LiveryObjectStore", "LiveryImage", "LiveryJSONRPC", "LiveryLanguageServer", "LiveryWorkflow", "LiveryCommands", "LiveryL10n", "CLiverySystem",
                           .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
                           // CommandReferenceTests renders the help of a small command tree of its own.
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           // The shared fixtures (Tests/LiveryTestSupport), under their old names too (TestSupportNames.swift).
                           "LiveryTestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)

// The release JSON parser's harness (Sources/livery-json-fuzz): a `replay`/`bench` command in ordinary builds
// (`make bench`), and with LIVERY_FUZZ=1 the libFuzzer target of `make fuzz`, which builds it with
// `--sanitize=fuzzer` into its own scratch path (.build-fuzz). libFuzzer then supplies `main`, so only that
// build defines LIVERY_FUZZING; `make test`'s build never needs the sanitizer.
let fuzzing = Context.environment["LIVERY_FUZZ"] != nil
package.targets.append(.executableTarget(name: "livery-json-fuzz", dependencies: ["LiveryReleaseFormat", "LiverySign", "LiveryLoad", "LiveryMedia", "LiveryDiagnostics", "LiveryObjectStore", "LiveryClient", "LiveryJSONRPC",
                                                                               .product(name: "Crypto", package: "swift-crypto"), .product(name: "ZIPFoundation", package: "ZIPFoundation")],
                                         swiftSettings: fuzzing ? [.define("LIVERY_FUZZING")] : []))
