"""Where the tests' files are, wherever a test module sits in the tree."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
DATA = TESTS / "data"  # known-answer files, one folder per game or topic
ROOT = TESTS.parent  # the repository: engine/, courier/, templates/, config/
