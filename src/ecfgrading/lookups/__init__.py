"""The read side: what is on record, as plain values every door shows (the public pages
and their JSON twins, /api/v1, the federation-compatible API, the CLI, the back office).

Organised by subject, never by the door that reads it, so that one fact is computed
once and answers alike wherever it is asked. Nothing here writes: no transaction, lock,
save or update (a cache of what was read is not a write), and nothing here imports
``services`` (tests/test_layering.py checks both).

Players
- ``players``: who a player is, his grades now and in each list, his page
- ``grades``: a player's grades in a list (G26, G27); the rating list of every player
- ``history``: his grades in every published list; ``games``: his graded games
- ``breakdown``: how a grade was calculated, to show (section 10); ``explain``: rebuilt
  from what the version stored; ``provisional``: the next list's grades so far
- ``records``: a player's records (his own and those merged into him, G28)
- ``search``: the player lookup; ``sound_alike``: names that sound like the words given
- ``memberships``: which clubs are shown for a player; ``profiles``: what the team sees
  of one or several players (a case's candidates, the team's player page)

Lists
- ``lists``: every published version, which are current, the catalogue (G26, G27)
- ``versions``: finding a version by name; ``list_entries``: a list a page at a time
- ``list_files``: the published files; ``exports``: their bytes (CSV, JSON, XLSX)
- ``list_inputs``: what the engine needs for one list, read in bulk
- ``conversions``: G29; ``guide``: the rules in numbers, for the help pages

Clubs, counties and events
- ``clubs``, ``members``, ``county_teams``: the club lookup and member lists
- ``events``: events received and their results

The back office
- ``reports``: the grading team's checks (overdue, received, jumps, integrity)
- ``audit``: the audit log; ``amendments``: corrections between versions (public too)
- ``identification``: the identification queue and one case with its candidates
- ``drafts``: versions computed, the next one proposed, a draft's reports;
  ``differences``: what changed since the version before, and why
- ``chases``: overdue events with the chases made; ``outbox``: the mail outbox
- ``assignments``: the latest starting grades assigned (G6)
- ``queries``: the public's queries, their status (public too) and the team's list
- ``officer_events``: an officer's events and accepted files
- ``direct_members``: a member's record and games received; ``results_abroad``: his
  results from abroad as he and the team see them
- ``roles``: which roles a login holds

Shared
- ``freshness.data_token()``: changes whenever a public page may have changed
- ``paging``: pages of long results
"""
