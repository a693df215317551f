"""The write side: use cases that change the registry, called alike by the CLI, the back
office and the website's forms. Each owns its transaction, lock, audit row and mail; what
a door only shows is read from ``lookups``.

- ``results``: check and import results files (stored byte for byte, accepted whole or
  rejected whole), the officer's import report, the identification queue's decision
- ``grading``: compute and publish list versions; assign starting grades (G6)
- ``lists``: load a published list CSV as the starting point
- ``merge``: merge two records of one person, with its audit row and amendment
- ``events``: register an event; ``officers``: an officer's uploads and submissions
- ``team``: the grading team's decisions (identification, assignments, publishing,
  queries, chases, memberships ended by hand)
- ``feedback``: a query from the public; ``amendments``: amendments recorded
- ``members``, ``abroad``: direct members and their results from abroad
- ``mail``, ``mail_tasks``: the outbox and the worker's runs
- ``accounts``, ``logins``: back-office accounts (in a role) and logins
- ``audit``, ``changes``, ``locks``, ``people``, ``database``: what the use cases share
- ``errors``: the error contract (``ecfgrading.errors``) as the services raise it
"""
