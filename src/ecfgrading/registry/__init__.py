"""The registry: the federation's data and its migrations. No grading rules here."""
