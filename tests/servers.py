"""What the tests that start a JupyterLab server share: a free port, and stopping the server for sure."""

import socket
import subprocess


def free_port():  # -> int
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(server, timeout):
    """Ask a server process to stop; kill it if it has not stopped after `timeout` seconds."""
    server.terminate()
    try:
        server.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
