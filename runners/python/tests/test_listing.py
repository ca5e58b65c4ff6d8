"""GLOB and LS: the path pattern, and both tools over real fixtures."""

import unittest

from toolpath_port import tools
from toolpath_port.errors import ToolError
from toolpath_port.path_pattern import compile_pattern, expand_braces

from .fixture import FixtureTestCase


class PathPatternTest(unittest.TestCase):
    def check(self, pattern, yes=(), no=()):
        matches = compile_pattern(pattern)
        for path in yes:
            with self.subTest(pattern=pattern, path=path):
                self.assertTrue(matches(path))
        for path in no:
            with self.subTest(pattern=pattern, path=path):
                self.assertFalse(matches(path))

    def test_stars_stay_in_a_segment(self):
        self.check("*.ts", yes=["a.ts", ".a.ts"], no=["src/a.ts", "a.TS"])
        self.check("?.ts", yes=["a.ts"], no=["ab.ts", "/.ts"])

    def test_double_star(self):
        self.check("**/*.ts", yes=["a.ts", "x/y/a.ts"], no=["a.md"])
        self.check("src/**", yes=["src/a", "src/x/a"], no=["src", "lib/a"])
        self.check("src/**/a.ts", yes=["src/a.ts", "src/p/q/a.ts"], no=["src/p/b.ts"])

    def test_classes_and_braces(self):
        self.check("[a-b_].ts", yes=["a.ts", "_.ts"], no=["c.ts", "ab.ts"])
        self.check("[!a-b].ts", yes=["c.ts"], no=["a.ts", "/.ts"])
        self.check("{src,lib}/*.ts", yes=["src/a.ts", "lib/a.ts"], no=["doc/a.ts"])
        self.check("a{b.ts", yes=["a{b.ts"], no=["ab.ts"])
        self.assertEqual(expand_braces("{a,b}{1,2}"), ["a1", "a2", "b1", "b2"])

    def test_climbing_out_is_invalid(self):
        for bad in ["../x", "/etc/*", "a/../b", "{a,..}/x"]:
            with self.subTest(bad=bad), self.assertRaises(ToolError) as caught:
                compile_pattern(bad)
            self.assertEqual(caught.exception.code, "invalid_params")
        compile_pattern("..foo/*")

    def test_dot_segments_are_invalid(self):
        # GLOB-6: no path below a directory has a `.` segment.
        for bad in ["./*.ts", "src/./a.ts", "src/.", "{.,src}/a.ts"]:
            with self.subTest(bad=bad), self.assertRaises(ToolError) as caught:
                compile_pattern(bad)
            self.assertEqual(caught.exception.code, "invalid_params")
        for good in [".env", "src/.hidden/*.ts", "{.a,b}/c", "a./b"]:
            compile_pattern(good)

    def test_empty_segments_are_invalid(self):
        # GLOB-11: no path below a directory has an empty segment.
        for bad in ["src//*.ts", "src/", "**//*.ts", "src/{lib,}/*.ts", "a{/,b}/c"]:
            with self.subTest(bad=bad), self.assertRaises(ToolError) as caught:
                compile_pattern(bad)
            self.assertEqual(caught.exception.code, "invalid_params")
        for good in ["src/*.ts", "*.{ts,}", "src/{a/b,c}/*.ts", "**"]:
            compile_pattern(good)

    def test_bang_non_ascii_and_single_alternative(self):
        # GLOB-5: `!` negates only inside a class; `?` is one character.
        self.check("!*.txt", yes=["!notes.txt"], no=["a.ts", "notes.txt"])
        self.check("?.ts", yes=["\u00e9.ts"], no=[".ts"])
        self.check("{a}.ts", yes=["a.ts"], no=["{a}.ts"])
        self.check("[a-c].ts", yes=["a.ts", "c.ts"], no=["-.ts", "d.ts"])


class ToolsTest(FixtureTestCase):
    def setUp(self):
        super().setUp()
        self.fx.files({"ws/src/a.ts": "x\n", "ws/src/deep/b.ts": "x\n", "outside/s.ts": "x\n"})
        self.fx.links({"ws/src/out": "../../outside", "ws/src/s.ts": "../../outside/s.ts"})
        self.W = self.fx.p("ws")

    def call(self, tool, params):
        ws = self.fx.workspace(["ws"], None)
        return tools.call(tool, {"roots": ws.roots_given, "target": ws.target}, params)

    def test_glob_directory_file_and_links(self):
        r = self.call("glob", {"pattern": "**/*.ts", "dir_path": "src"})
        self.assertEqual(r["files"], [f"{self.W}/src/a.ts", f"{self.W}/src/deep/b.ts"])
        r = self.call("glob", {"pattern": "*.ts", "path": "src/a.ts"})
        self.assertEqual((r["kind"], r["files"]), ("file", [f"{self.W}/src/a.ts"]))
        r = self.call("glob", {"pattern": "src/*.ts", "path": "src/a.ts"})
        self.assertEqual(r["files"], [])

    def test_ls_types_and_file(self):
        r = self.call("ls", {"dir_path": "src"})
        self.assertEqual(
            r["entries"],
            [
                {"path": f"{self.W}/src/a.ts", "type": "file"},
                {"path": f"{self.W}/src/deep", "type": "directory"},
                {"path": f"{self.W}/src/out", "type": "symlink"},
                {"path": f"{self.W}/src/s.ts", "type": "symlink"},
            ],
        )
        r = self.call("ls", {"path": "src/a.ts"})
        self.assertEqual(r["entries"], [{"path": f"{self.W}/src/a.ts", "type": "file"}])
        self.assertEqual(self.call("ls", {"path": "src/out"})["error"]["code"], "outside_workspace")
