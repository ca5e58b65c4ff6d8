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


class CheckedLexicalTest(unittest.TestCase):
    """RES-12 and RES-13: refusals read from the text alone."""

    def test_a_leading_tilde_is_refused_and_only_a_leading_one(self):
        from toolpath_port.errors import ToolError
        from toolpath_port.resolve import checked_lexical

        for given in ("~", "~/src", "~root/x"):
            with self.subTest(given=given):
                with self.assertRaises(ToolError) as caught:
                    checked_lexical("/w/ws", given)
                self.assertIn(given, str(caught.exception))
        self.assertEqual(checked_lexical("/w/ws", "./~/src"), "/w/ws/~/src")
        self.assertEqual(checked_lexical("/w/ws", "~/x", tilde=False), "/w/ws/~/x")

    def test_a_file_uri_is_refused_and_only_at_the_start(self):
        """RES-16: a `file:` URI (any letter case, then `/`) is refused with
        the text as given; `file:` further in or without `/` is a name."""
        from toolpath_port.errors import ToolError
        from toolpath_port.resolve import checked_lexical

        for given in ("file:///w/ws/a%20b.txt", "FILE://localhost/w/ws", "File:/w/ws"):
            with self.subTest(given=given):
                with self.assertRaises(ToolError) as caught:
                    checked_lexical("/w/ws", given)
                self.assertIn(given, str(caught.exception))
        for given in ("./file:/x", "file:", "file:x", "a/file:/x"):
            with self.subTest(given=given):
                self.assertTrue(checked_lexical("/w/ws", given).startswith("/w/ws/"))

    def test_names_and_paths_past_the_limits_are_refused(self):
        from toolpath_port.errors import ToolError
        from toolpath_port.resolve import checked_lexical

        self.assertEqual(checked_lexical("/w", "n" * 255), "/w/" + "n" * 255)
        with self.assertRaises(ToolError):
            checked_lexical("/w", "n" * 256)
        with self.assertRaises(ToolError):
            checked_lexical("/w", "x/" * 2100)
        # The resolved path is measured, not the text.
        self.assertEqual(checked_lexical("/w", "x/../" * 900 + "a"), "/w/a")
