"""RES-2, RES-3, RES-6: lexical paths, computed from text alone."""

import unittest

from toolpath_port.resolve import lexical, normalise, parent


class NormaliseTest(unittest.TestCase):
    def test_examples_from_res3(self):
        for given in ("src//x", "./src/x/", "src/./x", "src/x/."):
            with self.subTest(given=given):
                self.assertEqual(lexical("/w/ws", given), "/w/ws/src/x")

    def test_dot_slash_is_target(self):
        self.assertEqual(lexical("/w/ws", "./"), "/w/ws")
        self.assertEqual(lexical("/w/ws", "."), "/w/ws")

    def test_leading_double_slash_collapses(self):
        # os.path.normpath keeps a leading "//" (POSIX allows it); RES-3 does not.
        self.assertEqual(normalise("//w//ws"), "/w/ws")
        self.assertEqual(lexical("/w/ws", "//etc"), "/etc")
        self.assertEqual(normalise("///"), "/")

    def test_dotdot(self):
        self.assertEqual(lexical("/w/ws", "../x"), "/w/x")
        self.assertEqual(lexical("/w/ws", "a/../../.."), "/")
        self.assertEqual(normalise("/../../x/.."), "/")
        self.assertEqual(lexical("/w/ws", "a/b/../c"), "/w/ws/a/c")

    def test_trailing_slash(self):
        self.assertEqual(lexical("/w/ws", "src/"), "/w/ws/src")
        self.assertEqual(normalise("/"), "/")

    def test_absolute_used_as_given(self):
        self.assertEqual(lexical("/w/ws", "/w/other/./f"), "/w/other/f")

    def test_ordinary_names(self):
        # RES-6: backslash and "..foo" are ordinary; RES-5: whitespace kept.
        self.assertEqual(lexical("/w/ws", "a\\b"), "/w/ws/a\\b")
        self.assertEqual(lexical("/w/ws", "..foo"), "/w/ws/..foo")
        self.assertEqual(lexical("/w/ws", "...")  , "/w/ws/...")
        self.assertEqual(lexical("/w/ws", " "), "/w/ws/ ")
        self.assertEqual(lexical("/w/ws", "C:\\x"), "/w/ws/C:\\x")

    def test_target_is_normalised_too(self):
        self.assertEqual(lexical("/w/ws/", "x"), "/w/ws/x")

    def test_parent(self):
        self.assertEqual(parent("/w/ws/a.ts"), "/w/ws")
        self.assertEqual(parent("/a"), "/")
        self.assertEqual(parent("/"), "/")


if __name__ == "__main__":
    unittest.main()
