"""deploy/k8s/ checked without a cluster: every object against the Kubernetes JSON schemas
that ship inside kubernetes-validate (offline, strict: unknown fields fail), and the
objects against each other (names, selectors, secrets and settings they share)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import kubernetes_validate
import pytest
import yaml

from api.settings import Settings

K8S = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
KUBERNETES = "1.31"
CRD_KINDS = {
    ("postgresql.cnpg.io/v1", "Cluster"),
    ("monitoring.coreos.com/v1", "ServiceMonitor"),
}
"""Custom resources: their schema comes with their operator, not with Kubernetes, and is
not vendored here, so they are checked by the cross-checks below only."""


def _objects() -> list[dict[str, Any]]:
    found = [
        doc
        for path in sorted(K8S.glob("*.yaml"))
        for doc in yaml.safe_load_all(path.read_text())
        if doc is not None
    ]
    assert found
    return found


OBJECTS = _objects()


def _one(kind: str, name: str | None = None) -> dict[str, Any]:
    (found,) = [o for o in OBJECTS if o["kind"] == kind and name in (None, o["metadata"]["name"])]
    return found


@pytest.mark.parametrize("obj", OBJECTS, ids=lambda o: f"{o['kind']}/{o['metadata']['name']}")
def test_every_object_matches_the_kubernetes_schema(obj: dict[str, Any]) -> None:
    if (obj["apiVersion"], obj["kind"]) in CRD_KINDS:
        # The validator knows no schema for it (it says so, or finds no file).
        with pytest.raises((kubernetes_validate.SchemaNotFoundError, FileNotFoundError)):
            kubernetes_validate.validate(obj, KUBERNETES, strict=True)
        return
    kubernetes_validate.validate(obj, KUBERNETES, strict=True)


def test_the_validator_catches_a_wrong_field() -> None:
    bad = yaml.safe_load(yaml.safe_dump(_one("Deployment", "aeon-ledger")))
    bad["spec"]["replicas"] = "three"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, KUBERNETES, strict=True)
    bad = yaml.safe_load(yaml.safe_dump(_one("PodDisruptionBudget")))
    bad["spec"]["minAvailble"] = 2
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, KUBERNETES, strict=True)


def test_autoscaler_and_disruption_budget_fit_the_deployment() -> None:
    deployment = _one("Deployment", "aeon-ledger")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    hpa, pdb = _one("HorizontalPodAutoscaler"), _one("PodDisruptionBudget")
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "aeon-ledger")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    # A budget as large as the smallest scale would block every node drain.
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]
    service = _one("Service", "aeon-ledger")
    assert service["spec"]["selector"].items() <= labels.items()


def test_the_api_reaches_the_database_cluster_and_redis_by_their_names() -> None:
    cluster = _one("Cluster")["metadata"]["name"]
    (api,) = _one("Deployment", "aeon-ledger")["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e for e in api["env"]}
    # CloudNativePG names the application secret <cluster>-app and the services
    # <cluster>-rw (primary) and <cluster>-ro (replicas).
    assert env["DATABASE_URL"]["valueFrom"]["secretKeyRef"]["name"] == f"{cluster}-app"
    assert urlsplit(env["AEON_READ_DATABASE_URLS"]["value"]).hostname == f"{cluster}-ro"
    redis = urlsplit(env["REDIS_URL"]["value"])
    (port,) = _one("Service", redis.hostname)["spec"]["ports"]
    assert port["port"] == redis.port
    # Every variable set is one the service (or the image's command) reads.
    known = set(_settings_read()) | {"WORKERS", "AEON_DB_PASSWORD"}
    assert set(env) <= known


def test_the_database_cluster_replicates_synchronously_with_replicas() -> None:
    spec = _one("Cluster")["spec"]
    assert spec["instances"] >= 2
    assert spec["postgresql"]["synchronous"]["number"] >= 1
    assert spec["postgresql"]["synchronous"]["dataDurability"] == "required"


def _settings_read() -> list[str]:
    """The environment variables Settings.from_env asks for."""
    asked: list[str] = []

    class Recording(dict[str, str]):
        def get(self, key: str, default: Any = None) -> Any:
            asked.append(key)
            return default

    Settings.from_env(Recording())
    return asked


def test_the_service_monitor_scrapes_the_api_service() -> None:
    monitor, service = _one("ServiceMonitor"), _one("Service", "aeon-ledger")
    labels = service["metadata"]["labels"]
    assert monitor["spec"]["selector"]["matchLabels"].items() <= labels.items()
    ports = {p["name"] for p in service["spec"]["ports"]}
    assert {e["port"] for e in monitor["spec"]["endpoints"]} <= ports
    assert {e["path"] for e in monitor["spec"]["endpoints"]} == {"/metrics"}
