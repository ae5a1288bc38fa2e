"""Writes a small TUF repository with python-tuf for the Java client's class-data-sharing run (make-cds-archive.sh):
consistent snapshots, Ed25519 keys, a delegated role and a target it signs, so one `download` loads the classes a
conformance run uses. Usage: cds-training-repo.py OUT (writes OUT/metadata, OUT/targets, OUT/root.json)."""
import hashlib
import os
import sys
from datetime import datetime, timedelta, timezone

from securesystemslib.signer import CryptoSigner
from tuf.api.metadata import (DelegatedRole, Delegations, Metadata, MetaFile, Root, Snapshot, TargetFile, Targets,
                              Timestamp)
from tuf.api.serialization.json import JSONSerializer

out = sys.argv[1]
os.makedirs(f"{out}/metadata", exist_ok=True)
os.makedirs(f"{out}/targets/dir", exist_ok=True)
expires = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=7)
signers = {name: CryptoSigner.generate_ed25519() for name in ("root", "timestamp", "snapshot", "targets", "delegate")}

content = b"class-data-sharing training target\n"
digest = hashlib.sha256(content).hexdigest()
with open(f"{out}/targets/dir/{digest}.file.txt", "wb") as f:
    f.write(content)

root = Metadata(Root(expires=expires, consistent_snapshot=True))
for role in ("root", "timestamp", "snapshot", "targets"):
    root.signed.add_key(signers[role].public_key, role)
delegate = Metadata(Targets(expires=expires))
delegate.signed.targets["dir/file.txt"] = TargetFile(len(content), {"sha256": digest}, "dir/file.txt")
targets = Metadata(Targets(expires=expires))
key = signers["delegate"].public_key
targets.signed.delegations = Delegations({key.keyid: key}, roles={
    "delegate": DelegatedRole("delegate", [key.keyid], 1, False, paths=["dir/*"])})
snapshot = Metadata(Snapshot(expires=expires))
snapshot.signed.meta["delegate.json"] = MetaFile(1)
timestamp = Metadata(Timestamp(expires=expires))

serializer = JSONSerializer(compact=True)
for name, metadata, signer in [("1.root", root, "root"), ("1.targets", targets, "targets"), ("1.delegate", delegate, "delegate"),
                               ("1.snapshot", snapshot, "snapshot"), ("timestamp", timestamp, "timestamp")]:
    metadata.sign(signers[signer])
    metadata.to_file(f"{out}/metadata/{name}.json", serializer)
root.to_file(f"{out}/root.json", serializer)
