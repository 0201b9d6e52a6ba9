"""Helpers every Python check shares (the browser tests, the two-instance test, the Web Push
check, the BlueZ gateway test and the live benchmarks): a free port, a JSON API call and
waiting for a server's health check. Standard library only — the BlueZ test runs under
Debian's /usr/bin/python3 with nothing from PyPI.

    sys.path.insert(0, str(ROOT / "Tests"))
    from common import call, free_port, wait_for_health
"""

import json
import socket
import time
import urllib.error
import urllib.request


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(base, method, path, body=None, token=None, timeout=30):
    """One JSON API call: (status, the decoded JSON body or None when empty). An error status
    is returned, not raised, with its body as JSON when it is JSON (the API's errors are),
    else as text."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, method=method, data=data)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        text = error.read().decode(errors="replace")
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, text


def wait_for_health(base, process, timeout=60):
    """Waits until GET /healthz says ok; stops the check if the server exits first."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited early with status {process.returncode}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if json.load(response)["status"] == "ok":
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("the server did not become healthy")
