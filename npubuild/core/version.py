"""npubuild's version, in a module that imports nothing: ``npubuild.__version__`` is this one, and code the
package itself imports on its way (npubuild.ane.programs' buildInfo) reads it here without a cycle."""

__version__ = "0.1.0"
