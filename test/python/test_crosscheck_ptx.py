"""The PTX reading of crosscheck/ptx_compare.py (no TS needed): markers cut
brackets, barrier instructions are normalized with their issuing threads
and immediates, and spelling-only differences compare equal."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "crosscheck"))

import ptx_compare as P  # noqa: E402

PTX = """
\tmov.b32 \t%r15, 4096;
\telect.sync \t%r8|%p2, -1;
\tmbarrier.init.shared.b64 \t[%r1], %r9;
\t// begin inline asm
\t// XMARK 0
\t// end inline asm
\tmbarrier.try_wait.parity.shared.b64 P1, [%r5], 1, 10000000;
\t@P1 bra.uni DONE;
\telect.sync \t%r14|%p9, -1;
\t@%p10 bra \t$L__BB0_10;
\tmbarrier.arrive.expect_tx.shared.b64 %rd2, [%r1], %r15;
\t// XMARK 1
\tsetp.ne.b32 \t%p8, %r12, 0;
\t@%p8 bra \t$L__BB0_13;
\tmbarrier.arrive.shared.b64 %rd1, [%r5];
"""


def test_markers_cut_brackets():
    segs = P.segments(PTX)
    assert list(segs) == ["init", 0, 1]
    assert any(op.startswith("mbarrier.init") for _, op, _, _ in segs["init"])


def test_summary_reads_issuers_and_immediates():
    segs = P.segments(PTX)
    defs = P.definitions(PTX)
    acquire = P.summarize(segs[0], defs)
    assert acquire["mbarrier.try_wait.parity.shared.b64 parity=1 [all]"] == 1
    # The register holding the byte count is resolved from its mov.
    assert acquire["mbarrier.arrive.expect_tx.shared.b64 tx=4096 [elect]"] == 1
    release = P.summarize(segs[1], defs)
    # No count operand: the default count 1; behind a conditional branch.
    assert release == {"mbarrier.arrive.shared.b64 count=1 [cond]": 1}


def test_spelling_differences_compare_equal():
    a = {"mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 parity=0 [all]": 1}
    b = {"mbarrier.try_wait.parity.shared.b64 parity=0 [all]": 1}
    only_a, only_b = P.compare(a, b)
    assert not only_a and not only_b


def test_every_case_builds_a_description_with_labels():
    for ptype, topo, variant in P.CASES:
        desc, labels = P.build_case(ptype, topo, variant)
        marks = [s["id"] for t in desc["tasks"] for s in t["loop"]["body"]
                 if s.get("op") == "marker"]
        assert len(marks) == len(set(marks))
        assert set(labels) <= set(marks)


# A gated wait that the code generator placed after the next bracket's
# marker, and a release duplicated into both arms of a CTA-rank branch.
PTX_LAYOUT = """
\tmov.u32 \t%r1, %cluster_ctarank;
\tand.b32 \t%r2, %r1, 1;
\tsetp.ne.b32 \t%p1, %r2, 0;
\tmov.b32 \t%r3, 3;
\tshl.b32 \t%r4, %r3, %r1;
\tcvt.u16.u32 \t%rs1, %r4;
\t// XMARK 0
\t@%p1 bra \t$L__BB0_2;
\tbra.uni \t$L__BB0_5;
$L__BB0_2:
\t// XMARK 1
\tmbarrier.arrive.shared.b64 %rd1, [%r5];
\tret;
$L__BB0_5:
\tmbarrier.try_wait.parity.shared.b64 P1, [%r5], 0, 10000000;
\tbra.uni \t$L__BB0_2;
"""

PTX_DUPLICATED = """
\tmov.u32 \t%r1, %cluster_ctarank;
\tsetp.ne.b32 \t%p1, %r1, 0;
\t@%p1 bra \t$L__BB0_3;
\t// XMARK 7
\telect.sync \t%r8|%p2, -1;
\t@!%p2 bra \t$L__BB0_4;
\ttcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 \t[%r6], %rs1;
\tbra.uni \t$L__BB0_4;
$L__BB0_3:
\t// XMARK 7
$L__BB0_4:
\t// XMARK 8
\tret;
"""


def test_brackets_follow_control_flow_not_text():
    segs = P.segments(PTX_LAYOUT)
    # The wait sits after marker 1 in the text but is reached only from
    # bracket 0 (on CTAs with an even rank): it belongs to bracket 0.
    zero = P.summarize(segs[0], P.definitions(PTX_LAYOUT))
    assert zero == {"mbarrier.try_wait.parity.shared.b64 parity=0 [cond]": 1}
    one = P.summarize(segs[1], P.definitions(PTX_LAYOUT))
    assert one == {"mbarrier.arrive.shared.b64 count=1 [all]": 1}


def test_bracket_copies_in_both_arms_make_its_code_conditional():
    segs = P.segments(PTX_DUPLICATED)
    rows = P.summarize(segs[7], P.definitions(PTX_DUPLICATED), nctas=2)
    # elect.sync runs on one arm only (rank 0): conditional, not all.
    assert rows["elect.sync [cond]"] == 1
    assert sum(n for k, n in rows.items() if k.startswith("tcgen05.commit")) == 1


def test_register_operands_are_evaluated_per_cta_rank():
    defs = P.definitions(PTX_LAYOUT)
    # %rs1 = 3 << rank: one value per rank of a 2-CTA cluster.
    assert P._value("%rs1", defs, nctas=2) == "[3,6]"
    assert P._value("%r3", defs, nctas=2) == "3"
    assert P._value("%r99", defs, nctas=2) == "reg"


def test_a_difference_is_stated_only_when_the_rewrites_explain_all_of_it():
    ts = {"mbarrier.arrive.shared::cluster.b64 count=1 [cond]": 1}
    tp = {"mbarrier.arrive.release.cluster.shared::cluster.b64 count=1 [cond]": 1}
    status, reasons, _, _ = P.explain("clc_fetch_async", "cluster2", "plain",
                                      "release", ts, tp)
    assert status == "differs (stated)" and reasons
    # The same rewrite does not cover an extra arrive: that stays a
    # difference without a reason.
    tp2 = dict(tp)
    tp2["mbarrier.arrive.shared.b64 count=1 [all]"] = 1
    status, reasons, only_ts, only_tp = P.explain(
        "clc_fetch_async", "cluster2", "plain", "release", ts, tp2)
    assert status == "differs" and not reasons
    assert list(only_tp) == ["mbarrier.arrive.shared.b64 count=1 [all]"]
    assert P.explain("async_async", "1cta", "plain", "release", ts, ts)[0] == "equal"


def test_cases_cover_every_type_topology_and_bracket_form():
    types = {t for t, _, _ in P.CASES}
    assert types == set(P.TYPE_SHAPES)
    for ptype in types:
        topos = {topo for t, topo, _ in P.CASES if t == ptype}
        variants = {v for t, _, v in P.CASES if t == ptype}
        assert "1cta" in topos and len(topos) >= 2, ptype
        assert "try" in variants, ptype
    # Interleaved lanes wherever TS allows them on some side.
    for ptype in P.INTERLEAVE_SIDES:
        assert (ptype, "1cta", "lanes2") in P.CASES
