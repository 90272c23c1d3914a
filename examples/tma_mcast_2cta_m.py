"""Launch spec for examples/tma_mcast_2cta_m.mlir: the TmaAsync multicast kernel of
examples/tma_mcast_4cta_mn.py (see there) on a cluster of M = 2 by N = 1
CTAs, multicasting B (mcast_mode_mn = [0, 1])."""

from pathlib import Path

from tspipe.runtime.harness import load_spec

load_spec(Path(__file__).with_name("tma_mcast_4cta_mn.py")).make_spec(
    globals(), "tma_mcast_2cta_m", 2, 1, False, True)
