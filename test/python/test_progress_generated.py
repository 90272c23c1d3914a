"""The progress checker against kernels whose verdict is known by construction.

A seeded generator builds small producer / consumer kernels on one ring
with the builders:
1 to 4 stages, domain strides 1 to 3, domain bounds derived from one or two
kernel arguments (the
same expression rebuilt with each task's own ops, an equivalent form such as
``(a * n + d - 1) divui d`` against ``ceildivui(a * n, d)``, or a form that
differs at some length, e.g. ``((n - 1) divsi 2) + 1`` against
``(n + 1) divui 2`` at n = 0), extra brackets under ``first_iter`` /
``last_iter`` guards, and sometimes a missing release. The right verdict is
computed here from the arith semantics (divsi rounds toward zero): the
kernel is free of hangs exactly when both tasks move the same number of
stages for every value of the arguments and every wait is released. The
checker must agree: accept the first kind, and reject the second with a
counterexample (never a "not proven" error where the lengths depend on one
argument, since every length is then decidable; with two independent
arguments, a "not proven" error is a rejection too).

``make test`` runs a fixed seed and a bounded count (a few seconds);
``TSPIPE_GEN_COUNT`` and ``TSPIPE_GEN_SEED`` run more.
"""

import os
import random

import tspipe.ir as ir
from tspipe.dialects import arith
from tspipe.dialects import tspipe as tsd
from tspipe.progress import check_progress
from tspipe.ts import Agent, CooperativeGroup, Kernel, PipelineConfig

IDX = ir.IndexType

COUNT = int(os.environ.get("TSPIPE_GEN_COUNT", "48"))
SEED = int(os.environ.get("TSPIPE_GEN_SEED", "1"))
# Constants and divisors stay small, so lengths agreeing up to this value
# of every argument agree for all values.
HORIZON = 600


def divsi(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def ceildiv(a, b):
    return -((-a) // b)


def const(v):
    return arith.constant(IDX.get(), v)


def make_form(kind, rng, args, used):
    """One domain bound: (build, value). ``build(k)`` computes it in the
    kernel's prologue with ops of its own (each call builds new ops, so two
    tasks computing the same bound do not share them); ``value(env)``
    evaluates it for argument values ``env``."""
    arg = rng.choice(args)
    used.add(arg)
    a = rng.choice([1, 2, 4])
    d = rng.choice([2, 3, 4, 8])
    k = rng.choice([0, 1, 2, 5])

    def scaled(kern):
        return arith.muli(kern.arg(arg), const(a))

    forms = {
        "arg": (lambda kern: kern.arg(arg), lambda env: env[arg]),
        "plus": (lambda kern: kern.prologue(
                     lambda: arith.addi(kern.arg(arg), const(k))),
                 lambda env: env[arg] + k),
        "ceil_add": (lambda kern: kern.prologue(lambda: arith.divui(
                         arith.addi(scaled(kern), const(d - 1)), const(d))),
                     lambda env: ceildiv(a * env[arg], d)),
        "ceil_op": (lambda kern: kern.prologue(
                        lambda: arith.ceildivsi(scaled(kern), const(d))),
                    lambda env: ceildiv(a * env[arg], d)),
        # Rounds toward zero: 1 at arg = 0, where the ceiling is 0.
        "ceil_divsi": (lambda kern: kern.prologue(lambda: arith.addi(
                           arith.divsi(arith.subi(scaled(kern), const(1)),
                                       const(d)), const(1))),
                       lambda env: divsi(a * env[arg] - 1, d) + 1),
        "floor_divui": (lambda kern: kern.prologue(
                            lambda: arith.divui(kern.arg(arg), const(d))),
                        lambda env: env[arg] // d),
        "floor_floordivsi": (lambda kern: kern.prologue(
                                 lambda: arith.floordivsi(kern.arg(arg),
                                                          const(d))),
                             lambda env: env[arg] // d),
    }
    return forms[kind]


KINDS = ["arg", "plus", "ceil_add", "ceil_op", "ceil_divsi", "floor_divui",
         "floor_floordivsi"]
# Forms equal for every nonnegative argument, given the same a, d.
EQUIVALENT = {"ceil_add": "ceil_op", "ceil_op": "ceil_add",
              "floor_divui": "floor_floordivsi",
              "floor_floordivsi": "floor_divui"}


def make_case(rng, index):
    """A kernel and its verdict (True: free of hangs for every length)."""
    nargs = rng.choice([1, 1, 1, 2])
    args = ["n", "m"][:nargs]
    stages = rng.randint(1, 4)
    kind = rng.choice(KINDS)
    used = set()
    state = rng.getstate()
    prod = make_form(kind, rng, args, used)
    choice = rng.random()
    if choice < 0.4:
        rng.setstate(state)  # the same expression, the consumer's own ops
        cons = make_form(kind, rng, args, used)
    elif choice < 0.6 and kind in EQUIVALENT:
        rng.setstate(state)
        cons = make_form(EQUIVALENT[kind], rng, args, used)
    else:
        cons = make_form(rng.choice(KINDS), rng, args, used)
    start = rng.choice([0, 0, 0, 1, 3])
    # Domain strides: the same for both tasks, or (sometimes) different.
    steps = [rng.choice([1, 1, 1, 2, 3])] * 2
    if rng.random() < 0.2:
        steps[1] = rng.choice([1, 2, 3])
    guard = rng.choice([None, None, "first_iter", "last_iter"])
    guard_both = rng.random() < 0.7
    missing_release = rng.random() < 0.1

    k = Kernel(num_warps=2, name=f"gen{index}",
               args=[(a, "index") for a in args])
    cfg = PipelineConfig.create_async_async_pipeline_cfg(
        stages, CooperativeGroup(Agent.Thread, 32),
        CooperativeGroup(Agent.Thread, 32), None)
    ring = k.pipeline("ring", cfg)
    producer = k.task("producer", 0, 1, produces=[ring])
    with producer.domain_loop(start, prod[0](k), steps[0]):
        producer.acquire(ring)
        producer.commit(ring)
        if guard:
            with getattr(producer, guard)():
                producer.acquire(ring)
                producer.commit(ring)
    consumer = k.task("consumer", 1, 1, consumes=[ring])
    with consumer.domain_loop(start, cons[0](k), steps[1]):
        consumer.wait(ring)
        if not missing_release:
            consumer.release(ring)
        if guard and guard_both:
            with getattr(consumer, guard)():
                consumer.wait(ring)
                consumer.release(ring)

    # The verdict, by construction: the same number of stages filled and
    # taken for every value of the arguments, and every wait released (or
    # no task ever runs).
    def moves(value, env, extra, step):
        trips = max(0, ceildiv(value(env) - start, step))
        return trips + (1 if extra and trips > 0 else 0)

    envs = ([{"n": v} for v in range(HORIZON)] if nargs == 1 else
            [{"n": v, "m": w} for v in range(40) for w in range(40)])
    fills = [moves(prod[1], env, guard is not None, steps[0]) for env in envs]
    takes = [moves(cons[1], env, guard is not None and guard_both, steps[1])
             for env in envs]
    if missing_release:
        ok = not any(fills) and not any(takes)
    else:
        ok = fills == takes
    description = (f"gen{index}: {nargs} argument(s), {stages} stage(s), "
                   f"start {start}, steps {steps}, producer {kind}, "
                   f"guard {guard} "
                   f"(both: {guard_both}), missing release: "
                   f"{missing_release}")
    # Lengths of one argument are decided for every value; lengths of two
    # independent ones only up to a bound (beyond it: "not proven").
    return k, ok, len(used) == 1, description


def cases():
    rng = random.Random(SEED)
    return [make_case(rng, i) for i in range(COUNT)]


def test_generated_kernels_get_the_known_verdict():
    wrong = []
    for kernel, ok, decidable, description in cases():
        report = check_progress(kernel)
        if report.ok != ok:
            wrong.append(f"{description}: expected "
                         f"{'ok' if ok else 'a failure'}, got {report.kind} "
                         f"{report.message}\n{kernel.to_mlir()}")
        elif not ok and decidable and report.kind == "unproven":
            wrong.append(f"{description}: decidable, but reported as not "
                         f"proven: {report.message}")
    assert not wrong, "\n".join(wrong)


def test_generator_covers_both_verdicts():
    verdicts = [ok for _, ok, _, _ in cases()]
    assert any(verdicts) and not all(verdicts)


# ---------------------------------------------------------------------------
# Split producers: advance_on_acquire, the acquire in one task, the commit in
# another (docs/Protocols.md, Producer drain). The verdict by construction:
# the kernel is free of hangs exactly when the commit task commits a stage
# only after the acquire task acquired it (the hand-off pipeline) and every
# task runs the same number of iterations.

SPLIT_SHAPES = ["correct", "explicit_tail", "no_handoff", "extra_acquire",
                "extra_fill"]


def split_producer_case(rng, index):
    shape = rng.choice(SPLIT_SHAPES)
    stages = rng.randint(1, 4)
    hand_stages = rng.randint(1, 3)
    extra = rng.randint(1, 2)
    handoff = shape != "no_handoff"
    group = CooperativeGroup(Agent.Thread, 32)
    k = Kernel(num_warps=3, name=f"split{index}", args=[("n", "index")])
    ring = k.pipeline("ring", PipelineConfig.create_async_async_pipeline_cfg(
        stages, group, group, None, advance_on_acquire=True))
    hand = (k.pipeline("hand", PipelineConfig.create_async_async_pipeline_cfg(
        hand_stages, group, group, None)) if handoff else None)

    def end(longer):
        if not longer:
            return k.arg("n")
        return k.prologue(lambda: arith.addi(k.arg("n"), const(extra)))

    acq = k.task("acq", 0, 1, produces=[ring] + ([hand] if handoff else []))
    with acq.domain_loop(0, end(shape == "extra_acquire"), 1):
        acq.acquire(ring)
        if handoff:
            acq.acquire(hand)
            acq.commit(hand)
    if shape == "explicit_tail":
        acq.producer_tail(ring)
    fill = (k.task("fill", 1, 1, produces=[ring], consumes=[hand])
            if handoff else k.task("fill", 1, 1, produces=[ring]))
    with fill.domain_loop(0, end(shape == "extra_fill"), 1):
        if handoff:
            fill.wait(hand)
        fill.commit(ring)
        if handoff:
            fill.release(hand)
    c = k.task("c", 2, 1, consumes=[ring])
    with c.domain_loop(0, k.arg("n"), 1):
        c.wait(ring)
        c.release(ring)
    ok = shape in ("correct", "explicit_tail")
    return k, ok, f"split{index}: {shape}, {stages} stage(s)"


def test_generated_split_producers_get_the_known_verdict():
    rng = random.Random(SEED)
    wrong = []
    for i in range(max(8, COUNT // 3)):
        kernel, ok, description = split_producer_case(rng, i)
        report = check_progress(kernel)
        if report.ok != ok or report.kind == "unproven":
            wrong.append(f"{description}: expected "
                         f"{'ok' if ok else 'a failure'}, got {report.kind} "
                         f"{report.message}\n{kernel.to_mlir()}")
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------------------
# Named barriers: two tasks, one or two barriers both list, each task a head
# and a loop body of named_barrier_arrive / _sync ops (every barrier in both
# bodies). The verdict comes from
# an exhaustive search over every interleaving of the two tasks for small
# domain lengths (the schedules repeat every iteration, so a hang shows
# within a few): a hang is a reachable state where an unfinished task can
# never move, or an arrival of a task for phase k + 1 of a barrier while the
# other task, which arrives there again later, has not arrived for phase k
# (the hardware counts it toward phase k: flashinfer PR 4732, vllm PR
# 26026). A barrier's phase k completes when both tasks made k + 1
# arrivals; a sync waits for the completion of the phase it arrived in.

def named_schedule(ops, head, n):
    """The steps of one task: an arrive is an arrival, a sync an arrival
    and then a wait for the phase of that arrival."""
    steps = []
    for kind, b in list(head) + list(ops) * n:
        steps.append(("arrive", b))
        if kind == "sync":
            steps.append(("wait", b))
    return steps


def named_hangs(scheds):
    """True when some interleaving of the two schedules hangs."""
    barriers = {b for s in scheds for _, b in s}
    # Arrivals of task t on barrier b before step i of its schedule.
    prefix = []
    for s in scheds:
        counts, table = {b: 0 for b in barriers}, []
        for kind, b in s:
            table.append(dict(counts))
            if kind == "arrive":
                counts[b] += 1
        table.append(dict(counts))
        prefix.append(table)
    total = [prefix[t][-1] for t in range(2)]
    seen, stack = set(), [(0, 0)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        moved = False
        for t in range(2):
            pc = state[t]
            if pc >= len(scheds[t]):
                continue
            kind, b = scheds[t][pc]
            other = 1 - t
            mine = prefix[t][pc][b]
            theirs = prefix[other][state[other]][b]
            if kind == "arrive":
                # Arriving for phase `mine` while the other task, which
                # still arrives here later, has not arrived for phase
                # mine - 1.
                if theirs < mine and theirs < total[other][b]:
                    return True
            elif theirs < mine:
                # The wait for phase mine - 1 passes once the other task
                # arrived for it.
                continue
            nxt = list(state)
            nxt[t] += 1
            stack.append(tuple(nxt))
            moved = True
        if not moved and (state[0] < len(scheds[0]) or
                          state[1] < len(scheds[1])):
            return True
    return False


def named_barrier_case(rng, index):
    nbarriers = rng.choice([1, 2])
    names = ["b0", "b1"][:nbarriers]
    while True:
        bodies = [[(rng.choice(["arrive", "sync", "sync"]), rng.choice(names))
                   for _ in range(rng.randint(1, 3))] for _ in range(2)]
        heads = [[(rng.choice(["arrive", "sync"]), rng.choice(names))
                  for _ in range(rng.choice([0, 0, 1]))] for _ in range(2)]
        if rng.random() < 0.5:
            # The same barriers in the same order, each an arrive or a
            # sync: the hand-offs and ping-pongs, correct or not.
            bodies[1] = [(rng.choice(["arrive", "sync"]), b)
                         for _, b in bodies[0]]
        # Every task uses every barrier in its loop (X13 needs it in the
        # task; a task that keeps arriving where the other no longer does
        # piles up arrivals without a periodic regime: "not proven",
        # docs/ProgressChecker.md, Named barriers).
        if all({b for _, b in bodies[t]} == set(names) for t in range(2)):
            break
    extra = [0, rng.choice([0, 0, 0, 1])]
    warps = [rng.choice([1, 2]), rng.choice([1, 2])]
    ok = not any(
        named_hangs([named_schedule(bodies[t], heads[t], n + extra[t])
                     for t in range(2)]) for n in range(6))

    k = Kernel(num_warps=sum(warps), name=f"nb{index}", args=[("n", "index")])
    m = k.prologue(lambda: arith.addi(k.arg("n"), const(1)))
    first = 0
    for t, name in enumerate(["a", "b"]):
        task = k.task(name, first, warps[t])
        first += warps[t]
        uses = {"arrive": tsd.named_barrier_arrive,
                "sync": tsd.named_barrier_sync}
        for kind, b in heads[t]:
            task.work(uses[kind], b)
        with task.domain_loop(0, m if extra[t] else k.arg("n"), 1):
            for kind, b in bodies[t]:
                task.work(uses[kind], b)
    # The declarations, before the tasks in the kernel body.
    with k.context, ir.Location.unknown(), ir.InsertionPoint(k.tasks[0].op):
        for b in names:
            tsd.NamedBarrierOp(b, ir.ArrayAttr.get(
                [ir.FlatSymbolRefAttr.get(t) for t in ("a", "b")]))
    description = (f"nb{index}: heads {heads}, bodies {bodies}, "
                   f"extra {extra}")
    return k, ok, description


def named_cases():
    rng = random.Random(SEED)
    return [named_barrier_case(rng, i) for i in range(COUNT)]


def test_generated_named_barriers_get_the_known_verdict():
    wrong = []
    for kernel, ok, description in named_cases():
        report = check_progress(kernel)
        if report.ok != ok or report.kind == "unproven":
            wrong.append(f"{description}: expected "
                         f"{'ok' if ok else 'a failure'}, got {report.kind} "
                         f"{report.message}\n{kernel.to_mlir()}")
    assert not wrong, "\n".join(wrong)


def test_named_barrier_generator_covers_both_verdicts():
    verdicts = [ok for _, ok, _ in named_cases()]
    assert any(verdicts) and not all(verdicts)
