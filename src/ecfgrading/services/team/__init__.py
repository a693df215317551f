"""The grading team's workflows in the back office (issue 11, item 3): identification,
starting grades, computing and publishing lists, queries, chasing and club memberships.

Each module carries out a decision by calling the service that owns it (the queue, the
merge, the grading run), so that the CLI and the back office do the same thing; what the
pages show is read from ``lookups`` (identification, drafts, queries, chases, profiles,
assignments).
"""
