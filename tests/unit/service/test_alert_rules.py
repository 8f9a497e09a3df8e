"""The Prometheus alert examples of docs/deploy/prometheus: valid rules whose unit tests pass
(promtool), naming only metrics the service exports."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml
from prometheus_client.parser import text_string_to_metric_families

from tests.support.api import make_app
from tests.support.processes import tool

RULES = Path(__file__).resolve().parents[3] / "docs" / "deploy" / "prometheus"
SUFFIXES = ("_bucket", "_count", "_sum", "_total")


def test_the_alert_rules_are_valid_and_their_unit_tests_pass() -> None:
    promtool = tool("promtool", "prometheus")
    for command in (["check", "rules", "cardroom-alerts.yml"],
                    ["test", "rules", "cardroom-alerts.test.yml"]):  # fmt: skip
        ran = subprocess.run([promtool, *command], cwd=RULES, capture_output=True, text=True)
        assert ran.returncode == 0, ran.stdout + ran.stderr


def test_the_alert_rules_name_only_metrics_the_service_exports() -> None:
    exported = {
        family.name
        for family in text_string_to_metric_families(
            make_app().test_client().get("/metrics").get_data(as_text=True)
        )
    }
    rules = yaml.safe_load((RULES / "cardroom-alerts.yml").read_text())
    named = {
        _family(name)
        for group in rules["groups"]
        for rule in group["rules"]
        for name in re.findall(r"\bcardroom_[a-z_]+", rule["expr"])
    }
    assert named and named <= exported, named - exported


def _family(sample: str) -> str:
    for suffix in SUFFIXES:
        if sample.endswith(suffix):
            return sample[: -len(suffix)]
    return sample
