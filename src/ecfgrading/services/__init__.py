"""Use cases shared by the CLI, the website, the API and the back office.

- ``services.results``: check and import results files; the identification queue
- ``services.grading``: compute, publish and explain list versions; starting grades
- ``services.lists``: load a published list CSV; export published versions
- ``services.reports``: reports for the grading team
- ``services.events``, ``services.merge``, ``services.versions``: shared helpers
- ``services.errors``: ``ServiceError``, the one error every service raises for a
  user's mistake
"""
