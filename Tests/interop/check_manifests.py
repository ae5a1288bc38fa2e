#!/usr/bin/env python3
"""Checks Livery's samples and schemas with independent implementations (python-jsonschema, PyYAML).

1. Every generated schema under schemas/ is a valid JSON Schema (draft 2020-12).
2. Every sample manifest validates against the schema of its kind.
3. Every sample token file validates against the official DTCG 2025.10 format schema, and every
   resolver document (*.resolver.json) against the resolver schema, when the shared data folder
   is present (resolved offline through a local registry).
Prints one line per failure and exits 1 if there is any.
"""
import json
import pathlib
import sys

import jsonschema
import yaml
from referencing import Registry, Resource

root = pathlib.Path(sys.argv[1]).resolve()
failures = []

schemas = {}
for path in sorted((root / "schemas").glob("*.schema.json")):
    schema = json.loads(path.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    schemas[path.name.split(".")[0]] = schema


def kind_of(relative):
    parts = relative.parts
    stem = relative.stem
    if len(parts) == 1 and stem in ("tenant", "voice"):
        return stem
    if len(parts) == 2 and parts[0] == "programs":
        return "program"
    if len(parts) == 2 and parts[0] == "locales":
        return "locale"
    if len(parts) == 2 and parts[0] == "library" and stem == "library":
        return "library"
    if len(parts) == 3 and parts[0] == "tours" and stem == "tour":
        return "tour"
    return None


checked = 0
for tenant in sorted((root / "Tenants").iterdir()):
    if not (tenant / "tenant.yaml").exists():
        continue
    for path in sorted(tenant.rglob("*")):
        if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
            continue
        kind = kind_of(path.relative_to(tenant))
        if kind is None:
            continue
        document = yaml.safe_load(path.read_text()) if path.suffix != ".json" else json.loads(path.read_text())
        for error in jsonschema.Draft202012Validator(schemas[kind]).iter_errors(document):
            failures.append(f"{path.relative_to(root)}: {kind} schema: {error.json_path}: {error.message}")
        checked += 1

dtcg = root.parent / "shared" / "data" / "dtcg-2025.10"
token_files = 0
if dtcg.is_dir():
    resources = []
    for path in dtcg.rglob("*.json"):
        contents = json.loads(path.read_text())
        resources.append((contents["$id"], Resource.from_contents(contents)))
    registry = Registry().with_resources(resources)
    format_schema = json.loads((dtcg / "format.json").read_text())
    validator = jsonschema.validators.validator_for(format_schema)(format_schema, registry=registry)
    resolver_schema = json.loads((dtcg / "resolver.json").read_text())
    resolver_validator = jsonschema.validators.validator_for(resolver_schema)(resolver_schema, registry=registry)
    for path in sorted((root / "Tenants").glob("*/branding/*.json")):
        # Resolver documents (*.resolver.json) follow the resolver schema, token files the format schema.
        checker = resolver_validator if path.name.endswith(".resolver.json") else validator
        for error in checker.iter_errors(json.loads(path.read_text())):
            failures.append(f"{path.relative_to(root)}: DTCG 2025.10: {error.json_path}: {error.message[:200]}")
        token_files += 1
else:
    print(f"note: {dtcg} not found; DTCG token files not checked")

for failure in failures:
    print(failure)
print(f"{checked} manifests and {token_files} token files checked, {len(failures)} failures")
sys.exit(1 if failures else 0)
