"""The doit task creators, for a project's ``dodo.py``.

A thin re-export of :mod:`npubuild.build.tasks`, kept so that a ``dodo.py``
written as ``from npubuild.tasks import *`` (or naming the creators) goes on
working. New code imports from ``npubuild.build.tasks``.
"""
from .build.tasks import *  # noqa: F401,F403
from .build.tasks import __all__  # noqa: F401
