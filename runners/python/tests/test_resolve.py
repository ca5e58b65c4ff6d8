"""RES and SEC through the shared resolver, and the adapter-level ``resolve`` tool."""

import os
import unittest

from toolpath_port import tools
from toolpath_port.errors import ToolError
from toolpath_port.resolve import Target, resolve_target

from .fixture import FixtureTestCase, is_root, unprivileged


class ResolveTest(FixtureTestCase):
    def setUp(self):
        super().setUp()
        fx = self.fx
        fx.dirs("ws/src/utils", "ws/empty", "other", "outside/dir", "ws-evil")
        fx.files({
            "ws/src/utils/a.ts": "hello\n",
            "outside/secret.txt": "secret\n",
            "ws-evil/x": "x\n",
        })
        self.ws = fx.workspace(["ws", "other"])
        self.W = fx.p("ws")

    def resolve(self, given):
        return resolve_target(self.ws, given)

    def assertCode(self, code, given, *must_contain):
        with self.assertRaises(ToolError) as ctx:
            self.resolve(given)
        self.assertEqual(ctx.exception.code, code, ctx.exception.message)
        for text in must_contain:
            self.assertIn(text, ctx.exception.message)
        return ctx.exception

    # RES-1
    def test_no_path_is_all_workspaces(self):
        self.assertEqual(self.resolve(None), Target("all-workspaces"))

    # RES-2, RES-4, RES-7, RES-11
    def test_relative_file(self):
        t = self.resolve("src/utils/a.ts")
        self.assertEqual(t, Target("file", f"{self.W}/src/utils/a.ts", f"{self.W}/src/utils"))

    def test_relative_directory_variants(self):
        for given in ("src//utils", "./src/utils/", "src/./utils", "src/utils/.", "src/x/../utils"):
            with self.subTest(given=given):
                self.assertEqual(self.resolve(given), Target("directory", f"{self.W}/src/utils"))

    def test_target_is_not_first_root(self):
        ws = self.fx.workspace(["other", "ws"], target="ws/src")
        self.assertEqual(resolve_target(ws, "utils").path, f"{self.W}/src/utils")

    def test_dot_is_target(self):
        self.assertEqual(self.resolve("./"), Target("directory", self.W))

    def test_absolute_in_second_root(self):
        self.assertEqual(self.resolve(self.fx.p("other")), Target("directory", self.fx.p("other")))

    def test_link_inside_reports_lexical_path(self):
        self.fx.links({"ws/lnk": "src/utils"})
        self.assertEqual(self.resolve("lnk/a.ts"), Target("file", f"{self.W}/lnk/a.ts", f"{self.W}/lnk"))

    # RES-5, RES-6
    def test_odd_names(self):
        self.fx.files({"ws/ ": "", "ws/a\\b": "", "ws/..foo": ""})
        for name in (" ", "a\\b", "..foo"):
            with self.subTest(name=name):
                self.assertEqual(self.resolve(name).path, f"{self.W}/{name}")
        self.assertCode("not_found", "  ", f"{self.W}/  ")
        self.assertCode("not_found", "SRC", f"{self.W}/SRC")

    # RES-8
    def test_not_found_variants(self):
        self.fx.links({"ws/dangling": "nothing", "ws/l1": "l2", "ws/l2": "l1"})
        for given in ("missing", "missing/deeper", "dangling", "src/utils/a.ts/x", "l1", "l1/x"):
            with self.subTest(given=given):
                self.assertCode("not_found", given, f"{self.W}/{given}")

    # RES-10
    def test_unsupported_types(self):
        self.fx.fifo("ws/pipe").socket("ws/sock")
        self.assertCode("unsupported_file_type", "pipe", f"{self.W}/pipe")
        self.assertCode("unsupported_file_type", "sock", f"{self.W}/sock")

    @unittest.skipUnless(is_root(), "creating a device node needs root")
    def test_device(self):
        self.fx.device("ws/null")
        self.assertCode("unsupported_file_type", "null", f"{self.W}/null")

    # RES-9, ERR-5
    def test_permission_denied(self):
        self.fx.dirs("ws/locked/inner").mode("ws/locked", 0o000)
        ws = self.ws

        def probe():
            out = {}
            for given in ("locked/inner", "locked/missing"):
                try:
                    out[given] = resolve_target(ws, given)
                except ToolError as err:
                    out[given] = err
            return out

        result = unprivileged(probe)
        for given in ("locked/inner", "locked/missing"):
            self.assertIsInstance(result[given], ToolError)
            self.assertEqual(result[given].code, "permission_denied")
            self.assertIn(f"{self.W}/{given}", result[given].message)

    # SEC-2, SEC-4, SEC-5, SEC-6, SEC-9, ERR-4
    def test_outside(self):
        fx = self.fx
        fx.links({
            "ws/out": "../outside",
            "ws/outfile": "../outside/secret.txt",
            "ws/dang-out": "../outside/nothing",
            "ws/abs-out": "/",
        })
        roots = [fx.p("ws"), fx.p("other")]
        for given in ("..", "../outside", "../outside/missing", "src/../../ws-evil", "out", "out/dir",
                      "outfile", "dang-out", "abs-out", "/", fx.root, "/etc", fx.p("ws-evil/x"),
                      "../ws-evil"):
            with self.subTest(given=given):
                err = self.assertCode("outside_workspace", given, *roots)
                self.assertIn(self._lexical(given), err.message)

    def test_outside_before_existence_and_type(self):
        # SEC-3: a FIFO or missing path outside still says only "outside".
        self.fx.fifo("outside/pipe")
        self.assertCode("outside_workspace", "../outside/pipe")
        self.assertCode("outside_workspace", "../outside/nothing/deeper")

    def test_link_from_outside_into_workspace_is_inside(self):
        self.fx.links({"outside/in": "../ws/src"})
        t = self.resolve(self.fx.p("outside/in/utils"))
        self.assertEqual(t, Target("directory", self.fx.p("outside/in/utils")))

    def test_nested_roots(self):
        ws = self.fx.workspace(["ws/src", "ws"])
        self.assertEqual(resolve_target(ws, "utils").kind, "directory")
        self.assertEqual(resolve_target(ws, "..").path, self.W)

    def test_root_given_through_a_link(self):
        self.fx.links({"wslink": "ws"})
        ws = self.fx.workspace(["wslink"])
        self.assertEqual(resolve_target(ws, self.fx.p("ws/src")).kind, "directory")
        with self.assertRaises(ToolError):
            resolve_target(ws, self.fx.p("other"))

    def _lexical(self, given):
        from toolpath_port.resolve import lexical
        return lexical(self.ws.target, given)


class ResolveToolTest(FixtureTestCase):
    def call(self, params):
        ws = self.fx.workspace(["ws"])
        return tools.call("resolve", {"roots": ws.roots, "target": ws.target}, params)

    def test_file_result_fields(self):
        self.fx.files({"ws/a.ts": "x"})
        W = self.fx.p("ws")
        self.assertEqual(self.call({"path": "a.ts"}),
                         {"outcome": "ok", "kind": "file", "path": f"{W}/a.ts", "parent": W})

    def test_empty_and_absent(self):
        for params in ({}, {"path": ""}, {"path": None}):
            with self.subTest(params=params):
                self.assertEqual(self.call(params), {"outcome": "ok", "kind": "all-workspaces"})

    def test_invalid_params(self):
        for params in ({"path": "a\0b"}, {"path": 3}, {"path": ["a"]}, {"path": True}):
            with self.subTest(params=params):
                self.assertEqual(self.call(params)["error"]["code"], "invalid_params")

    def test_nul_checked_before_file_system(self):
        # ERR-2: even outside the workspace, NUL is invalid_params.
        self.assertEqual(self.call({"path": "/etc/\0"})["error"]["code"], "invalid_params")


if __name__ == "__main__":
    unittest.main()
