"""Players' names: English surnames and forenames of the right era, and some foreign ones.

Surname frequencies fall off as they do in England (Smith about one in a hundred, a long
tail of rarer names), so namesakes are as common as a grading team finds them: a few per
cent of players share a surname and first forename with someone else.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from unidecode import unidecode

from ecfgrading.formats.names import full_name

Rng = np.random.Generator


def _words(text: str) -> list[str]:
    return text.split()


# Most common first: the weights below fall with rank.
COMMON_SURNAMES = _words(
    """
Smith Jones Williams Taylor Brown Davies Evans Wilson Thomas Johnson Roberts Robinson
Thompson Wright Walker White Edwards Hughes Green Hall Lewis Harris Clarke Patel Jackson
Wood Turner Martin Cooper Hill Ward Morris Moore Clark Lee King Baker Harrison Morgan
Allen James Scott Phillips Watson Davis Parker Price Bennett Young Griffiths Mitchell
Kelly Cook Carter Richardson Bailey Collins Bell Shaw Murphy Miller Cox Richards Khan
Marshall Anderson Simpson Ellis Adams Wilkinson Foster Chapman Powell Webb
Rogers Gray Mason Ali Hunt Hussain Campbell Matthews Owen Palmer Holmes Mills Barnes
Knight Lloyd Butler Russell Barker Fisher Stevens Jenkins Murray Dixon Harvey Graham
Pearson Ahmed Fletcher Walsh Gibson Howard Andrews Stewart Elliott Reynolds Saunders
Payne Fox Ford Pearce Day Brooks West Lawrence Cole Atkinson Bradley Spencer Gill Dawson
Ball Burton O'Brien Watts Rose Booth Perry Ryan Grant Wells Armstrong Francis Rees Hayes
Hart Hudson Newman Barrett Webster Hunter Gregory Carr Lowe Page Marsh Riley Dunn Woods
Parsons Berry Stone Reid Holland Hawkins Harding Porter Robertson Newton Oliver Reed
Kennedy Williamson Bird Gardner Shah Dean Lane Cooke Bates Henderson Parry Burgess Bishop
Walton Burns Nicholson Shepherd Ross Cross Long Freeman Warren Nicholls Hamilton Byrne
Sutton McDonald Yates Hodgson Robson Curtis Hopkins O'Connor Harper Coleman Watkins Moss
McCarthy Chambers O'Neill Griffin Sharp Hardy Wheeler Potter Osborne Johnston Gordon
Doyle Wallace George Jordan Hutchinson Rowe Burke May Pritchard Gilbert Willis Higgins
Read Miles Stevenson Stephenson Hammond Arnold Buckley Walters Hewitt Barber Nelson Slater
Austin Sullivan Whitehead Mann Frost Lambert Stephens Blake Akhtar Lynch Goodwin Barton
Woodward Thomson Cunningham Quinn Barnett Baxter Clayton Nash Greenwood Jennings
Holt Kemp Poole Gallagher Bond Stokes Tucker Davidson Fowler Heath Norman Middleton
Lawson Banks French Stanley Jarvis Gibbs Ferguson Hayward Carroll Farrell Pugh Hilton
Gough Rowley Metcalfe Haynes Bolton Cartwright Farmer Whittaker Chandler Holloway Kirby
Sheppard Hurst Seymour Horton Tomlinson Lucas Fraser Fitzgerald Brennan Dobson Lyons
"""
)

# Place-name surnames (Ashworth, Bradley, Thornton...): the long tail of English names.
_STEMS = _words(
    """
Ash Brad Black Brom Chat Cran Dun Elm Fair Haw Hart Kings Lang Mar Mill North Ox Red Ros
Shel Stan Thorn Wad Wake Whit Wood Al Bar Bright Brook Bur Cal Carl Chad Clay Cot Dal Dray
Ead Farn Fen Gar Ham Hay Hol Kel Kir Lind Long Mad Mor Nor Pen Rad Rid Sal Sax Sed Sher
Stap Stock Sut Tat Thurl Wal Wes Wil Win Wyn Ack Ald Ap Arn Aud Bax Bel Bick Birk Bos Brack
Bram Brin Bux Chal Ched Chil Cliff Cog Crom Dar Dib Ed Eg Ever Fal Flit Gat Glad Hal Hamp
Hen Hess Hick Holl Horn Kim Knot Lamb Lath Lev Mel Mid Nel Ot Pad Pres Pud Rain Rock Rus
"""
)
_ENDINGS = _words(
    """
ley ton field worth wood ford by ham well more bury combe hurst stone cliffe dale
stead wick thorpe land shaw croft
"""
)

MALE_OLD = _words(
    """
John David Michael Peter Paul Robert Richard Andrew Stephen Christopher Mark James Ian
Alan Martin Simon Nigel Graham Keith Brian Roger Malcolm Anthony Philip Kevin Gary Colin
Derek Trevor Geoffrey Kenneth Raymond Barry Stuart Neil Jonathan Timothy Patrick Gordon
Terence Dennis Frank Leonard Clive Adrian Howard Julian Edward William George Thomas
Charles Henry Francis Douglas Norman Roy Eric Ronald Bernard Harold Lawrence Duncan Hugh
Jeremy Rodney Vincent Alistair Dominic Gerald Jeffrey Laurence Matthew Daniel Jason Lee
Darren Craig Dean Wayne Carl Shaun Russell Glenn Jonathan Toby Rupert Giles Crispin Oliver
"""
)
FEMALE_OLD = _words(
    """
Susan Margaret Patricia Elizabeth Sarah Jane Helen Catherine Ann Anne Mary Julie Karen
Linda Carol Christine Janet Alison Gillian Judith Ruth Rachel Claire Nicola Joanne Amanda
Deborah Fiona Kathryn Louise Jennifer Angela Barbara Sheila Valerie Jean Pauline Wendy
Lesley Rosemary Frances Diana Hilary Caroline Jacqueline Penelope Maureen Brenda Joan
"""
)
MALE_YOUNG = _words(
    """
Jack Thomas James Joshua Daniel Harry Samuel Joseph Matthew Callum Luke Benjamin William
Oliver Lewis Ryan Adam Alexander Jake Liam Connor Nathan Charlie George Jamie Kieran
Michael Ethan Jordan Christopher Max Aaron Cameron Edward Henry Alfie Rhys Owen Dylan
Tom Sam Reece Bradley Toby Jacob Isaac Felix Rory Euan Ravi Arjun Rohan Sahil Aditya
"""
)
FEMALE_YOUNG = _words(
    """
Emily Chloe Megan Jessica Sophie Lauren Charlotte Hannah Olivia Amy Ellie Lucy Katie
Georgia Holly Bethany Rebecca Grace Emma Abigail Jade Eleanor Isabel Molly Phoebe Amelia
Anna Naomi Harriet Imogen Priya Anjali
"""
)


@dataclass(frozen=True)
class Foreign:
    """Names of one country, spelt as their owners do (accents and all)."""

    nation: str
    surnames: tuple[str, ...]
    male: tuple[str, ...]
    female: tuple[str, ...]


def _foreign(nation: str, surnames: str, male: str, female: str) -> Foreign:
    """Surnames separated by commas (some have two words), forenames by spaces."""
    family = tuple(name.strip() for name in surnames.split(","))
    return Foreign(nation, family, tuple(male.split()), tuple(female.split()))


FOREIGN = (
    _foreign(
        "GER",
        "Müller, Schröder, Weiß, Krüger, Schäfer, Köhler, Großmann, Böhm, Hoffmann, Wagner, Becker",
        "Jürgen Günter Björn Uwe Jörg Matthias Stefan Klaus Dieter Wolfgang",
        "Anneliese Jutta Ute Birgit Käthe",
    ),
    _foreign(
        "POL",
        "Nowak, Wiśniewski, Wójcik, Kowalczyk, Kamiński, Lewandowski, Zieliński, Kozłowski",
        "Łukasz Paweł Tomasz Krzysztof Michał Wojciech Grzegorz Piotr",
        "Małgorzata Agnieszka Katarzyna Bożena",
    ),
    _foreign(
        "HUN",
        "Kovács, Szabó, Tóth, Horváth, Varga, Kiss, Molnár, Németh, Farkas, Balogh",
        "Péter Zoltán Gábor László István Attila Tamás",
        "Ágnes Katalin Zsófia Erzsébet",
    ),
    _foreign(
        "CZE",
        "Dvořák, Novotný, Černý, Procházka, Kučera, Veselý, Horák, Němec, Pokorný",
        "Jiří Tomáš Radek Petr Jan Miroslav Zdeněk",
        "Lenka Petra Markéta",
    ),
    _foreign(
        "FRA",
        "Lefèvre, Gérard, Dubois, Moreau, Laurent, Lefebvre, Mercier, Rousseau, Fournier, Girard",
        "François Benoît Jérôme Stéphane Frédéric Thierry Loïc",
        "Hélène Céline Élodie Amélie",
    ),
    _foreign(
        "ESP",
        "García, Pérez, Martínez, Núñez, Sánchez, Fernández, Gómez, Jiménez, Álvarez, Muñoz",
        "José Andrés Raúl Jesús Ángel Iñigo Sebastián",
        "Inés María Lucía Begoña",
    ),
    _foreign(
        "DEN",
        "Sørensen, Jørgensen, Møller, Kjær, Brøndum, Løvgren, Nørgaard, Østergaard",
        "Søren Jens Bjørn Jørn Rasmus Mads",
        "Sørine Bodil Mette",
    ),
    _foreign(
        "IRL",
        "Ó Briain, Ó Súilleabháin, Mac Giolla, Ní Bhriain, Ó Ceallaigh, Ó Dónaill",
        "Seán Pádraig Ciarán Dónal Eoin",
        "Siobhán Aoife Niamh",
    ),
    _foreign(
        "IND",
        "Sharma, Gupta, Reddy, Iyer, Nair, Menon, Chatterjee, Banerjee, Rao, Joshi, Desai, Mehta",
        "Arjun Vikram Rahul Sanjay Anand Suresh Rajesh Karthik",
        "Deepa Lakshmi Sunita Anita",
    ),
    _foreign(
        "CHN",
        "Wang, Zhang, Liu, Chen, Yang, Huang, Zhao, Zhou, Wu, Xu",
        "Wei Jun Hao Lei Ming Tao",
        "Li Fang Xiu Mei",
    ),
)


@dataclass(frozen=True)
class Name:
    surname: str
    forenames: str
    nation: str = "ENG"

    @property
    def written(self) -> str:
        """'Surname, Forenames', as results files and lists write it."""
        return full_name(self.surname, self.forenames)

    @property
    def first(self) -> str:
        return self.forenames.split()[0]


def surname_key(surname: str) -> str:
    """Folded as identification folds it: accents, case, spaces and apostrophes go."""
    return "".join(ch for ch in unidecode(surname).lower() if ch.isalnum())


def _zipf(count: int, offset: float) -> np.ndarray:
    weights = 1.0 / (np.arange(count) + offset)
    return weights / weights.sum()


def _all_surnames() -> tuple[list[str], np.ndarray]:
    """Common names carry 45% of the weight, spread by rank; the invented tail 55%.

    In England the hundred commonest surnames cover only about a fifth of the people.
    """
    common = list(dict.fromkeys(COMMON_SURNAMES))
    tail = [stem + end for stem in _STEMS for end in _ENDINGS if stem + end not in common]
    weights = np.concatenate([0.45 * _zipf(len(common), 25.0), 0.55 * _zipf(len(tail), 400.0)])
    return common + tail, weights / weights.sum()


class NameMaker:
    """Draws names; the pools and their cumulative weights are built once per federation."""

    FOREIGN_SHARE = 0.05  # of players: accented or other foreign names
    MIDDLE_NAME_SHARE = 0.35

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.surnames, weights = _all_surnames()
        self._surname_cdf = np.cumsum(weights)
        self._forenames = {
            key: (pool, np.cumsum(_zipf(len(pool), 6.0)))
            for key, pool in (
                (("M", False), MALE_OLD),
                (("F", False), FEMALE_OLD),
                (("M", True), MALE_YOUNG),
                (("F", True), FEMALE_YOUNG),
            )
        }

    def names(self, sexes: list[str], young: list[bool]) -> list[Name]:
        """One name per player; draws are made in bulk so 60,000 names take a blink."""
        count = len(sexes)
        surnames = self._pick(self._surname_cdf, count)
        draws = self.rng.random((count, 4))
        return [
            self._name(sex, is_young, self.surnames[surname], row)
            for sex, is_young, surname, row in zip(sexes, young, surnames, draws, strict=True)
        ]

    def name(self, sex: str, young: bool) -> Name:
        return self.names([sex], [young])[0]

    def _pick(self, cdf: np.ndarray, count: int) -> list[int]:
        picked = np.searchsorted(cdf, self.rng.random(count) * cdf[-1], side="right")
        return np.minimum(picked, len(cdf) - 1).tolist()

    def _forename(self, sex: str, young: bool, draw: float) -> str:
        pool, cdf = self._forenames[(sex, young)]
        return pool[min(int(np.searchsorted(cdf, draw * cdf[-1], side="right")), len(pool) - 1)]

    def _name(self, sex: str, young: bool, surname: str, draws: np.ndarray) -> Name:
        """An English name, or now and then a foreign one of the same sex."""
        foreign, first, middle, has_middle = draws.tolist()
        if foreign < self.FOREIGN_SHARE:
            return self._foreign(sex, young, [foreign / self.FOREIGN_SHARE, *draws[1:].tolist()])
        forenames = self._forename(sex, young, first)
        if has_middle < self.MIDDLE_NAME_SHARE:
            second = self._forename(sex, young, middle)
            if second != forenames:
                forenames = f"{forenames} {second}"
        return Name(surname, forenames)

    def _foreign(self, sex: str, young: bool, draws: list[float]) -> Name:
        """A foreign surname; the forename English (born here) or of the same country."""
        which, born_here, surname, forename = draws
        country = FOREIGN[int(which * len(FOREIGN))]
        family = country.surnames[int(surname * len(country.surnames))]
        if born_here < 0.4:
            return Name(family, self._forename(sex, young, forename))
        given = country.male if sex == "M" else country.female
        return Name(family, given[int(forename * len(given))], country.nation)


def strip_accents(text: str) -> str:
    """How a grader's keyboard often writes 'Müller': 'Muller'."""
    return unidecode(text) if not text.isascii() else text


def initials(forenames: str) -> str:
    """'John Robert' -> 'J R' (identification reads it as consistent initials)."""
    return " ".join(word[0] for word in forenames.split())


def typo(surname: str, rng: Rng) -> str:
    """One slip of the keyboard: two letters swapped, or a letter dropped or doubled."""
    if len(surname) < 5 or not surname.isalpha():
        return surname
    at = int(rng.integers(1, len(surname) - 2))
    slip = int(rng.integers(3))
    if slip == 0 and surname[at] != surname[at + 1]:
        return surname[:at] + surname[at + 1] + surname[at] + surname[at + 2 :]
    if slip == 1:
        return surname[:at] + surname[at + 1 :]
    return surname[:at] + surname[at] + surname[at:]
