"""The benchmark tools live in scripts/bench/ (not a package): put it on the path for these tests."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "bench"))
