#!/usr/bin/env python3
"""Strict schema check of rendered Kubernetes manifests, offline.

Built-in kinds are checked with kubernetes-validate (PyPI), which carries
Kubernetes' own OpenAPI schemas, in strict mode (unknown fields are errors),
against every Kubernetes version given. Custom resources (KEDA ScaledObject,
Prometheus Operator ServiceMonitor and PrometheusRule) are checked against
the openAPIV3Schema of their CRDs, read from the projects' Go modules
(fetched once through the Go module proxy into the module cache), with
unknown fields rejected as the API server does.

Usage: validate_manifests.py [--kube-versions 1.27,1.33] [--json-out docs.json] FILE...
Prints one line per problem; exits 1 if there is any.
"""
import argparse
import copy
import json
import os
import subprocess
import sys

import jsonschema
import kubernetes_validate
import yaml

# CRD files of the custom resources the chart renders, per Go module.
CRD_SOURCES = {
    "github.com/kedacore/keda/v2@v2.18.3": ["config/crd/bases/keda.sh_scaledobjects.yaml"],
    "github.com/prometheus-operator/prometheus-operator@v0.85.0": [
        "example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml",
        "example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml",
    ],
}


def module_dir(module):
    env = dict(os.environ, GOFLAGS="-mod=mod", GOTOOLCHAIN="local")
    out = subprocess.run(["go", "mod", "download", "-json", module], capture_output=True, text=True, env=env)
    info = json.loads(out.stdout or "{}")
    if out.returncode != 0 or "Dir" not in info:
        sys.exit(f"cannot fetch {module} for its CRD schemas: {info.get('Error') or out.stderr.strip()}")
    return info["Dir"]


def strict(schema):
    """Structural CRD schemas: an object without x-kubernetes-preserve-unknown-fields takes no unknown field."""
    if isinstance(schema, dict):
        schema = {k: strict(v) for k, v in schema.items()}
        if schema.get("type") == "object" and "properties" in schema \
                and "additionalProperties" not in schema \
                and not schema.get("x-kubernetes-preserve-unknown-fields"):
            schema["additionalProperties"] = False
        if schema.get("x-kubernetes-int-or-string"):
            schema.pop("type", None)
            schema["anyOf"] = [{"type": "integer"}, {"type": "string"}]
        return schema
    if isinstance(schema, list):
        return [strict(v) for v in schema]
    return schema


def crd_schemas():
    schemas = {}
    for module, files in CRD_SOURCES.items():
        root = module_dir(module)
        for rel in files:
            with open(os.path.join(root, rel)) as f:
                crd = yaml.safe_load(f)
            group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
            for version in crd["spec"]["versions"]:
                schema = copy.deepcopy(version["schema"]["openAPIV3Schema"])
                # metadata is the API server's business, checked by its own rules.
                schema.setdefault("properties", {})["metadata"] = {"type": "object"}
                schemas[(f"{group}/{version['name']}", kind)] = strict(schema)
    return schemas


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kube-versions", default="1.27,1.33")
    parser.add_argument("--json-out")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    versions = args.kube_versions.split(",")
    custom = crd_schemas()
    problems, checked, dump = [], 0, {}
    for path in args.files:
        with open(path) as f:
            docs = [d for d in yaml.safe_load_all(f) if d]
        dump[path] = docs
        for doc in docs:
            name = f"{path}: {doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
            key = (doc.get("apiVersion"), doc.get("kind"))
            checked += 1
            if key in custom:
                for error in jsonschema.Draft7Validator(custom[key]).iter_errors(doc):
                    problems.append(f"{name}: {'.'.join(map(str, error.absolute_path))}: {error.message}")
                continue
            for version in versions:
                try:
                    kubernetes_validate.validate(doc, version, strict=True)
                except kubernetes_validate.ValidationError as error:
                    problems.append(f"{name} (Kubernetes {version}): {'.'.join(map(str, error.absolute_path))}: {error.message}")
                except kubernetes_validate.SchemaNotFoundError as error:
                    problems.append(f"{name}: no schema: {error.message}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(dump, f)
    for problem in problems:
        print(problem)
    print(f"checked {checked} manifests against Kubernetes {', '.join(versions)} and {len(custom)} CRD schemas: {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
