"""Real temporary fixtures for the unit tests, and a way to run code as an
unprivileged user when the tests run as root (root ignores permission bits)."""

import os
import pickle
import socket
import stat
import tempfile
import unittest
from typing import Callable, Dict, Iterable, Optional

from toolpath_port.resolve import Workspace

NOBODY = 65534


class Fixture:
    """A fresh directory (canonical path) with helpers to populate it."""

    def __init__(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="toolpath-py-")
        os.chmod(self._tmp.name, 0o755)
        self.root = os.path.realpath(self._tmp.name)
        self._sockets = []
        self._modes = []

    def close(self):
        for sock in self._sockets:
            sock.close()
        for path in self._modes:  # let cleanup remove what we locked
            try:
                os.chmod(path, 0o755)
            except OSError:
                pass
        self._tmp.cleanup()

    def p(self, rel: str) -> str:
        return os.path.join(self.root, rel) if rel else self.root

    def dirs(self, *rels: str) -> "Fixture":
        for rel in rels:
            os.makedirs(self.p(rel), exist_ok=True)
        return self

    def files(self, files: Dict[str, object]) -> "Fixture":
        for rel, content in files.items():
            path = self.p(rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            data = content.encode() if isinstance(content, str) else content
            with open(path, "wb") as f:
                f.write(data)
        return self

    def links(self, links: Dict[str, str]) -> "Fixture":
        for rel, target in links.items():
            path = self.p(rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            os.symlink(target, path)
        return self

    def fifo(self, rel: str) -> "Fixture":
        os.mkfifo(self.p(rel))
        return self

    def socket(self, rel: str) -> "Fixture":
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(self.p(rel))
        self._sockets.append(sock)
        return self

    def device(self, rel: str) -> "Fixture":
        """A character device like /dev/null (needs root)."""
        os.mknod(self.p(rel), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        return self

    def mode(self, rel: str, mode: int) -> "Fixture":
        os.chmod(self.p(rel), mode)
        self._modes.append(self.p(rel))
        return self

    def workspace(self, roots: Iterable[str] = ("ws",), target: Optional[str] = None) -> Workspace:
        roots = list(roots)
        for r in roots:
            os.makedirs(self.p(r), exist_ok=True)
        return Workspace([self.p(r) for r in roots], self.p(target if target is not None else roots[0]))


class FixtureTestCase(unittest.TestCase):
    def setUp(self):
        self.fx = Fixture()
        self.addCleanup(self.fx.close)


def is_root() -> bool:
    return os.geteuid() == 0


def unprivileged(func: Callable[[], object]) -> object:
    """Call ``func`` where permission bits apply: directly when not root,
    otherwise in a forked child running as ``nobody``. Returns what it
    returns (or raises what it raises); both must pickle."""
    if not is_root():
        return func()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            try:
                payload = ("ok", func())
            except BaseException as err:  # noqa: BLE001 - shipped to the parent
                payload = ("raise", err)
            data = pickle.dumps(payload)
        except BaseException as err:  # noqa: BLE001
            data = pickle.dumps(("raise", RuntimeError(f"child failed: {err!r}")))
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(data)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    status, value = pickle.loads(data)
    if status == "raise":
        raise value
    return value
