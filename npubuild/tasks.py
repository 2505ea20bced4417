"""The doit task creators, for a project's ``dodo.py``.

The import a ``dodo.py`` makes (``from npubuild.tasks import *``): a re-export of
:mod:`npubuild.engine.tasks`, where the creators live. The engine is internal and
was called ``npubuild.build`` before (a name tools read as build output): a
``dodo.py`` written as ``from npubuild.build.tasks import *`` changes that line to
this module.
"""
from .engine.tasks import *  # noqa: F401,F403
from .engine.tasks import __all__  # noqa: F401
