// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation

/// python-tuf, the independent TUF client the tests check releases with (from .venv-test, `make test-venv`).
public enum PythonTUF {
    /// The Python of .venv-test, which has python-tuf, securesystemslib, coloraide, boto3 and pytest-lsp.
    public static var python: String { LiveryProcess.packageRoot.appendingPathComponent(".venv-test/bin/python").path }

    /// A new, empty folder for one python-tuf client's trusted metadata.
    public static func clientState(in root: URL, _ name: String = "tuf-state-\(UUID().uuidString)") throws -> URL {
        let state = root.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: state)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        return state
    }

    /// Runs python-tuf against the served release; returns (exit status, output). With `token`, its
    /// fetcher sends `Authorization: Bearer <token>` (voucher-protected targets need it).
    public static func run(port: Int, tenant: String, root: URL, state: URL, targets: [String]? = nil, token: String? = nil) throws -> LiveryProcess.Output {
        let script = """
            import sys
            import urllib3
            from tuf.api import exceptions
            from tuf.ngclient import FetcherInterface, Updater
            base, metadir, rootfile, token, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
            class BearerFetcher(FetcherInterface):
                def __init__(self):
                    self.pool = urllib3.PoolManager()
                def _fetch(self, url):
                    headers = {"Authorization": "Bearer " + token} if token else {}
                    response = self.pool.request("GET", url, headers=headers, preload_content=False, timeout=30)
                    if response.status >= 400:
                        response.close()
                        raise exceptions.DownloadHTTPError(f"HTTP {response.status}", response.status)
                    return response.stream(65536)
            import os
            os.makedirs(metadir + "/dl", exist_ok=True)
            updater = Updater(metadata_dir=metadir, metadata_base_url=base + "/metadata/", target_dir=metadir + "/dl",
                              target_base_url=base + "/targets/", fetcher=BearerFetcher(), bootstrap=open(rootfile, "rb").read())
            updater.refresh()
            names = names or sorted(updater._trusted_set.targets.targets.keys())
            for name in names:
                info = updater.get_targetinfo(name)
                assert info is not None, name
                updater.download_target(info)
            print("ok", len(names))
            """
        return try LiveryProcess.tool([python, "-c", script, "http://127.0.0.1:\(port)/\(tenant)", state.path, root.path, token ?? ""] + (targets ?? []))
    }
}
#endif
