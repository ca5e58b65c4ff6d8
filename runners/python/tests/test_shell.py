"""SHELL, COMPAT-2, SEC-8, OUT-2: the shell tool's working directory."""

import contextlib
import io
import unittest

from toolpath_port import tools

from .fixture import FixtureTestCase, unprivileged


class ShellTest(FixtureTestCase):
    def setUp(self):
        super().setUp()
        fx = self.fx
        fx.dirs("w/ws/src/utils", "w/ws/packages", "w/pkgs/packages", "w/a/tools", "w/b/tools",
                "w/outside")
        fx.files({"w/ws/file.txt": "x", "w/ws/src/f.ts": "x"})
        self.W = fx.p("w/ws")

    def call(self, params, roots=("w/ws",), target=None):
        ws = self.fx.workspace(list(roots), target)
        return tools.call("shell", {"roots": ws.roots_given, "target": ws.target},
                          {"command": "pwd", **params})

    def cwd(self, params, **kw):
        r = self.call(params, **kw)
        self.assertEqual(r["outcome"], "ok", r)
        self.assertEqual(r["output"], r["cwd"] + "\n")  # ran exactly there (SHELL-6)
        return r["cwd"]

    def code(self, params, **kw):
        r = self.call(params, **kw)
        self.assertEqual(r["outcome"], "error", r)
        return r["error"]

    # SHELL-2
    def test_default_is_target(self):
        self.assertEqual(self.cwd({}), self.W)
        self.assertEqual(self.cwd({"dir_path": ""}), self.W)
        self.assertEqual(self.cwd({}, target="w/ws/src"), self.fx.p("w/ws/src"))

    # SHELL-3, SHELL-4, SHELL-1 alias
    def test_relative_and_absolute(self):
        for params in ({"dir_path": "src/utils"}, {"directory": "src/utils/"}, {"dir_path": "./src//utils"},
                       {"dir_path": self.fx.p("w/ws/src/utils")}):
            with self.subTest(params=params):
                self.assertEqual(self.cwd(params), f"{self.W}/src/utils")
        self.assertEqual(self.cwd({"dir_path": "."}), self.W)

    def test_link_cwd_is_lexical(self):
        self.fx.links({"w/ws/ul": "src/utils"})
        self.assertEqual(self.cwd({"dir_path": "ul"}), f"{self.W}/ul")
        self.assertEqual(self.cwd({"dir_path": "ul/."}), f"{self.W}/ul")

    # SHELL-5, COMPAT-2
    def test_root_name(self):
        roots = ("w/ws", "w/pkgs")
        self.assertEqual(self.cwd({"dir_path": "pkgs"}, roots=roots), self.fx.p("w/pkgs"))
        # A directory of that name below the target wins over a root name.
        self.assertEqual(self.cwd({"dir_path": "packages"}, roots=("w/ws", "w/pkgs/packages")),
                         f"{self.W}/packages")

    def test_root_name_not_for_multi_segment(self):
        for given in ("x/pkgs", "pkgs/", "./pkgs"):
            with self.subTest(given=given):
                e = self.code({"dir_path": given}, roots=("w/ws", "w/pkgs"))
                self.assertEqual(e["code"], "not_found")

    def test_root_name_wins_over_file_of_that_name(self):
        self.fx.files({"w/ws/pkgs": "file"})
        self.assertEqual(self.cwd({"dir_path": "pkgs"}, roots=("w/ws", "w/pkgs")), self.fx.p("w/pkgs"))

    def test_ambiguous(self):
        e = self.code({"dir_path": "tools"}, roots=("w/ws", "w/a/tools", "w/b/tools"))
        self.assertEqual(e["code"], "ambiguous_name")
        self.assertIn(self.fx.p("w/a/tools"), e["message"])
        self.assertIn(self.fx.p("w/b/tools"), e["message"])

    def test_single_segment_errors_fall_through(self):
        self.fx.links({"w/ws/out": "../outside"})
        self.assertEqual(self.code({"dir_path": "missing"})["code"], "not_found")
        self.assertEqual(self.code({"dir_path": "file.txt"})["code"], "not_a_directory")
        self.assertEqual(self.code({"dir_path": "out"})["code"], "outside_workspace")
        self.assertEqual(self.code({"dir_path": ".."})["code"], "outside_workspace")

    # SHELL-3, SHELL-7, SEC-4, SEC-9, ERR-3, ERR-4
    def test_errors(self):
        self.fx.fifo("w/ws/pipe")
        e = self.code({"dir_path": "src/f.ts"})
        self.assertEqual(e["code"], "not_a_directory")
        self.assertIn(f"{self.W}/src/f.ts", e["message"])
        e = self.code({"dir_path": "pipe"})
        self.assertEqual(e["code"], "not_a_directory")
        e = self.code({"dir_path": "src/nope"})
        self.assertEqual(e["code"], "not_found")
        self.assertIn(f"{self.W}/src/nope", e["message"])
        for given in ("../outside", "/", self.fx.p("w"), "../outside/nope", self.fx.p("w/ws-x")):
            with self.subTest(given=given):
                e = self.code({"dir_path": given})
                self.assertEqual(e["code"], "outside_workspace")
                self.assertIn(self.W, e["message"])

    # SHELL-1
    def test_invalid_params(self):
        for params in ({"dir_path": "src", "directory": "src"}, {"command": ""}, {"command": 3},
                       {"command": None}, {"dir_path": "a\0"}, {"directory": 1}):
            with self.subTest(params=params):
                self.assertEqual(self.code(params)["code"], "invalid_params")

    def test_empty_alias_counts_as_absent(self):
        self.assertEqual(self.cwd({"dir_path": "", "directory": "src"}), f"{self.W}/src")

    def test_command_runs_with_sh(self):
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            r = self.call({"command": "echo $((1+2)); echo err >&2"})
        self.assertEqual(r["output"], "3\n")
        self.assertEqual(stderr.getvalue(), "err\n")  # stderr never reaches stdout

    def test_unenterable_directory(self):
        self.fx.dirs("w/ws/locked/inner").mode("w/ws/locked", 0o000)
        ws = self.fx.workspace(["w/ws"])
        roots = {"roots": ws.roots, "target": ws.target}
        result = unprivileged(lambda: tools.call("shell", roots, {"command": "pwd", "dir_path": "locked/inner"}))
        self.assertEqual(result["error"]["code"], "permission_denied")


if __name__ == "__main__":
    unittest.main()
