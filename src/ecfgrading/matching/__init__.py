"""Name matching for identification: pure (stdlib, NumPy, rapidfuzz, unidecode), no Django.

``names`` normalises and compares names; ``identify`` decides, for a player in a results
file, whether he is a player on record, a new player, or a case for a person to decide.
``transliteration`` writes names in Latin-1 for the list file graders' tools read.
"""
