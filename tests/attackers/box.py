#!/usr/bin/env python3
"""A subject that attacks the box it runs in (issue 41), then behaves.

Before it serves, it tries each attack named on its command line and
appends one line per attack to `$BOX_LOG` (a file open to every user):
`NAME: done (what it got)` when the attack did harm, `NAME: denied (why)`
when it did not. Then it becomes a well-behaved subject: the reference
(`$TOOLPATH_BIN serve`) as an adapter, or tests/mcp/fake_server.py as an
MCP server, so the run's verdicts are those of a correct subject.

`$BOX_MARK` names what it leaves behind, so the test can look for it.

usage: box.py adapter|mcp|probe ATTACK...

attacks:
  tty     opens /dev/tty and types `exit` into it with TIOCSTI
  fds     reads every descriptor it holds beyond 0, 1 and 2
  userns  makes a user namespace (where it would hold every capability)
  ipc     makes SysV shared memory, a message queue, semaphores and a
          POSIX message queue, all keyed by the mark
  tmp     makes files in /tmp, /var/tmp and /dev/shm named by the mark
  fill    writes a 300 MiB file in /dev/shm
  procs   forks up to 1,500 processes (each sleeps, then all are killed)
  memory  maps 5 GiB of writable memory (none of it touched, so it costs
          nothing where it is allowed)
  rootfile appends to $BOX_ROOT_FILE, a file of root's (mode 0644): the
          fuzzer's subject ran as root and rewrote the suite run's JUnit file
  peer    reads the memory of the process whose pid is in $BOX_PEER, and
          asks whether it may signal it
  victim  writes its pid to $BOX_PEER and waits (at most 60 s) for
          $BOX_GO to exist: the process another run's subject attacks

`probe` runs the attacks and exits: the test's control, outside the box.
"""

import ctypes
import ctypes.util
import os
import signal
import sys
import time

LIBC = ctypes.CDLL(None, use_errno=True)
MODE, ATTACKS = sys.argv[1], sys.argv[2:]
MARK = os.environ.get("BOX_MARK", "toolpath-box")
KEY = sum(MARK.encode()) * 7919 % (1 << 30) + 1


def log(line):
    with open(os.environ["BOX_LOG"], "a") as f:
        f.write(line + "\n")


def errno_text():
    e = ctypes.get_errno()
    return f"{os.strerror(e)}"


def tty():
    try:
        fd = os.open("/dev/tty", os.O_RDWR)
    except OSError as e:
        return log(f"tty: denied ({e.strerror})")
    import fcntl
    import termios

    try:
        for byte in b"exit\n":
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
        log("tty: done (typed into the terminal)")
    except OSError as e:
        log(f"tty: done (opened /dev/tty; TIOCSTI: {e.strerror})")


def fds():
    held = []
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd <= 2:
            continue
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("/proc/") and "/fd" in target:
            continue  # the listing's own descriptor
        held.append(f"{fd} -> {target}")
    if held:
        log(f"fds: done (held {', '.join(held)})")
    else:
        log("fds: denied (none held)")


def userns():
    CLONE_NEWUSER = 0x10000000
    if LIBC.unshare(CLONE_NEWUSER) == 0:
        log("userns: done (in a user namespace of its own)")
    else:
        log(f"userns: denied ({errno_text()})")


def ipc():
    made = []
    IPC_CREAT = 0o1000
    if LIBC.shmget(KEY, 4096, IPC_CREAT | 0o600) >= 0:
        made.append("shm")
    if LIBC.msgget(KEY, IPC_CREAT | 0o600) >= 0:
        made.append("msg")
    if LIBC.semget(KEY, 1, IPC_CREAT | 0o600) >= 0:
        made.append("sem")
    rt = ctypes.CDLL(ctypes.util.find_library("rt"), use_errno=True)
    name = f"/{MARK}".encode()
    if rt.mq_open(name, os.O_CREAT | os.O_RDWR, 0o600, None) >= 0:
        made.append("mq")
    log(f"ipc: {'done' if made else 'denied'} ({' '.join(made) or errno_text()})")


def tmp():
    made = []
    for place in ["/tmp", "/var/tmp", "/dev/shm"]:
        try:
            with open(f"{place}/{MARK}", "w") as f:
                f.write("left behind\n")
            made.append(place)
        except OSError:
            pass
    log(f"tmp: {'done' if made else 'denied'} ({' '.join(made)})")


def fill():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    path = f"/dev/shm/{MARK}-fill"
    chunk = b"\0" * (1 << 20)
    written = 0
    try:
        with open(path, "wb") as f:
            for _ in range(300):
                f.write(chunk)
                written += 1
        log(f"fill: done ({written} MiB)")
    except OSError as e:
        log(f"fill: denied ({e.strerror} after {written} MiB)")
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


def procs():
    children = []
    error = ""
    for _ in range(1500):
        try:
            pid = os.fork()
        except OSError as e:
            error = e.strerror
            break
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    verdict = "done" if len(children) >= 1500 else "denied"
    log(f"procs: {verdict} ({len(children)} forked{'; ' + error if error else ''})")


def memory():
    import mmap

    try:
        m = mmap.mmap(
            -1,
            5 << 30,
            flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
            prot=mmap.PROT_READ | mmap.PROT_WRITE,
        )
        m.close()
        log("memory: done (mapped 5 GiB writable)")
    except OSError as e:
        log(f"memory: denied ({e.strerror})")


def rootfile():
    try:
        with open(os.environ["BOX_ROOT_FILE"], "a") as f:
            f.write("written by the subject\n")
        log("rootfile: done (appended to a file of root's)")
    except OSError as e:
        log(f"rootfile: denied ({e.strerror})")


def peer():
    path = os.environ["BOX_PEER"]
    for _ in range(600):
        if os.path.exists(path) and open(path).read().strip():
            break
        time.sleep(0.1)
    pid = int(open(path).read().strip())
    got = []
    try:
        with open(f"/proc/{pid}/mem", "rb") as f:
            f.read(1)
        got.append(f"opened /proc/{pid}/mem")
    except OSError as e:
        why = e.strerror
    try:
        os.kill(pid, 0)  # the permission to signal it, without a signal
        got.append("may signal it")
    except OSError as e:
        why = e.strerror
    if got:
        log(f"peer: done ({'; '.join(got)})")
    else:
        log(f"peer: denied ({why})")


def victim():
    # Its pid as the machine's /proc names it: in a PID namespace of its
    # own, getpid() says another number.
    with open(os.environ["BOX_PEER"], "w") as f:
        f.write(f"{os.readlink('/proc/self')}\n")
    for _ in range(600):
        if os.path.exists(os.environ["BOX_GO"]):
            break
        time.sleep(0.1)


for attack in ATTACKS:
    globals()[attack]()
sys.stdout.flush()
if MODE == "adapter":
    os.execv(os.environ["TOOLPATH_BIN"], [os.environ["TOOLPATH_BIN"], "serve"])
if MODE == "mcp":
    server = os.path.join(os.path.dirname(__file__), "..", "mcp", "fake_server.py")
    os.execv(sys.executable, [sys.executable, server])
