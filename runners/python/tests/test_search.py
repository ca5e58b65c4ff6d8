"""SEARCH, SEC-7, OUT: grep/ripgrep over real fixtures."""

import unittest

from toolpath_port import tools

from .fixture import FixtureTestCase, unprivileged


class SearchTest(FixtureTestCase):
    def setUp(self):
        super().setUp()
        self.fx.files({
            "ws/src/utils/a.ts": "hello world\nnothing\nhello again\n",
            "ws/src/utils/b.ts": "hello b\n",
            "ws/src/utils/c.md": "hello md\n",
            "ws/src/top.ts": "say hello\n",
            "ws/data.bin": b"hello\0binary\n",
            "ws/crlf.txt": b"hello\r\nthere",
            "other/o.ts": "hello other\n",
            "outside/secret.ts": "hello secret\n",
        })
        self.W = self.fx.p("ws")
        self.O = self.fx.p("other")

    def call(self, params, tool="grep", roots=("ws", "other"), target=None):
        ws = self.fx.workspace(list(roots), target)
        return tools.call(tool, {"roots": ws.roots_given, "target": ws.target}, params)

    def ok(self, params, **kw):
        result = self.call(params, **kw)
        self.assertEqual(result["outcome"], "ok", result)
        result["found"] = sorted(f"{m['path']}:{m['line']}" for m in result["matches"])
        return result

    def code(self, params, **kw):
        result = self.call(params, **kw)
        self.assertEqual(result["outcome"], "error", result)
        return result["error"]

    # SEARCH-5, SEARCH-2, OUT-1
    def test_file_searched_alone(self):
        r = self.ok({"pattern": "hello", "dir_path": "src/utils/a.ts"})
        self.assertEqual(r["kind"], "file")
        self.assertEqual(r["path"], f"{self.W}/src/utils/a.ts")
        self.assertEqual(r["parent"], f"{self.W}/src/utils")
        self.assertEqual(r["found"], [f"{self.W}/src/utils/a.ts:1", f"{self.W}/src/utils/a.ts:3"])
        self.assertEqual(r["notes"], [])
        texts = sorted(m["text"] for m in r["matches"])
        self.assertEqual(texts, ["hello again", "hello world"])

    def test_both_tools_and_alias(self):
        for tool in ("grep", "ripgrep"):
            for name in ("dir_path", "path"):
                with self.subTest(tool=tool, name=name):
                    r = self.ok({"pattern": "hello", name: self.fx.p("ws/src/utils/b.ts")}, tool=tool)
                    self.assertEqual(r["found"], [f"{self.W}/src/utils/b.ts:1"])

    # SEARCH-6
    def test_include_with_file_is_ignored_with_note(self):
        r = self.ok({"pattern": "hello", "dir_path": "src/utils/a.ts", "include": "*.md"})
        self.assertEqual(r["notes"], ["include_ignored"])
        self.assertEqual(len(r["found"]), 2)
        r = self.ok({"pattern": "hello", "dir_path": "src/utils/a.ts", "include": ""})
        self.assertEqual(r["notes"], [])

    def test_include_with_directory_filters(self):
        r = self.ok({"pattern": "hello", "dir_path": "src", "include": "*.{md,ts}"})
        self.assertEqual(r["notes"], [])
        self.assertEqual(r["found"], sorted([
            f"{self.W}/src/top.ts:1", f"{self.W}/src/utils/a.ts:1", f"{self.W}/src/utils/a.ts:3",
            f"{self.W}/src/utils/b.ts:1", f"{self.W}/src/utils/c.md:1"]))
        r = self.ok({"pattern": "hello", "dir_path": "src", "include": "?.md"})
        self.assertEqual(r["found"], [f"{self.W}/src/utils/c.md:1"])

    # SEARCH-3, OUT-4
    def test_all_workspaces(self):
        r = self.ok({"pattern": "hello", "include": "*.ts"})
        self.assertEqual(r["kind"], "all-workspaces")
        self.assertNotIn("path", r)
        self.assertIn(f"{self.O}/o.ts:1", r["found"])
        self.assertIn(f"{self.W}/src/top.ts:1", r["found"])
        self.assertFalse(any("outside" in f for f in r["found"]))

    def test_nested_roots_report_once(self):
        r = self.ok({"pattern": "hello b"}, roots=("ws", "ws/src"))
        self.assertEqual(r["found"], [f"{self.W}/src/utils/b.ts:1"])

    def test_aliasing_roots_report_once_under_the_first(self):
        self.fx.links({"alias": "ws"})
        for first, second in (("ws", "alias"), ("alias", "ws")):
            r = self.ok({"pattern": "hello b"}, roots=(first, second))
            self.assertEqual(r["found"], [f"{self.fx.p(first)}/src/utils/b.ts:1"])

    # ERR-8
    def test_unknown_keys_are_named(self):
        for params, key in (({"pattern": "a", "dir_pth": "src"}, "dir_pth"),
                            ({"pattern": "a", "directory": "src"}, "directory")):
            err = self.code(params)
            self.assertEqual(err["code"], "invalid_params")
            self.assertIn(key, err["message"])

    # SEARCH-8
    def test_binary(self):
        r = self.ok({"pattern": "hello", "dir_path": "data.bin"})
        self.assertEqual((r["kind"], r["matches"]), ("file", []))
        r = self.ok({"pattern": "binary"})
        self.assertEqual(r["found"], [])

    # SEARCH-10
    def test_lines(self):
        r = self.ok({"pattern": "there$", "dir_path": "crlf.txt"})
        self.assertEqual(r["found"], [f"{self.W}/crlf.txt:2"])
        r = self.ok({"pattern": "^$", "dir_path": "src/utils/b.ts"})
        self.assertEqual(r["found"], [])  # no phantom line after the last \n
        r = self.ok({"pattern": "l+o", "dir_path": "src/utils/a.ts"})
        self.assertEqual(len(r["matches"]), 2)  # each line once

    # SEARCH-7
    def test_regex_and_case(self):
        r = self.ok({"pattern": "HELLO", "dir_path": "src"})
        self.assertEqual(r["found"], [])
        r = self.ok({"pattern": "^hel{2}o (world|b)$", "dir_path": "src"})
        self.assertEqual(r["found"], [f"{self.W}/src/utils/a.ts:1", f"{self.W}/src/utils/b.ts:1"])

    # SEARCH-1, SEARCH-7, ERR-7, ERR-2
    def test_invalid_params(self):
        for params in (
            {},
            {"pattern": ""},
            {"pattern": 1},
            {"pattern": "("},
            {"pattern": "[z-a]"},
            {"pattern": "a", "dir_path": "src", "path": "src"},
            {"pattern": "a", "dir_path": "x\0y"},
            {"pattern": "a", "include": 5},
            {"pattern": "a", "dir_path": ["src"]},
            {"pattern": "(", "dir_path": "/etc"},
        ):
            with self.subTest(params=params):
                self.assertEqual(self.code(params)["code"], "invalid_params")

    def test_empty_alias_counts_as_absent(self):
        r = self.ok({"pattern": "hello b", "dir_path": "", "path": "src"})
        self.assertEqual(r["kind"], "directory")
        r = self.ok({"pattern": "hello b", "dir_path": "src", "path": ""})
        self.assertEqual(r["kind"], "directory")

    # SEC-7
    def test_links_below_not_followed(self):
        self.fx.links({"ws/src/out": "../../outside", "ws/src/outf": "../../outside/secret.ts",
                       "ws/src/inlink": "utils"})
        r = self.ok({"pattern": "hello", "dir_path": "src"})
        self.assertFalse(any("secret" in f or "/out" in f for f in r["found"]))
        self.assertFalse(any("inlink" in f for f in r["found"]))

    def test_directory_given_through_link(self):
        self.fx.links({"ws/ul": "src/utils"})
        r = self.ok({"pattern": "hello b", "dir_path": "ul"})
        self.assertEqual(r["found"], [f"{self.W}/ul/b.ts:1"])

    # SEC-5, SEARCH-2 errors
    def test_errors(self):
        self.fx.links({"ws/out": "../outside", "ws/outf": "../outside/secret.ts"}).fifo("ws/pipe")
        self.assertEqual(self.code({"pattern": "a", "dir_path": "out"})["code"], "outside_workspace")
        self.assertEqual(self.code({"pattern": "a", "dir_path": "outf"})["code"], "outside_workspace")
        self.assertEqual(self.code({"pattern": "a", "dir_path": "../outside/secret.ts"})["code"],
                         "outside_workspace")
        e = self.code({"pattern": "a", "dir_path": "pipe"})
        self.assertEqual(e["code"], "unsupported_file_type")
        self.assertIn(f"{self.W}/pipe", e["message"])
        e = self.code({"pattern": "a", "dir_path": "nope.ts"})
        self.assertEqual(e["code"], "not_found")
        self.assertIn(f"{self.W}/nope.ts", e["message"])

    def test_fifo_below_directory_is_skipped_not_opened(self):
        self.fx.fifo("ws/src/pipe")
        r = self.ok({"pattern": "hello", "dir_path": "src"})  # would hang if opened
        self.assertEqual(len(r["found"]), 5)

    # SEARCH-11
    def test_unreadable(self):
        self.fx.files({"ws/locked.ts": "hello\n", "ws/d/locked.ts": "hello\n", "ws/d/open.ts": "hello\n"})
        self.fx.dirs("ws/d/closed").files({"ws/d/closed/x.ts": "hello\n"})
        self.fx.mode("ws/locked.ts", 0o000).mode("ws/d/locked.ts", 0o000).mode("ws/d/closed", 0o000)
        ws = self.fx.workspace(["ws"])
        roots = {"roots": ws.roots, "target": ws.target}

        def probe():
            return (tools.call("grep", roots, {"pattern": "hello", "dir_path": "locked.ts"}),
                    tools.call("grep", roots, {"pattern": "hello", "dir_path": "d"}),
                    tools.call("grep", roots, {"pattern": "hello", "dir_path": "d/closed"}),
                    tools.call("grep", {"roots": [ws.roots[0] + "/d/closed", ws.roots[0] + "/d"],
                                        "target": ws.target}, {"pattern": "hello"}))

        file_result, dir_result, closed_result, all_result = unprivileged(probe)
        self.assertEqual(closed_result["error"]["code"], "permission_denied")
        self.assertIn(f"{self.W}/d/closed", closed_result["error"]["message"])
        self.assertEqual(all_result["outcome"], "ok", all_result)
        self.assertEqual([m["path"] for m in all_result["matches"]], [f"{self.W}/d/open.ts"])
        self.assertEqual(file_result["error"]["code"], "permission_denied")
        self.assertIn(f"{self.W}/locked.ts", file_result["error"]["message"])
        self.assertEqual(dir_result["outcome"], "ok")
        self.assertEqual([m["path"] for m in dir_result["matches"]], [f"{self.W}/d/open.ts"])


if __name__ == "__main__":
    unittest.main()
