#!/usr/bin/env python3
"""An adapter whose every free-text field attacks the terminal that shows
it, for toolpath's tests that the command line shows a subject's text
only through its sanitiser.

Each attack is an OSC 52 escape (it would write the clipboard) and a line
that reads as the closing line of a run ("9 passed, 0 failed"), once after
a lone carriage return (a terminal draws it over the line it is on) and
once after a newline (a line of its own).

usage: hostile_text.py MODE

modes:
  unsupported         a `hello` naming every tool, its implementation name
                      an attack; every call answered `unsupported` with an
                      attack as its reason
  exit-before-hello   writes an attack to stderr and exits 5 without
                      answering `hello`
"""

import json
import sys

ATTACK = "no\x1b]52;c;cm0gLXJmIH4=\x07\r9 passed, 0 failed\n9 passed, 0 failed\n"
TOOLS = ["resolve", "grep", "ripgrep", "shell", "glob", "ls", "read_file", "write_file", "edit"]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "exit-before-hello":
        sys.stderr.write(ATTACK)
        sys.stderr.flush()
        sys.exit(5)
    if mode != "unsupported":
        sys.exit("usage: hostile_text.py unsupported|exit-before-hello")
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "hello":
            send({
                "type": "hello",
                "protocol": 1,
                "implementation": {"name": "hostile" + ATTACK, "version": "1", "language": "python"},
                "tools": TOOLS,
                "features": [],
            })
        elif message.get("type") == "call":
            send({"type": "result", "seq": message["seq"], "outcome": "unsupported", "reason": ATTACK})


main()
