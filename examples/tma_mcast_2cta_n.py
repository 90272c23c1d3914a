"""Launch spec for examples/tma_mcast_2cta_n.mlir: the TmaAsync multicast kernel of
examples/tma_mcast_4cta_mn.py (see there) on a cluster of M = 1 by N = 2
CTAs, multicasting A (mcast_mode_mn = [1, 0])."""

from pathlib import Path

from tspipe.runtime.harness import load_spec

load_spec(Path(__file__).with_name("tma_mcast_4cta_mn.py")).make_spec(
    globals(), "tma_mcast_2cta_n", 1, 2, True, False)
