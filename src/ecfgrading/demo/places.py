"""Counties, their towns, and the clubs and locations players belong to.

A club has a 4-character code (county character and three letters). A location is a town
with no club: unattached players are recorded against it, and the published list shows
it with an asterisk ('Dover*').
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

Rng = np.random.Generator

# Larger towns first: they get the first clubs. Town names are unique across counties.
COUNTY_TOWNS: dict[str, str] = {
    "Yorkshire": """Leeds, Sheffield, Bradford, York, Huddersfield, Halifax, Wakefield,
        Harrogate, Doncaster, Rotherham, Barnsley, Scarborough, Hull, Beverley, Ilkley,
        Keighley, Skipton, Ripon, Selby, Pontefract, Dewsbury, Batley, Otley, Whitby,
        Thirsk, Northallerton""",
    "Lancashire": """Manchester, Liverpool, Preston, Blackpool, Lancaster, Bolton, Bury,
        Wigan, Rochdale, Oldham, Blackburn, Burnley, Accrington, Chorley, Southport,
        St Helens, Warrington, Stockport, Morecambe, Ormskirk, Leyland, Clitheroe,
        Fleetwood, Lytham, Darwen, Ramsbottom""",
    "Kent": """Canterbury, Maidstone, Tunbridge Wells, Sevenoaks, Folkestone, Dover,
        Ashford, Margate, Ramsgate, Broadstairs, Whitstable, Herne Bay, Faversham,
        Sittingbourne, Gravesend, Dartford, Rochester, Chatham, Gillingham, Tonbridge,
        Deal, Sandwich, Hythe, Cranbrook, Edenbridge, Tenterden""",
    "Surrey": """Guildford, Woking, Epsom, Redhill, Reigate, Dorking, Leatherhead, Farnham,
        Camberley, Godalming, Weybridge, Walton, Esher, Cobham, Caterham, Oxted, Banstead,
        Sutton, Kingston, Richmond, Haslemere, Egham, Staines, Chertsey, Ashtead, Cranleigh""",
    "Essex": """Chelmsford, Colchester, Southend, Basildon, Brentwood, Harlow, Braintree,
        Witham, Maldon, Billericay, Wickford, Rayleigh, Clacton, Harwich, Saffron Walden,
        Epping, Loughton, Grays, Romford, Ilford, Leigh-on-Sea, Canvey Island,
        Burnham-on-Crouch, Frinton, Halstead, Coggeshall""",
    "Hampshire": """Southampton, Portsmouth, Winchester, Basingstoke, Andover, Fareham,
        Gosport, Havant, Eastleigh, Aldershot, Farnborough, Fleet, Petersfield, Romsey,
        Lymington, Ringwood, Alton, Alresford, Bishops Waltham, Waterlooville, Hedge End,
        Totton, New Milton, Emsworth, Stockbridge, Whitchurch""",
    "Sussex": """Brighton, Hove, Worthing, Crawley, Horsham, Eastbourne, Hastings, Bexhill,
        Lewes, Chichester, Bognor Regis, Littlehampton, Haywards Heath, Burgess Hill,
        East Grinstead, Seaford, Uckfield, Crowborough, Shoreham, Arundel, Midhurst,
        Petworth, Rye, Battle, Hailsham, Steyning""",
    "Warwickshire": """Coventry, Warwick, Leamington, Stratford, Rugby, Nuneaton, Solihull,
        Sutton Coldfield, Kenilworth, Bedworth, Atherstone, Alcester, Shipston, Southam,
        Coleshill, Polesworth, Studley, Henley-in-Arden, Kineton, Wellesbourne,
        Water Orton, Dunchurch, Bidford, Wolston, Bulkington, Harbury""",
    "Devon": """Exeter, Plymouth, Torquay, Paignton, Barnstaple, Bideford, Exmouth,
        Newton Abbot, Tiverton, Teignmouth, Dawlish, Sidmouth, Honiton, Okehampton,
        Tavistock, Totnes, Dartmouth, Ilfracombe, Crediton, Kingsbridge, Brixham,
        Ivybridge, Cullompton, Axminster, Seaton, Budleigh Salterton""",
    "Gloucestershire": """Gloucester, Cheltenham, Stroud, Cirencester, Tewkesbury,
        Cinderford, Coleford, Lydney, Dursley, Wotton-under-Edge, Nailsworth, Stow,
        Bourton, Moreton, Tetbury, Winchcombe, Thornbury, Yate, Chipping Sodbury, Newent,
        Painswick, Berkeley, Fairford, Lechlade, Chipping Campden, Bishops Cleeve""",
    "Norfolk": """Norwich, Great Yarmouth, King's Lynn, Thetford, Dereham, Cromer,
        Sheringham, Wymondham, Diss, Swaffham, North Walsham, Fakenham, Attleborough,
        Downham Market, Hunstanton, Aylsham, Holt, Wells, Watton, Harleston, Loddon, Acle,
        Stalham, Reepham, Hingham, Wroxham""",
    "Cambridgeshire": """Cambridge, Peterborough, Ely, Huntingdon, St Neots, St Ives,
        Wisbech, March, Whittlesey, Chatteris, Ramsey, Soham, Littleport, Sawston, Histon,
        Cottenham, Linton, Melbourn, Godmanchester, Yaxley, Bottisham, Fulbourn,
        Great Shelford, Papworth, Kimbolton, Sutton-in-the-Isle""",
}
# Relative numbers of players; the big northern counties have the most.
COUNTY_WEIGHTS = (1.6, 1.5, 1.3, 1.2, 1.1, 1.1, 1.0, 1.0, 0.8, 0.7, 0.7, 0.8)
# A town's second, third... club ('Canterbury Knights').
CLUB_SUFFIXES = (
    *("", " Knights", " Rooks", " Athenaeum", " Castle", " Bishops", " Pawns", " Kings"),
    *(" Railway", " University", " Wanderers", " Phoenix", " Albion", " Social", " Victoria"),
)
JUNIOR_SUFFIX = " Juniors"
LOCATIONS_PER_COUNTY = 2
_CODE_PREFIXES = "123456789ABC"


@dataclass(frozen=True)
class Club:
    """A club, or a location (``location``: no code, shown 'Dover*' in the list)."""

    code: str
    name: str
    county: str
    location: bool = False
    juniors: bool = False

    @property
    def listed_name(self) -> str:
        """The published list's spelling: a location carries an asterisk."""
        return f"{self.name}*" if self.location else self.name


@cache  # every results file's addresses and every tournament's title ask
def towns(county: str) -> tuple[str, ...]:
    return tuple(town.strip() for town in COUNTY_TOWNS[county].split(","))


def counties(count: int) -> list[str]:
    if not 1 <= count <= len(COUNTY_TOWNS):
        raise ValueError(f"expected 1 to {len(COUNTY_TOWNS)} counties, got {count}")
    return list(COUNTY_TOWNS)[:count]


def county_weights(count: int) -> np.ndarray:
    weights = np.array(COUNTY_WEIGHTS[:count])
    return weights / weights.sum()


def make_clubs(county_names: list[str], players: np.ndarray, club_size: int) -> list[Club]:
    """Clubs of each county (about ``club_size`` players each), then its locations.

    ``players`` is the expected number of players per county. Each county has one junior
    club; its locations are towns that have no club.
    """
    codes: set[str] = set()
    found: list[Club] = []
    for index, county in enumerate(county_names):
        wanted = max(2, round(float(players[index]) / club_size))
        found += _county_clubs(county, _CODE_PREFIXES[index], wanted, codes)
    return found


def _county_clubs(county: str, prefix: str, wanted: int, codes: set[str]) -> list[Club]:
    places = towns(county)
    club_towns = places[: len(places) - LOCATIONS_PER_COUNTY]
    names = _club_names(club_towns, wanted - 1)
    junior = f"{club_towns[0]}{JUNIOR_SUFFIX}"
    clubs = [Club(_code(prefix, name, codes), name, county) for name in names]
    clubs.append(Club(_code(prefix, junior, codes), junior, county, juniors=True))
    locations = places[len(places) - LOCATIONS_PER_COUNTY :]
    return clubs + [Club("", town, county, location=True) for town in locations]


def _club_names(club_towns: Sequence[str], wanted: int) -> list[str]:
    """One club per town first, then second and third clubs in the bigger towns."""
    names = [
        town + suffix
        for round_, suffix in enumerate(CLUB_SUFFIXES)
        for town in club_towns[: max(4, len(club_towns) - 2 * round_)]
    ]
    return names[:wanted]


def _code(prefix: str, name: str, taken: set[str]) -> str:
    """County character and three letters of the name, made unique with digits."""
    letters = [ch for ch in name.upper() if ch.isalpha()]
    words = name.split()
    third = words[-1][0].upper() if len(words) > 1 and words[-1][0].isalpha() else letters[2]
    code = f"{prefix}{letters[0]}{letters[1]}{third}"
    for digit in "23456789":
        if code not in taken:
            break
        code = code[:3] + digit
    for first in "0123456789":
        if code not in taken:
            break
        code = code[:2] + first + code[3]
    taken.add(code)
    return code
