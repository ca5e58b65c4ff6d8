"""SEC-1, SEC-2: real paths and whole-component containment, on real files."""

import os
import unittest

from toolpath_port.resolve import LinkLoop, Workspace, is_inside, real_path

from .fixture import FixtureTestCase


class RealPathTest(FixtureTestCase):
    def test_plain_path(self):
        self.fx.dirs("ws/src")
        self.assertEqual(real_path(self.fx.p("ws/src")), self.fx.p("ws/src"))

    def test_agrees_with_os_realpath_on_existing_paths(self):
        self.fx.dirs("ws/a/b", "other").links({"ws/l1": "a", "ws/a/l2": "../../other", "ws/abs": self.fx.p("ws/a/b")})
        for rel in ("ws/l1/b", "ws/a/l2", "ws/l1/l2", "ws/abs"):
            with self.subTest(rel=rel):
                self.assertEqual(real_path(self.fx.p(rel)), os.path.realpath(self.fx.p(rel)))

    def test_real_path_of_the_lexical_path(self):
        # ".." is removed lexically first (RES-3): ws/l1/l2/.. is ws/l1,
        # whose real path is ws/a (the OS would say the fixture directory).
        self.fx.dirs("ws/a", "other").links({"ws/l1": "a", "ws/a/l2": "../../other"})
        self.assertEqual(real_path(self.fx.p("ws/l1/l2/..")), self.fx.p("ws/a"))

    def test_missing_components_appended(self):
        self.fx.dirs("ws").links({"ws/l": "."})
        self.assertEqual(real_path(self.fx.p("ws/l/missing/x/y")), self.fx.p("ws/missing/x/y"))

    def test_dangling_link_is_followed(self):
        self.fx.dirs("ws", "outside").links({"ws/d": "../outside/nothing/deeper", "ws/e": "/nonexistent-toolpath/x"})
        self.assertEqual(real_path(self.fx.p("ws/d")), self.fx.p("outside/nothing/deeper"))
        self.assertEqual(real_path(self.fx.p("ws/d/more")), self.fx.p("outside/nothing/deeper/more"))
        self.assertEqual(real_path(self.fx.p("ws/e")), "/nonexistent-toolpath/x")

    def test_dangling_link_with_dotdot_after_missing(self):
        # The missing part and the rest are appended and normalised lexically.
        self.fx.dirs("ws").links({"ws/d": "gone/../../escape"})
        self.assertEqual(real_path(self.fx.p("ws/d")), self.fx.p("escape"))

    def test_through_a_regular_file(self):
        self.fx.files({"ws/a.ts": "x"})
        self.assertEqual(real_path(self.fx.p("ws/a.ts/x")), self.fx.p("ws/a.ts/x"))

    def test_loop_gives_the_links_met(self):
        self.fx.dirs("ws", "real").links({"ws/alias": "../real", "real/l1": "l2", "real/l2": "l1", "ws/self": "self"})
        both = LinkLoop([self.fx.p("real/l1"), self.fx.p("real/l2"), self.fx.p("ws/alias")])
        self.assertEqual(real_path(self.fx.p("ws/alias/l1")), both)
        self.assertEqual(real_path(self.fx.p("ws/alias/l1/x/y")), both)
        self.assertEqual(real_path(self.fx.p("ws/self")), LinkLoop([self.fx.p("ws/self")]))

    def test_loop_through_link_to_outside_is_outside(self):
        self.fx.dirs("ws", "out").links({"ws/o": "../out/l1", "out/l1": "l2", "out/l2": "l1", "ws/self": "self"})
        self.assertEqual(real_path(self.fx.p("ws/o")), LinkLoop([self.fx.p(p) for p in ("out/l1", "out/l2", "ws/o")]))
        workspace = Workspace([self.fx.p("ws")], self.fx.p("ws"))
        self.assertFalse(workspace.contains(self.fx.p("ws/o")))
        self.assertTrue(workspace.contains(self.fx.p("ws/self")))

    def test_root(self):
        self.assertEqual(real_path("/"), "/")


class ContainmentTest(unittest.TestCase):
    def test_whole_components(self):
        self.assertTrue(is_inside("/w/ws", "/w/ws"))
        self.assertTrue(is_inside("/w/ws/x", "/w/ws"))
        self.assertFalse(is_inside("/w/ws-evil", "/w/ws"))
        self.assertFalse(is_inside("/w", "/w/ws"))
        self.assertTrue(is_inside("/anything", "/"))


if __name__ == "__main__":
    unittest.main()
