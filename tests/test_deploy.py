"""The deployment files as shipped: ``deploy/nginx.conf`` passes ``nginx -t`` (its
upstream hosts aside, which only exist inside the compose network) and names no path
that the official nginx image lacks; ``deploy/compose.yaml`` restarts what dies, checks
health, and configures the app through the environment ``lexiko serve`` reads."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from lexiko.cli.serve import ENV_PREFIX, add_parser

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
#: folders both the official nginx image and Debian's package create
NGINX_FOLDERS = ("/run/", "/var/log/nginx/", "/etc/nginx/")


def test_nginx_conf_names_only_paths_every_nginx_build_has() -> None:
    """The official image has no /var/lib/nginx (Debian's package has): a temp path there
    stopped the compose stack with '[emerg] mkdir() "/var/lib/nginx/body" failed'."""
    conf = (DEPLOY / "nginx.conf").read_text()
    body = "\n".join(line.split("#", 1)[0] for line in conf.splitlines())
    files = re.findall(r"\s(/[\w.-]+/[\w./-]*[\w.-])[\s;]", body)  # locations end in /
    assert files == ["/run/nginx-lexiko.pid", "/var/log/nginx/lexiko-error.log"]
    assert [p for p in files if not p.startswith(NGINX_FOLDERS)] == []
    assert "temp_path" not in body


@pytest.mark.skipif(
    shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists(), reason="nginx is not installed"
)
@pytest.mark.skipif(os.geteuid() != 0, reason="nginx -t opens /var/log/nginx and /run as shipped: needs root")
def test_nginx_conf_as_shipped_passes_nginx_t(tmp_path: Path) -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    conf = re.sub(r"server app\d+:8000", "server 127.0.0.1:8000", conf)  # the only change
    (tmp_path / "nginx.conf").write_text(conf)
    Path("/var/log/nginx").mkdir(parents=True, exist_ok=True)  # as the image and the package have it
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    run = subprocess.run([nginx, "-t", "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "test is successful" in run.stderr


def test_compose_restarts_checks_health_and_configures_by_environment() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert sorted(services) == ["app1", "app2", "app3", "cache", "db", "proxy"]
    assert {name: s["restart"] for name, s in services.items()} == dict.fromkeys(services, "unless-stopped")
    assert sorted(name for name, s in services.items() if "healthcheck" in s) == ["app1", "app2", "app3", "cache", "db"]
    for app in ("app1", "app2", "app3"):
        s = services[app]
        assert s["depends_on"] == {"db": {"condition": "service_healthy"}, "cache": {"condition": "service_healthy"}}
        assert s["command"].endswith('&& lexiko serve"')  # every option from the environment
        p = argparse.ArgumentParser()
        options = {a.dest for a in add_parser(p.add_subparsers())._actions if a.option_strings}
        names = {ENV_PREFIX + dest.upper() for dest in options}
        assert set(s["environment"]) <= names, set(s["environment"]) - names
        assert s["environment"]["LEXIKO_DATABASE_URL"].startswith("postgresql://")
