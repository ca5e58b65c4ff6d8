"""SEARCH-9: the include glob, matched against base names."""

import fnmatch
import unittest

from toolpath_port.glob import matches


class GlobTest(unittest.TestCase):
    def check(self, glob, yes=(), no=()):
        for name in yes:
            with self.subTest(glob=glob, name=name):
                self.assertTrue(matches(glob, name))
        for name in no:
            with self.subTest(glob=glob, name=name):
                self.assertFalse(matches(glob, name))

    def test_star(self):
        self.check("*.ts", yes=["a.ts", ".ts", "x.y.ts"], no=["a.tsx", "a.TS", "ts"])
        self.check("*", yes=["", "anything", ".hidden"])
        self.check("a*b*c", yes=["abc", "aXbYc", "abbc"], no=["acb"])

    def test_question_mark(self):
        self.check("?.ts", yes=["a.ts", "\u00e9.ts"], no=[".ts", "ab.ts"])

    def test_bang_and_case(self):
        # A leading `!` is part of the name; matching is case-sensitive.
        self.check("!a.ts", yes=["!a.ts"], no=["a.ts", "b.ts"])
        self.check("!*.txt", yes=["!x.txt"], no=["a.ts", "x.txt"])
        self.check("*.ts", no=["A.TS"])

    def test_braces(self):
        self.check("*.{ts,md}", yes=["a.ts", "a.md"], no=["a.js", "a.{ts,md}"])
        self.check("{a,b}.txt", yes=["a.txt", "b.txt"], no=["ab.txt", "c.txt"])
        self.check("x{,y}", yes=["x", "xy"], no=["xz"])
        self.check("{*.ts,READ?E}", yes=["a.ts", "README"], no=["README.md"])
        self.check("{one}", yes=["one"], no=["{one}"])

    def test_everything_else_literal(self):
        # fnmatch would treat [] as a class; SEARCH-9 does not.
        self.assertTrue(fnmatch.fnmatchcase("a.ts", "[ab].ts"))
        self.check("[ab].ts", yes=["[ab].ts"], no=["a.ts"])
        self.check("[!a]", yes=["[!a]"], no=["b"])
        self.check("a\\*", yes=["a\\x", "a\\"], no=["a*"])
        self.check("a+b(c)|d^$.", yes=["a+b(c)|d^$."], no=["aab(c)|d^$."])
        self.check("a,b", yes=["a,b"], no=["a"])
        self.check("{unclosed", yes=["{unclosed"], no=["unclosed"])
        self.check("stray}", yes=["stray}"])
        self.check("{a,{b,c}}", yes=["{a,b}", "{a,c}"], no=["a", "b"])

    def test_newline_in_name(self):
        self.check("a*", yes=["a\nb"])


if __name__ == "__main__":
    unittest.main()
