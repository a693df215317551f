"""The pure grading engine: the rules of grading-rules.md, no Django, no I/O."""
