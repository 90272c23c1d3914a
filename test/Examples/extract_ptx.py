"""Prints the PTX payload of the first `gpu.object` in the gpu.binary IR read
from stdin (tspipe-opt --gpu-module-to-binary=format=isa), decoding MLIR's
string escapes, so that lit tests can hand it to ptxas."""

import re
import sys

text = sys.stdin.read()
match = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
if not match:
    sys.exit("no assembly payload in the input")


def unescape(m: re.Match) -> str:
    esc = m.group(1)
    return {"\\": "\\", '"': '"', "n": "\n", "t": "\t"}.get(
        esc, chr(int(esc, 16)) if len(esc) == 2 else esc)


sys.stdout.write(re.sub(r'\\([0-9A-Fa-f]{2}|["\\nt])', unescape,
                        match.group(1)))
