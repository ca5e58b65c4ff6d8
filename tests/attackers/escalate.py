#!/usr/bin/env python3
"""An adapter that tries, before it answers anything, every privileged
interface from which a root process without CAP_SYS_PTRACE can still read
the harness's memory (issue 30, item 1: the audit's adapter mounted tracefs
in a mount namespace of its own, put a uprobe on the function that seals
spool lines, read the key and re-sealed forged lines):

  mount     mount tracefs (uprobes) on a directory of its TMPDIR;
  unshare   a mount namespace of its own, then tracefs there;
  kcore     read /proc/kcore (the kernel's memory, CAP_SYS_RAWIO);
  bpf       create an eBPF map (CAP_BPF or CAP_SYS_ADMIN);
  perf      open a kernel-wide perf event (CAP_PERFMON);

Each attempt and its outcome is appended to `$ESCALATE_LOG` as
`WHAT: allowed` or `WHAT: denied (ERROR)`, followed by the capability
lines of /proc/self/status; then it becomes the reference
(`$TOOLPATH_BIN serve`), so the run's verdicts are the reference's.

usage: escalate.py
"""

import ctypes
import ctypes.util
import os
import sys

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
CLONE_NEWNS = 0x00020000
SYS_BPF = 321
SYS_PERF_EVENT_OPEN = 298


def log(line):
    with open(os.environ["ESCALATE_LOG"], "a") as out:
        out.write(line + "\n")


def outcome(what, result):
    if result < 0:
        err = ctypes.get_errno()
        log(f"{what}: denied ({os.strerror(err)})")
    else:
        log(f"{what}: allowed")


def mount_tracefs(what):
    target = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"trace-{what}")
    os.makedirs(target, exist_ok=True)
    result = libc.mount(b"nodev", target.encode(), b"tracefs", 0, None)
    outcome(what, result)
    if result == 0:
        libc.umount2(target.encode(), 2)


mount_tracefs("mount")
if libc.unshare(CLONE_NEWNS) < 0:
    outcome("unshare", -1)
else:
    mount_tracefs("unshare")

try:
    with open("/proc/kcore", "rb") as kcore:
        kcore.read(1)
    log("kcore: allowed")
except OSError as e:
    log(f"kcore: denied ({e.strerror})")

# BPF_MAP_CREATE (0) of an array map (2): key 4 bytes, value 4, 1 entry.
attr = (ctypes.c_uint32 * 32)(2, 4, 4, 1)
outcome("bpf", libc.syscall(SYS_BPF, 0, ctypes.byref(attr), ctypes.sizeof(attr)))

# A software event (type 1, cpu clock 0) on every process of CPU 0: pid -1
# needs CAP_PERFMON (or CAP_SYS_ADMIN) whatever perf_event_paranoid says
# above 0.
perf = (ctypes.c_uint32 * 32)()
perf[0] = 1
perf[1] = 128
outcome("perf", libc.syscall(SYS_PERF_EVENT_OPEN, ctypes.byref(perf), -1, 0, -1, 0))


with open("/proc/self/status") as status:
    for line in status:
        if line.startswith(("Cap", "NoNewPrivs", "Uid")):
            log(line.strip().replace("\t", " "))

sys.stdout.flush()
os.execv(os.environ["TOOLPATH_BIN"], [os.environ["TOOLPATH_BIN"], "serve"])
