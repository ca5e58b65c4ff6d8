"""The stdio adapter, end to end: protocol lines only, one answer per call."""

import json
import os
import subprocess
import sys
import unittest

from toolpath_port.tools import SCHEMAS

from .fixture import FixtureTestCase

ADAPTER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "adapter.py")


def converse(messages, timeout=20):
    lines = "".join(json.dumps(m) + "\n" for m in messages)
    proc = subprocess.run([sys.executable, ADAPTER], input=lines.encode(), capture_output=True,
                          timeout=timeout, env={**os.environ, "LC_ALL": "C"})
    out = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    return proc, out


class AdapterTest(FixtureTestCase):
    def test_conversation(self):
        self.fx.files({"ws/src/a.ts": "hello world\n", "ws/\u00e9t\u00e9.ts": "hello \u00e9t\u00e9\n"})
        ws = {"roots": [self.fx.p("ws")], "target": self.fx.p("ws")}
        proc, out = converse([
            {"type": "hello", "protocol": 1, "suite": "0.1.0"},
            {"type": "call", "seq": 1, "case": "a", "workspace": ws, "tool": "grep",
             "params": {"pattern": "hello", "dir_path": "src/a.ts"}},
            {"type": "call", "seq": 2, "case": "b", "workspace": ws, "tool": "shell",
             "params": {"command": "pwd", "dir_path": "src"}},
            {"type": "call", "seq": 3, "case": "c", "workspace": ws, "tool": "resolve",
             "params": {"path": "../x"}},
            {"type": "call", "seq": 4, "case": "d", "workspace": ws, "tool": "ripgrep",
             "params": {"pattern": "\u00e9t\u00e9$", "include": "*.ts"}},
            {"type": "bye"},
        ])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([m["type"] for m in out], ["hello", "result", "result", "result", "result"])
        hello = out[0]
        self.assertEqual(hello["protocol"], 1)
        self.assertEqual(hello["tools"], ["resolve", "grep", "ripgrep", "shell", "glob", "ls",
                                         "read_file", "write_file", "edit"])
        self.assertEqual([m["seq"] for m in out[1:]], [1, 2, 3, 4])
        self.assertEqual(out[1]["matches"], [{"path": self.fx.p("ws/src/a.ts"), "line": 1, "text": "hello world"}])
        self.assertEqual(out[1]["notes"], [])
        self.assertEqual(out[2]["cwd"], self.fx.p("ws/src"))
        self.assertEqual(out[3]["error"]["code"], "outside_workspace")
        self.assertEqual(out[4]["matches"][0]["text"], "hello \u00e9t\u00e9")

    def test_non_utf8_names_and_contents_stay_valid_json(self):
        os.makedirs(self.fx.p("ws"))
        with open(os.fsencode(self.fx.p("ws")) + b"/bad\xff.txt", "wb") as f:
            f.write(b"hello \xfe\n")
        ws = {"roots": [self.fx.p("ws")], "target": self.fx.p("ws")}
        proc, out = converse([{"type": "call", "seq": 7, "case": "x", "workspace": ws, "tool": "grep",
                               "params": {"pattern": "hello"}}])
        self.assertEqual(out[0]["seq"], 7)
        self.assertEqual(len(out[0]["matches"]), 1)

    def test_exits_at_end_of_input(self):
        proc, out = converse([{"type": "hello", "protocol": 1, "suite": "0.1.0"}])
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(len(out), 1)


class DescriptionTest(unittest.TestCase):
    """DESC-1..3 on the schemas sent in hello."""

    def test_search(self):
        for tool in ("grep", "ripgrep"):
            for param in ("dir_path", "path"):
                d = SCHEMAS[tool]["properties"][param]["description"].lower()
                for word in ("file", "directory", "relative"):
                    self.assertIn(word, d, (tool, param))
                self.assertNotIn("absolute path to the directory", d)

    def test_shell(self):
        for param in ("dir_path", "directory"):
            d = SCHEMAS["shell"]["properties"][param]["description"].lower()
            self.assertIn("relative", d)
            self.assertIn("workspace", d)
            self.assertNotIn("absolute path to the directory", d)


if __name__ == "__main__":
    unittest.main()
