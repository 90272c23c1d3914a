"""TS's ``schedule_builder`` module path: ``from
cutlass.experimental.task_scheduling.schedule_builder import schedule,
domain_loop`` ports as ``from tspipe.ts.schedule_builder import ...``."""

from .schedule import *  # noqa: F401,F403
from .schedule import __all__  # noqa: F401
