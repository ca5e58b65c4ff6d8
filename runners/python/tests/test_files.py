"""FILE: read_file, write_file and edit over real fixtures."""

import os

from toolpath_port import tools
from toolpath_port.files import occurrences, text_of

from .fixture import FixtureTestCase, unprivileged


class FileToolsTest(FixtureTestCase):
    def setUp(self):
        super().setUp()
        self.fx.files({"ws/a.txt": "hello\n", "ws/src/b.txt": "one\r\ntwo", "outside/secret.txt": "s\n"})
        self.fx.links({"ws/link.txt": "a.txt", "ws/out": "../outside", "ws/dangling": "../outside/made.txt"})
        self.ws = self.fx.workspace()
        self.wsd = {"roots": self.ws.roots, "target": self.ws.target}

    def call(self, tool, **params):
        return tools.call(tool, self.wsd, params)

    def code(self, tool, **params):
        result = self.call(tool, **params)
        self.assertEqual(result["outcome"], "error", result)
        return result["error"]["code"]

    def test_a_relative_path_is_refused_with_the_absolute_path_it_meant(self):
        for tool, extra in (("read_file", {}), ("write_file", {"content": "x"}),
                            ("edit", {"old_string": "hello", "new_string": "x"})):
            with self.subTest(tool=tool):
                result = self.call(tool, file_path="src/../a.txt", **extra)
                self.assertEqual(result["error"]["code"], "invalid_params")
                self.assertIn("absolute", result["error"]["message"])
                self.assertIn(self.fx.p("ws/a.txt"), result["error"]["message"])
        with open(self.fx.p("ws/a.txt")) as f:
            self.assertEqual(f.read(), "hello\n")

    def test_a_file_uri_is_refused_as_a_uri_and_changes_nothing(self):
        uri = "file://" + self.fx.p("ws/a.txt")
        for tool, extra in (("read_file", {}), ("write_file", {"content": "x"}),
                            ("edit", {"old_string": "hello", "new_string": "x"})):
            with self.subTest(tool=tool):
                result = self.call(tool, file_path=uri, **extra)
                self.assertEqual(result["error"]["code"], "invalid_params")
                self.assertIn(uri, result["error"]["message"])
                self.assertIn("URI", result["error"]["message"])
        with open(self.fx.p("ws/a.txt")) as f:
            self.assertEqual(f.read(), "hello\n")

    def test_read_gives_text_exactly_or_a_binary_note(self):
        result = self.call("read_file", file_path=self.fx.p("ws/src//b.txt"))
        self.assertEqual((result["path"], result["content"], result["notes"]),
                         (self.fx.p("ws/src/b.txt"), "one\r\ntwo", []))
        self.assertIn(self.fx.p("ws/src/b.txt"), result["model_text"])
        self.fx.files({"ws/nul.bin": b"a\0b", "ws/latin.txt": b"caf\xe9"})
        for name in ("nul.bin", "latin.txt"):
            result = self.call("read_file", absolute_path=self.fx.p("ws/" + name))
            self.assertEqual(result["notes"], ["binary"])
            self.assertNotIn("content", result)
        self.assertEqual(self.code("read_file", file_path=self.fx.p("ws/src")), "unsupported_file_type")
        self.assertEqual(self.code("read_file", file_path=self.fx.p("ws/missing")), "not_found")

    def test_writes_create_directories_go_through_links_and_never_out(self):
        result = self.call("write_file", file_path=self.fx.p("ws/new/deep/c.txt"), content="c")
        self.assertEqual(result["outcome"], "ok", result)
        with open(self.fx.p("ws/new/deep/c.txt")) as f:
            self.assertEqual(f.read(), "c")
        self.call("write_file", file_path=self.fx.p("ws/link.txt"), content="via link")
        self.assertTrue(os.path.islink(self.fx.p("ws/link.txt")))
        with open(self.fx.p("ws/a.txt")) as f:
            self.assertEqual(f.read(), "via link")
        for path in ("ws/dangling", "ws/out/new.txt", "ws/out/newdir/x.txt"):
            with self.subTest(path=path):
                self.assertEqual(self.code("write_file", file_path=self.fx.p(path), content="x"),
                                 "outside_workspace")
        self.assertEqual(sorted(os.listdir(self.fx.p("outside"))), ["secret.txt"])

    def test_a_fifo_is_never_opened(self):
        self.fx.fifo("ws/pipe")
        for tool, extra in (("read_file", {}), ("write_file", {"content": "x"}),
                            ("edit", {"old_string": "a", "new_string": "b"})):
            with self.subTest(tool=tool):
                self.assertEqual(self.code(tool, file_path=self.fx.p("ws/pipe"), **extra), "unsupported_file_type")

    def test_edit_replaces_exactly_one_occurrence_and_keeps_every_other_byte(self):
        self.assertEqual(occurrences(b"aaa", b"aa"), 2)
        self.assertEqual(self.code("edit", file_path=self.fx.p("ws/a.txt"), old_string="", new_string="x"),
                         "invalid_params")
        self.fx.files({"ws/twice.txt": "x x\r\n"})
        self.assertEqual(self.code("edit", file_path=self.fx.p("ws/twice.txt"), old_string="x", new_string="y"),
                         "invalid_params")
        result = self.call("edit", file_path=self.fx.p("ws/src/b.txt"), old_string="two", new_string="2")
        self.assertEqual(result["outcome"], "ok", result)
        with open(self.fx.p("ws/src/b.txt"), "rb") as f:
            self.assertEqual(f.read(), b"one\r\n2")
        self.assertEqual(self.code("edit", file_path=self.fx.p("ws/dangling"), old_string="a", new_string="b"),
                         "outside_workspace")
        self.assertEqual(self.code("edit", file_path=self.fx.p("ws/none.txt"), old_string="a", new_string="b"),
                         "not_found")
        self.assertFalse(os.path.exists(self.fx.p("ws/none.txt")))

    def test_a_file_that_cannot_be_written_is_permission_denied_and_kept(self):
        self.fx.files({"ws/ro.txt": "keep\n"}).mode("ws/ro.txt", 0o444)
        ws = self.wsd
        path = self.fx.p("ws/ro.txt")
        codes = unprivileged(lambda: [
            tools.call("write_file", ws, {"file_path": path, "content": "x"})["error"]["code"],
            tools.call("edit", ws, {"file_path": path, "old_string": "keep", "new_string": "x"})["error"]["code"],
        ])
        self.assertEqual(codes, ["permission_denied", "permission_denied"])
        with open(path) as f:
            self.assertEqual(f.read(), "keep\n")

    def test_text_of(self):
        self.assertEqual(text_of(b"\xc3\xa9"), "\u00e9")
        self.assertIsNone(text_of(b"\xe9"))
        self.assertIsNone(text_of(b"x\0"))
