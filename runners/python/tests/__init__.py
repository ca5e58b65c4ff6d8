"""Unit tests of the Python port; run from the repository root with
python3 -m unittest discover -s runners/python/tests -t runners/python
"""
