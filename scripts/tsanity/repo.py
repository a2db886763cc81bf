"""The repository's root, for every module of the package (a leaf: it
imports nothing of the package, so that tsanity.stable, which tsanity.kernel
reads and tsanity.config reads in turn, can name it without a circle)."""
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
