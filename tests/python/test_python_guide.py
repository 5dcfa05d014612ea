"""docs/guide/python.md is a notebook that works: its ```python blocks, concatenated in order, run
with this interpreter in an empty folder and must exit 0 (the guide's own asserts check its
claims). A guide that lost its code blocks fails too."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

GUIDE = os.path.join(os.environ["DPLAB_SOURCE_DIR"], "docs", "guide", "python.md")


class Guide(unittest.TestCase):
    def test_the_guide_runs(self):
        with open(GUIDE) as f:
            blocks = re.findall(r"^```python\n(.*?)^```", f.read(), re.DOTALL | re.MULTILINE)
        self.assertGreaterEqual(len(blocks), 8, "the guide's python blocks")
        code = "\n".join(blocks)
        for call in ("dplab.account(", "dplab.calibrate(", "dplab.selection_epsilon(",
                     "dplab.train(", "dplab.tune(", "dplab.load(", "dplab.audit_bound("):
            self.assertIn(call, code)
        with tempfile.TemporaryDirectory() as folder:
            script = os.path.join(folder, "guide.py")
            with open(script, "w") as f:
                f.write(code)
            done = subprocess.run([sys.executable, script], cwd=folder, capture_output=True,
                                  text=True, timeout=240)
        self.assertEqual(done.returncode, 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}")


if __name__ == "__main__":
    unittest.main()
