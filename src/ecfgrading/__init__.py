"""ecfgrading: the grading system of a national chess federation."""

__version__ = "0.1.0"
