#!/usr/bin/env python3
"""Independent checks of a bucket Livery published (Tests/LiveryTests/ObjectStoreTests.swift).

  s3-oracle.py check   ENDPOINT BUCKET PREFIX OUTPUT TENANT...
      With boto3 (credentials from the environment): every file of OUTPUT/<tenant>/ is in the
      bucket under PREFIX/<tenant>/ with the same bytes (SHA-256 of a GET), the recorded
      x-amz-meta-sha256, the right Content-Type and Cache-Control; nothing else is there but the
      previous releases' files. Voucher targets (access "voucher" in a local download manifest)
      are under PREFIX/<tenant>/protected/ instead of targets/, private: an anonymous GET is
      refused and a GET presigned by boto3 gets them. Then python-tuf refreshes from the bucket's
      plain HTTP endpoint (anonymous, as an app would) and downloads and verifies every target of
      every role (the protected ones through a boto3 presigned URL, checked by python-tuf's
      length and hash verification).
  s3-oracle.py client  ENDPOINT BUCKET PREFIX ROOT TENANT
      python-tuf alone, anonymous: refresh and download every target the current targets
      metadata (and its delegations) lists; prints {"timestamp": N, "snapshot": N, "targets": N,
      "pointer": release.json's release, "pointer_manifest_ok": bool}. Exit 1 with the error when
      the client refuses the bucket.
Exit 3 when boto3 or python-tuf is missing."""
import hashlib
import json
import os
import sys
import tempfile
import urllib.error
import urllib.request

try:
    import boto3
    from tuf.ngclient import Updater
except ImportError:
    sys.exit(3)

IMMUTABLE = "public, max-age=31536000, immutable"
PROTECTED = "private, max-age=31536000, immutable"
POINTER = "public, max-age=60"


def protected_files(folder):
    """The file names under targets/ of voucher bundles, from every download manifest in the folder."""
    names = set()
    targets = os.path.join(folder, "targets")
    # A staged release's manifest is under targets/staged/ (docs/output.md#a-staged-release).
    manifests = [os.path.join(directory, name) for directory in (targets, os.path.join(targets, "staged")) if os.path.isdir(directory)
                 for name in os.listdir(directory) if name.endswith(".download-manifest.json")]
    for manifest in manifests:
        with open(manifest, "rb") as f:
            for bundle in json.load(f)["bundles"]:
                if bundle["access"] == "voucher":
                    names.add(os.path.basename(bundle["path"]))
    return names


def anonymous_status(url):
    try:
        with urllib.request.urlopen(url) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def content_type(name):
    if name.endswith(".json"):
        return "application/json"
    if name.endswith(".zip"):
        return "application/zip"
    if name.endswith(".tar.zst"):
        return "application/zstd"
    return "application/octet-stream"


def target_paths(updater, metadata_dir):
    """Every target path the trusted targets roles list (top-level and delegated, loaded as needed)."""
    paths = set()
    with open(os.path.join(metadata_dir, "targets.json"), "rb") as f:
        top = json.load(f)["signed"]
    paths.update(top["targets"].keys())
    roles = [r["name"] for r in top.get("delegations", {}).get("roles", [])]
    seen = set()
    while roles:
        role = roles.pop(0)
        if role in seen:
            continue
        seen.add(role)
        # get_targetinfo loads delegated roles on the way; read the delegated role's file it stored.
        updater._load_targets(role, "targets")
        from urllib.parse import quote
        with open(os.path.join(metadata_dir, quote(role, "") + ".json"), "rb") as f:
            signed = json.load(f)["signed"]
        paths.update(signed["targets"].keys())
        roles.extend(r["name"] for r in signed.get("delegations", {}).get("roles", []))
    return sorted(paths)


def client(endpoint, bucket, prefix, root, tenant):
    base = f"{endpoint}/{bucket}/{prefix}/{tenant}" if prefix else f"{endpoint}/{bucket}/{tenant}"
    metadata_dir = tempfile.mkdtemp()
    targets_dir = tempfile.mkdtemp()
    with open(root, "rb") as f:
        trusted = f.read()
    updater = Updater(metadata_dir=metadata_dir, metadata_base_url=base + "/metadata/", target_base_url=base + "/targets/", target_dir=targets_dir,
                      bootstrap=trusted)
    updater.refresh()
    count = 0
    manifests = {}
    for path in target_paths(updater, metadata_dir):
        info = updater.get_targetinfo(path)
        if info is None:
            raise RuntimeError(f"{path}: listed but not found by the client")
        if (info.custom or {}).get("access") == "voucher":
            continue  # below: only through a presigned URL
        downloaded = updater.download_target(info, os.path.join(targets_dir, path.replace("/", "_")))
        if path.endswith("download-manifest.json"):
            manifests[info.hashes["sha256"]] = downloaded
        count += 1
    with open(os.path.join(metadata_dir, "timestamp.json"), "rb") as f:
        timestamp = json.load(f)["signed"]
    with open(os.path.join(metadata_dir, "snapshot.json"), "rb") as f:
        snapshot = json.load(f)["signed"]
    s3 = boto3.client("s3", endpoint_url=endpoint)
    key_base = f"{prefix}/{tenant}" if prefix else tenant
    for path in target_paths(updater, metadata_dir):
        info = updater.get_targetinfo(path)
        if info is None:
            raise RuntimeError(f"{path}: listed but not found by the client")
        if (info.custom or {}).get("access") != "voucher":
            continue
        # Consistent snapshots put the hash before the last part of the name (staged/<sha256>.<name>).
        directory, _, basename = path.rpartition("/")
        name = (directory + "/" if directory else "") + f"{info.hashes['sha256']}.{basename}"
        if anonymous_status(f"{base}/protected/{name}") != 403 or anonymous_status(f"{base}/targets/{name}") not in (403, 404):
            raise RuntimeError(f"{path}: a protected target can be read without a signature")
        url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": f"{key_base}/protected/{name}"}, ExpiresIn=300)
        with urllib.request.urlopen(url) as response:
            info.verify_length_and_hashes(response.read())
        count += 1
    pointer = json.load(urllib.request.urlopen(base + "/release.json"))
    return {"timestamp": timestamp["version"], "snapshot": snapshot["version"], "targets": count,
            "pointer": pointer["release"], "pointer_manifest_ok": pointer["sha256"] in manifests}


def check(endpoint, bucket, prefix, output, tenants):
    s3 = boto3.client("s3", endpoint_url=endpoint)
    problems = []
    for tenant in tenants:
        base = f"{prefix}/{tenant}/" if prefix else f"{tenant}/"
        listed = {}
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=base):
            for item in page.get("Contents", []):
                listed[item["Key"][len(base):]] = item
        folder = os.path.join(output, tenant)
        protected = protected_files(folder)
        local = []
        for directory, _, files in os.walk(folder):
            for name in files:
                local.append(os.path.relpath(os.path.join(directory, name), folder))
        # A tenant's other channels are repositories of their own, checked when named (tenant/channels/<name>).
        local = [relative for relative in local if not relative.startswith("channels/")]
        for relative in sorted(local):
            is_protected = relative.startswith("targets/") and os.path.basename(relative) in protected
            remote = "protected/" + relative[len("targets/"):] if is_protected else relative
            if remote not in listed:
                problems.append(f"{tenant}/{relative}: missing from the bucket")
                continue
            if is_protected and relative in listed:
                problems.append(f"{tenant}/{relative}: a protected target is also under targets/")
            with open(os.path.join(folder, relative), "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            obj = s3.get_object(Bucket=bucket, Key=base + remote)
            body = obj["Body"].read()
            if hashlib.sha256(body).hexdigest() != digest:
                problems.append(f"{tenant}/{relative}: different bytes in the bucket")
            if obj.get("Metadata", {}).get("sha256") != digest:
                problems.append(f"{tenant}/{relative}: x-amz-meta-sha256 is {obj.get('Metadata', {}).get('sha256')}, not {digest}")
            if obj["ContentType"] != content_type(relative):
                problems.append(f"{tenant}/{relative}: Content-Type {obj['ContentType']}")
            mutable = relative in ("release.json", "metadata/timestamp.json")
            if obj.get("CacheControl") != (POINTER if mutable else PROTECTED if is_protected else IMMUTABLE):
                problems.append(f"{tenant}/{relative}: Cache-Control {obj.get('CacheControl')}")
            # A file index (docs/deltas.md) is named by the SHA-256 of its first line, its table.
            named = hashlib.sha256(body.split(b"\n", 1)[0] + b"\n").hexdigest() if relative.endswith(".files") else digest
            if relative.startswith("targets/") and not os.path.basename(relative).startswith(named):
                problems.append(f"{tenant}/{relative}: name does not start with its SHA-256")
        for relative in listed:
            if relative.startswith(".livery-publish.lock"):
                problems.append(f"{tenant}: the publish lock was left behind")
        root = os.path.join(folder, "metadata", "1.root.json")
        if os.path.exists(root):
            try:
                result = client(endpoint, bucket, prefix, root, tenant)
                if not result["pointer_manifest_ok"]:
                    problems.append(f"{tenant}: release.json names a manifest the signed targets do not list")
            except Exception as error:  # noqa: BLE001 - any refusal is the finding
                problems.append(f"{tenant}: python-tuf refused the bucket: {type(error).__name__}: {error}")
    return problems


def main():
    command = sys.argv[1]
    if command == "check":
        endpoint, bucket, prefix, output = sys.argv[2:6]
        problems = check(endpoint, bucket, prefix, output, sys.argv[6:])
        print(json.dumps({"problems": problems}))
    elif command == "client":
        endpoint, bucket, prefix, root, tenant = sys.argv[2:7]
        try:
            print(json.dumps(client(endpoint, bucket, prefix, root, tenant)))
        except Exception as error:  # noqa: BLE001
            print(f"{type(error).__name__}: {error}", file=sys.stderr)
            sys.exit(1)
    else:
        sys.exit(2)


main()
